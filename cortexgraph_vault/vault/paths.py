"""Every path we touch is resolved and must stay inside the vault root, symlinks included."""

from __future__ import annotations

import os
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
    root_real = Path(os.path.realpath(root))
    target = root_real / clean
    real = Path(os.path.realpath(target))
    if real != root_real and root_real not in real.parents:
        raise UnsafePath(f"{rel}: resolves outside the vault (symlink?); refused")
    return target


def relative_to_vault(root: Path, path: Path) -> str:
    root_real = Path(os.path.realpath(root))
    return Path(os.path.realpath(path)).relative_to(root_real).as_posix()
