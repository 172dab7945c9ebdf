"""At start: commit what a killed process wrote but never committed.

First the commits it had kept before making them (vault/commit_outbox.py): each operation's own
paths under its own message, as it would have made them. Then any new memory file git does not
track, older than a minute, under one message that counts them (a file written by a process
killed before it could keep its commit, or by a version that kept none).

Asking git which memory files are untracked costs every start (a read command too) two git
processes. So once git has found none, a stamp outside the vault records
what that answer depended on: git's index, the ignore files, and the memory files the start's
walk found. A start that finds all of it unchanged knows the answer without asking again.
Without a stamp (a cold start), git is asked directly when the vault's `.git` folder shows the
repository plainly: one process.
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import time
from pathlib import Path

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.core import wording
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.vault.lock import vault_key

log = logging.getLogger(__name__)

# A new memory file this old and still untracked was written by a process that died before
# its commit; a younger one may be a live process's save on its way to its own commit.
UNCOMMITTED_AFTER_SECONDS = 60.0


def record_uncommitted(engine: VaultEngine) -> str | None:
    """Commit the new memory files (edits wait for their snapshot) older than a minute that
    git does not track. Never fails the start."""
    if not engine.config.git_commit_writes:
        return None
    if engine.outbox.any_left() and not engine.history_located():
        try:
            made = engine.commit_held(left_by_others=True)
        except (VaultError, OSError) as exc:
            log.warning("kept commits not made: %s", exc)
        else:
            if made:
                log.warning(
                    "%s: %s left by a process that stopped committed: %s",
                    engine.root,
                    wording.count(len(made), "commit"),
                    "; ".join(made),
                )
    stamp_file = user_cache_dir() / "uncommitted" / f"{vault_key(engine.root)}.stamp"
    stamp = _stamp(engine)
    if stamp is not None and _read(stamp_file) == stamp:
        return None  # nothing git would answer differently since it last found none
    if engine.history_located():  # no repository (or no git): nothing to commit into
        return None
    folders = engine.memory_folders()
    cutoff = time.time() - UNCOMMITTED_AFTER_SECONDS
    try:
        found = [p for p in _untracked(engine, folders) if p.endswith(".md")]
        if not found:
            if stamp is not None:
                _write(stamp_file, stamp)
            return None
        paths = [p for p in found if _written_before(engine, p, cutoff)]
        if not paths:
            return None
        saved = wording.count(len(paths), "memory")
        message = f"record: {saved} saved but never committed (a process stopped)"
        return engine.commit(paths, f"{message}\n\n{trailers('record', [])}")
    except (VaultError, OSError) as exc:
        log.warning("uncommitted saves not recorded: %s", exc)
        return None


def _untracked(engine: VaultEngine, folders: list[str]) -> list[str]:
    """Files under `folders` git does not track and does not ignore, as `changed_paths` with
    `untracked_only` names them: sorted, vault-relative."""
    dotgit = engine.git_dir()
    if dotgit is None or dotgit.name != ".git" or not dotgit.is_dir():
        # a `.git` file (a linked work tree, a submodule): its work tree is for git to find
        return engine.history.changed_paths(folders, untracked_only=True)
    # Imported here: a warm start that the stamp answers asks git nothing and imports none of it.
    from cortexgraph_vault.history.recording import never_committed
    from cortexgraph_vault.history.runner import CONFIG_ARGS, ENV, split_nul

    env = {**os.environ, **ENV, "GIT_DIR": str(dotgit), "GIT_WORK_TREE": str(dotgit.parent)}
    # run in the vault: git takes the folders and names the files relative to it
    command = ["git", *CONFIG_ARGS, "ls-files", "--others", "--exclude-standard", "-z", "--"]
    try:
        done = subprocess.run(
            [*command, *folders],
            cwd=engine.root,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except OSError:
        done = None
    if done is None or done.returncode != 0:  # what went wrong is told as the history tells it
        return engine.history.changed_paths(folders, untracked_only=True)
    return sorted(p for p in split_nul(done.stdout) if not never_committed(p))


def _stamp(engine: VaultEngine) -> str | None:
    """What the untracked memory files depend on, or None when the `.git` files alone do not
    show the repository (git is then asked every time)."""
    git_dir = engine.git_dir()
    if git_dir is None:
        return None
    folders = engine.memory_folders()
    watched = [git_dir / "index", git_dir / "info" / "exclude", engine.root / ".gitignore"]
    watched += [git_dir.parent / ".gitignore"]
    watched += [engine.root / folder for folder in folders]  # a new file changes its folder
    watched += [engine.root / folder / ".gitignore" for folder in folders]
    digest = hashlib.sha256()
    for path in watched:
        digest.update(f"{path}\0{_stat(path)}\n".encode("utf-8", "surrogateescape"))
    prefixes = tuple(f"{folder}/" for folder in folders)
    notes = sorted(n.path for n in engine.catalog.notes() if n.path.startswith(prefixes))
    problems = sorted(p for p, _ in engine.catalog.problems() if p.startswith(prefixes))
    for name in (*notes, "\0", *problems):
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


def _stat(path: Path) -> str:
    try:
        st = path.stat()
    except OSError:
        return "-"
    return f"{st.st_mtime_ns} {st.st_size} {st.st_ino}"


def _read(path: Path) -> str | None:
    try:
        return path.read_text("ascii").strip()
    except (OSError, UnicodeError):
        return None


def _write(path: Path, stamp: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temp.write_text(stamp + "\n", "ascii")
        os.replace(temp, path)
    except OSError as exc:  # only a later start's speed depends on it
        log.debug("uncommitted stamp not written: %s", exc)


def _written_before(engine: VaultEngine, rel: str, cutoff: float) -> bool:
    try:
        return (engine.root / rel).lstat().st_mtime < cutoff
    except OSError:
        return False
