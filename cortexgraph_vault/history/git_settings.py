"""The few git settings a commit depends on, read in one `git config` call and kept until a
config file changes: who commits, and what would make a commit more than its objects (hooks,
signing, a message cleanup of the person's choosing, a split index, automatic maintenance)."""

from __future__ import annotations

import os
import time

from cortexgraph_vault.history.locate import common_folder
from cortexgraph_vault.history.runner import GitRunner

FALLBACK_NAME = "cortexgraph-vault"
FALLBACK_EMAIL = "cortexgraph-vault@localhost"
# Read together: one process, asked again only when a config file changes.
_KEYS = (
    r"^(user\.email|commit\.gpgsign|commit\.cleanup|core\.hookspath|core\.splitindex"
    r"|gc\.auto|maintenance\..*|hook\..*)$"
)
_FALSE = {"false", "no", "off", "0", ""}
# git_dir -> (the config files' stats, when asked, the settings): a group commit does not start
# a git process to ask; the answer is asked again once a config file changes, and at least
# every few seconds (a file it includes may change).
_KNOWN: dict[str, tuple[tuple[object, ...], float, dict[str, str | None]]] = {}
_FOR_SECONDS = 5.0


def identity_config(runner: GitRunner) -> list[str]:
    """`-c user.*` for a repository where nobody said who commits; [] when someone did."""
    configured = bool((settings(runner).get("user.email") or "").strip())
    from_env = os.environ.get("EMAIL") or (
        os.environ.get("GIT_AUTHOR_EMAIL") and os.environ.get("GIT_COMMITTER_EMAIL")
    )
    if configured or from_env:
        return []
    return ["-c", f"user.name={FALLBACK_NAME}", "-c", f"user.email={FALLBACK_EMAIL}"]


def settings(runner: GitRunner) -> dict[str, str | None]:
    """The settings above as git reports them (lower-case names; None: a bare boolean key)."""
    key = (
        *(file_key(f) for f in _config_files(runner)),
        *sorted((k, v) for k, v in os.environ.items() if k.startswith("GIT_CONFIG")),
    )
    known = _KNOWN.get(str(runner.git_dir))
    now = time.monotonic()
    if known is not None and known[0] == key and now - known[1] < _FOR_SECONDS:
        return known[2]
    found: dict[str, str | None] = {}
    result = runner.run("config", "-z", "--get-regexp", _KEYS)
    for item in result.out.split(b"\0") if result.ok else []:  # 1: none of them is set
        if item:
            name, newline, value = item.decode("utf-8", "surrogateescape").partition("\n")
            found[name] = value if newline else None
    _KNOWN[str(runner.git_dir)] = (key, now, found)
    return found


def is_true(value: str | None) -> bool:
    """A git boolean; anything git would not read as false counts as true (the safe side)."""
    return value is None or value.strip().lower() not in _FALSE


def _config_files(runner: GitRunner) -> list[str]:
    """The files `git config` reads a setting from (includes aside), as git finds them."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    local = common_folder(runner.git_dir)
    return [
        os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig",
        os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"),
        os.path.join(xdg, "git", "config"),
        os.path.join(local, "config"),
        os.path.join(local, "config.worktree"),
    ]


def file_key(path: str | os.PathLike[str]) -> tuple[int, int, int] | None:
    """What changes when a file is written or replaced (None: there is none)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
