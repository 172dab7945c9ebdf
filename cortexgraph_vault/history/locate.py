"""Finding a vault's repository by reading `.git` files, without starting git
(two processes, `git version` and `git rev-parse`, at every start of a read command).

Only the plain layouts are answered here: a `.git` folder, or a `.git` file saying `gitdir:`
(a linked work tree, a submodule). Like git, the search upwards stops below any folder named in
GIT_CEILING_DIRECTORIES (`searched_folders`): a vault in a folder of a repository is recorded
in that repository, unless a ceiling says the repository is not its own. Anything else — a bare repository, a `core.worktree` or
`core.bare` setting, GIT_* variables that move the repository — is left to the full discovery
(`GitRunner.discover`), which then says what it always said.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

NO_GIT = "git is not installed (no working `git` on PATH); history is off"
# These move the repository or the work tree; git then decides, not us.
_MOVING_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY")
_HEAD = re.compile(rb"^(?:ref:\s*refs/|[0-9A-Fa-f]{40})")
_CONFIG_MOVES = re.compile(r"^\s*(worktree|bare\s*=\s*(true|yes|on|1))\b", re.I | re.M)


@dataclass(frozen=True)
class Located:
    """A repository found (`git_dir` set, `reason` "") or known to be missing (`reason`)."""

    git_dir: Path | None
    reason: str = ""


def not_a_repository(vault_root: Path) -> str:
    return f"{vault_root} is not a git repository; run `cortexgraph-vault init` to make it one"


def _looks_like_git_dir(folder: Path) -> bool:
    """git's own test: a HEAD naming a ref or a commit, and the (common) objects and refs."""
    try:
        with open(folder / "HEAD", "rb") as head:
            if not _HEAD.match(head.read(256)):
                return False
        common = common_folder(folder)
    except (OSError, UnicodeError):
        return False
    return (common / "objects").is_dir() and (common / "refs").is_dir()


def common_folder(git_dir: Path) -> Path:
    """The repository's shared folder (config, hooks, objects, refs): a linked work tree's is
    the main repository's."""
    try:
        return git_dir / (git_dir / "commondir").read_text("utf-8").strip()
    except FileNotFoundError:
        return git_dir


def _plain(git_dir: Path) -> bool:
    """A repository whose work tree is the folder holding its `.git` (nothing moves it)."""
    try:
        config = (git_dir / "config").read_text("utf-8", "replace")
    except FileNotFoundError:
        config = ""  # a linked work tree keeps its settings in the common folder
    except OSError:
        return False
    return not _CONFIG_MOVES.search(config)


def _gitdir_file(dotgit: Path) -> Path | None:
    try:
        first = dotgit.read_text("utf-8").splitlines()[0]
    except (OSError, UnicodeError, IndexError):
        return None
    if not first.startswith("gitdir:"):
        return None
    target = Path(first[len("gitdir:") :].strip())
    return target if target.is_absolute() else dotgit.parent / target


def searched_folders(vault_root: Path) -> list[Path]:
    """The vault's folder and the parents git would search for its repository: every one, up
    to (not into) the deepest GIT_CEILING_DIRECTORIES entry above the vault (git's rule:
    absolute entries only; the vault's own folder is searched even when it is one)."""
    folder = vault_root.resolve()
    entries = os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep)
    ceilings = {Path(os.path.realpath(e)) for e in entries if e and os.path.isabs(e)}
    found = [folder]
    for parent in folder.parents:
        if parent in ceilings:
            break
        found.append(parent)
    return found


def locate(vault_root: Path) -> Located | None:
    """The vault's repository as its files show it, or None when only git can tell."""
    if any(name in os.environ for name in _MOVING_VARIABLES):
        return None
    if shutil.which("git") is None:
        return Located(None, NO_GIT)
    if not vault_root.is_dir():
        return None  # the full discovery words this one
    for current in searched_folders(vault_root):
        if _looks_like_git_dir(current):
            return None  # inside a repository's own folder (a bare one?): git decides
        dotgit = current / ".git"
        if dotgit.is_dir():
            found: Path | None = dotgit
        elif dotgit.exists() or dotgit.is_symlink():
            found = _gitdir_file(dotgit)
        else:
            continue
        if found is None or not _looks_like_git_dir(found) or not _plain(found):
            return None
        return Located(found)
    return Located(None, not_a_repository(vault_root))
