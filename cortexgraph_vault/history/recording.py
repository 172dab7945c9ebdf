"""Recording operations as commits: exactly the paths an operation touched, nothing else.

A person (or the obsidian-git plugin) may have their own work staged or unstaged in the same
repository, and may be committing at this very moment. So our paths are staged in a copy of the
index, never in the index itself, and committed from HEAD plus our paths (git's plumbing, or
`git commit` of that copy when hooks or signing need it: `plumbing.py`); the index is written
once the commit is made, to hold our paths as committed. A failure, or a process killed at any
moment, leaves nothing of ours staged in the person's index.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from cortexgraph_vault.core import wording
from cortexgraph_vault.errors import GitError, InvalidArgument
from cortexgraph_vault.history import plumbing
from cortexgraph_vault.history.git_settings import identity_config
from cortexgraph_vault.history.runner import (
    ENV,
    GitResult,
    GitRunner,
    clean_vault_path,
    git_works,
    run_git,
)
from cortexgraph_vault.vault.lock import flock_within

INITIAL_MESSAGE = "cortexgraph-vault: start keeping the vault's history"
GITIGNORE = """\
# Written by cortexgraph-vault: per-device Obsidian state and deleted files stay out of history.
.obsidian/workspace*.json
.obsidian/plugins/*/data.json
.trash/
"""
# Plugin settings are per device and may hold tokens: never ours to commit, even when asked.
# Nor our own hidden files of a write or a forget in progress (a snapshot must not catch one).
_NEVER_COMMIT = re.compile(
    r"^\.obsidian/plugins/[^/]+/data\.json$|^(.*/)?\.[^/]*\.cgv-(tmp|aside)-[^/]*$"
)
_FIRST_DELAY = 0.05
_MAX_DELAY = 0.5


class LockWait:
    """Runs git commands that need the index lock, waiting while another git holds it."""

    def __init__(self, runner: GitRunner, seconds: float) -> None:
        self.runner = runner
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def run(
        self,
        *args: str,
        doing: str,
        input: bytes | None = None,
        config: Sequence[str] = (),
        cas: bool = False,
        index: Path | None = None,
    ) -> GitResult:
        """`cas`: a ref update from an old value, which another commit makes HeadMoved;
        `index`: a copy of the index the command works on (it needs no wait for the lock)."""
        delay = _FIRST_DELAY
        while True:
            # Checking first spares a doomed process per poll while obsidian-git commits (a
            # ref update takes no index lock: waiting for it would let that commit go first).
            if cas or index is not None or not self.runner.index_lock.exists():
                result = self.runner.run(*args, input=input, config=config, index=index)
                if result.ok:
                    return result
                if cas and "but expected" in result.err:
                    raise plumbing.HeadMoved(f"{self.runner.vault_root}: HEAD moved meanwhile")
                if not self._busy(result):
                    raise GitError(
                        f"{self.runner.vault_root}: git could not {doing} ({result.reason}); "
                        "nothing was committed, and the files and the index were left as they were"
                    )
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise self.lock_held()
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, _MAX_DELAY)

    def lock_held(self) -> GitError:
        return GitError(
            f"{self.runner.vault_root}: git is busy (.git/index.lock held for more than "
            f"{self.seconds:g} s; another git process may be running, or it was left by a "
            "crash — remove it if no git is running); nothing was committed"
        )

    def time_left(self) -> bool:
        return time.monotonic() < self.deadline

    def pause(self, seconds: float) -> None:
        """Wait before the next try, never past the deadline (every wait of a commit goes
        through here, so one clock decides when it gives up)."""
        time.sleep(max(0.0, min(seconds, self.deadline - time.monotonic())))

    def _busy(self, result: GitResult) -> bool:
        # A lock someone holds says "File exists" (we run git with LC_ALL=C); a lock we
        # may not create (read-only .git) says "Permission denied" and is a real failure.
        # Another tool's commit landing between ours reading HEAD and moving it: "cannot lock
        # ref 'HEAD': is at X but expected Y"; the commit is undone, and made again on HEAD.
        err = result.err
        if "cannot lock ref" in err and "but expected" in err:
            return True
        return ".lock" in err and ("File exists" in err or self.runner.index_lock.exists())


@contextlib.contextmanager
def commit_file_lock(runner: GitRunner, seconds: float) -> Iterator[bool]:
    """Our writers commit one at a time, across threads and processes. `git commit --only`
    reads the index before it locks it: another writer's `git add` landing in between would be
    written over, its paths unstaged and its commit never made. Held on a file in `.git/`, so
    every vault of one repository shares it; a `.git` we cannot write has nothing to guard.
    Yields whether it holds the lock (the plumbing commit's own files in `.git/` need it)."""
    try:
        fd = os.open(
            runner.git_dir / "cortexgraph-vault-commit.lock", os.O_RDWR | os.O_CREAT, 0o644
        )
    except OSError:
        yield False
        return
    try:
        if not flock_within(fd, seconds, first_delay=_FIRST_DELAY, max_delay=_MAX_DELAY):
            raise GitError(
                f"{runner.vault_root}: another cortexgraph-vault process has been "
                f"committing for more than {seconds:g} s; nothing was committed"
            )
        yield True
    finally:
        os.close(fd)  # and with it the lock


