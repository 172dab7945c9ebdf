"""Every path we touch is resolved and must stay inside the vault root, symlinks included.

These checks name a bad path early and plainly; what keeps a swapped folder from leading out
between a check and a use is that every file is then reached from the root without
following a symlink (vault/anchored.py)."""

from __future__ import annotations

import functools
import os
import stat
from pathlib import Path, PurePosixPath

from cortexgraph_vault.errors import UnsafePath

# Folders a person's tools own; we never index or write into them.
IGNORED_DIRS = frozenset({".obsidian", ".git", ".trash", ".cortexgraph", "node_modules"})


def vault_relative(root: Path, rel: str) -> str:
    """Normalise a caller-supplied vault path to a clean posix relative path, or refuse it."""
    if not isinstance(rel, str) or not rel.strip():
        raise UnsafePath("empty path")
    if "\x00" in rel:
        raise UnsafePath(f"{rel!r}: path contains a NUL byte")
    # A Windows caller's separator; elsewhere a backslash is a letter of a file name, and a
    # note so named must stay reachable by the path the index knows it by.
    text = rel.replace("\\", "/") if os.sep == "\\" else rel
    pure = PurePosixPath(text)
    if pure.is_absolute() or (len(text) > 1 and text[1] == ":"):
        raise UnsafePath(f"{rel}: absolute paths are refused; give a path inside the vault")
    if ".." in pure.parts:
        raise UnsafePath(f"{rel}: '..' would leave the vault; give a path inside the vault")
    clean = PurePosixPath(*[p for p in pure.parts if p not in ("", ".")])
    if not clean.parts:
        raise UnsafePath(f"{rel}: not a file inside the vault")
    if clean.parts[0] in IGNORED_DIRS:
        raise UnsafePath(f"{rel}: {clean.parts[0]}/ belongs to another tool; refused")
    return clean.as_posix()


def safe_path(root: Path, rel: str) -> Path:
    """The absolute path for `rel`, after checking that no symlink leads out of the vault."""
    clean = vault_relative(root, rel)
    root_real = _real_root(os.fspath(root))
    target = os.path.join(root_real, clean)
    # Each write asks several times: lstat only the parts below the root (two for a memory)
    # and resolve the whole path only when one of them is a symlink.
    walked = root_real
    for part in clean.split("/"):
        walked = os.path.join(walked, part)
        try:
            if stat.S_ISLNK(os.lstat(walked).st_mode):
                break
        except OSError:  # not there (yet): nothing below it can be a link
            return Path(target)
    else:
        return Path(target)
    try:
        real = Path(os.path.realpath(target))
    except OSError:  # the link changed while it was resolved (a folder swapped in a loop)
        raise UnsafePath(f"{rel}: passes through a symlinked folder; refused") from None
    if real != Path(root_real) and Path(root_real) not in real.parents:
        raise UnsafePath(f"{rel}: resolves outside the vault (symlink?); refused")
    return Path(target)


@functools.lru_cache(maxsize=64)
def _real_root(root: str) -> str:
    """The vault root with its symlinks resolved, once per process (a vault is not moved
    under a running process; its folders may be, and are looked at each time)."""
    return os.path.realpath(root)