def never_committed(vault_path: str) -> bool:
    return _NEVER_COMMIT.match(vault_path) is not None


def record(
    runner: GitRunner,
    paths: Iterable[str],
    message: str,
    lock_wait: float,
    *,
    exclusive: bool = False,
) -> str | None:
    """Commit exactly `paths` (vault-relative) and return the new commit's sha, or None when
    they hold nothing new. Raises GitError with the reason and what was left as it was.
    `exclusive`: the caller holds the commit file lock, which the plumbing commit needs."""
    if not message.strip():
        raise InvalidArgument("a commit message is required; nothing was committed")
    vault_paths = {clean_vault_path(p) for p in paths}
    wanted = sorted(runner.to_repo(p) for p in vault_paths if not _NEVER_COMMIT.match(p))
    if not wanted:
        return None
    waiter = LockWait(runner, lock_wait)
    start = runner.head_from_files() or runner.head_or_none()
    stageable, ours = _committable(runner, wanted, has_head=start is not None)
    if not ours:
        return None
    # The plumbing whenever it makes the commit `git commit` would (history/plumbing.py).
    by_git_commit = start is None or not exclusive or plumbing.refusal(runner) is not None
    config = identity_config(runner)
    hold_index = False
    if exclusive:
        plumbing.clear_left_lock(runner)
    planned = plumbing.Commit(
        runner, stageable, ours, message, waiter, config, by_git_commit, exclusive
    )
    while True:
        try:
            made, sha = plumbing.commit(planned, hold_index=hold_index)
        except plumbing.HeadMoved:
            # Another tool committed between our reading HEAD and moving it: made again on
            # the new HEAD, from a new copy of the index, holding the index's lock as that
            # tool does, so that one committing again and again waits its turn.
            hold_index = exclusive
            if not waiter.time_left():
                if runner.index_lock.exists():
                    raise waiter.lock_held() from None
                raise GitError(
                    wording.index_kept_busy(str(runner.vault_root), lock_wait, len(ours))
                ) from None
            waiter.pause(_FIRST_DELAY)
            continue
        return sha if made else None


def _committable(
    runner: GitRunner, wanted: Sequence[str], *, has_head: bool
) -> tuple[list[str], list[str]]:
    """Files among `wanted` git can record, as (to stage, all): to stage are those in the index
    or new and not ignored; all adds those only HEAD still knows (their deletion is recorded).
    A path that exists nowhere is dropped. One `ls-files` answers for the index and the new
    files together (the index's entries with their stage lines, a new file by its bare name)."""
    asked = set(wanted)
    stageable: set[str] = set()
    listing = ("ls-files", "--stage", "--cached", "--others", "--exclude-standard")
    for item in runner.list_paths(*listing, paths=wanted):
        if item in asked:  # a bare name: a new file (an entry's line is never a path asked)
            stageable.add(item)
            continue
        stageable.add(item.partition("\t")[2])
    known = set(stageable)
    # Only a path neither in the index nor new can be one that only HEAD still knows.
    if has_head and not asked <= known:
        known |= runner.list_paths("ls-tree", "-r", "--name-only", "HEAD", paths=wanted)
    return _ours(runner, stageable), _ours(runner, known)


def _ours(runner: GitRunner, paths: set[str]) -> list[str]:
    keep = []
    for path in sorted(paths):
        vault_path = runner.from_repo(path)
        if vault_path is not None and not _NEVER_COMMIT.match(vault_path):
            keep.append(path)
    return keep


def init_repo(vault_root: Path, lock_wait: float) -> None:
    """Make the vault a repository with a first commit of everything in it. Idempotent: an
    existing repository only gains a .gitignore when the vault has none."""
    vault_root = Path(vault_root)
    if not vault_root.is_dir():
        raise GitError(f"{vault_root}: not a folder; no repository was made")
    found = GitRunner.discover(vault_root)
    if isinstance(found, str):
        if not git_works():
            raise GitError(f"{found}; no repository was made")
        made = run_git(["git", "init", "-q"], cwd=vault_root, env=ENV)
        if not made.ok:
            raise GitError(f"{vault_root}: git init failed ({made.reason}); nothing was changed")
        found = GitRunner.discover(vault_root)
        if isinstance(found, str):
            raise GitError(f"{found} even after git init; nothing was committed")
    runner = found
    created = _write_gitignore(vault_root)
    if runner.has_head():
        if created:
            record(runner, [".gitignore"], "cortexgraph-vault: add .gitignore", lock_wait)
        return
    waiter = LockWait(runner, lock_wait)
    waiter.run("add", "-A", "--", *runner.vault_pathspec(), doing="stage the vault")
    waiter.run(
        "commit",
        "--quiet",
        "--allow-empty",
        "-m",
        INITIAL_MESSAGE,
        config=identity_config(runner),
        doing="make the first commit",
    )


def _write_gitignore(vault_root: Path) -> bool:
    try:
        with (vault_root / ".gitignore").open("x", encoding="utf-8", newline="\n") as out:
            out.write(GITIGNORE)
    except FileExistsError:
        return False
    return True
