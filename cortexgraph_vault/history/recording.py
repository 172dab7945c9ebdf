"""Recording operations as commits: exactly the paths an operation touched, nothing else.

A person (or the obsidian-git plugin) may have their own work staged or unstaged in the same
repository, and may be committing at this very moment. So we stage only our paths, commit them
from HEAD plus our paths, leaving the rest of the index alone (git's plumbing, `plumbing.py`; or
`git commit --only` when hooks, signing or a merge in progress need `git commit`), wait while
another git holds a lock, and put the index back if we fail.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
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
    load_gitpython,
    nul_join,
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
_UPDATE_INDEX = ("update-index", "--add", "--remove", "--replace", "-z", "--stdin")
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
    ) -> GitResult:
        """`cas`: a ref update from an old value, which another commit makes HeadMoved."""
        delay = _FIRST_DELAY
        while True:
            # Checking first spares a doomed process per poll while obsidian-git commits (a
            # ref update takes no index lock: waiting for it would let that commit go first).
            if cas or not self.runner.index_lock.exists():
                result = self.runner.run(*args, input=input, config=config)
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
                raise GitError(
                    f"{self.runner.vault_root}: git is busy (.git/index.lock held for more than "
                    f"{self.seconds:g} s; another git process may be running, or it was left by a "
                    "crash — remove it if no git is running); nothing was committed"
                )
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, _MAX_DELAY)

    def time_left(self) -> bool:
        return time.monotonic() < self.deadline

    def _busy(self, result: GitResult) -> bool:
        # A lock someone holds says "File exists" (GitPython runs git with LC_ALL=C); a lock we
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
    # HEAD before the index's snapshot: another tool's commit between the two then shows as a
    # moved HEAD, and a failure leaves the index alone rather than staging entries of the
    # HEAD before it (a revert of that commit).
    start = runner.head_from_files() or runner.head_or_none()
    stageable, ours, snapshot = _committable(runner, wanted, has_head=start is not None)
    if not ours:
        return None
    pathspec = ("--pathspec-from-file=-", "--pathspec-file-nul")
    # `git commit` refreshes the whole index (a stat of every file); the plumbing does not,
    # and is used whenever it makes the same commit (history/plumbing.py).
    plumbed = exclusive and start is not None and plumbing.refusal(runner) is None
    # `update-index` stages the same entries as `add -A` for paths that are in the index or
    # new and not ignored (`_committable`), without looking for new files in their folders
    # (~3 ms at 10,000 notes), and stages a deletion again without complaint (`add` refuses a
    # path it already removed, when a plumbing commit is made again by `git commit`).
    stage = _UPDATE_INDEX if plumbed else ("add", "-A", *pathspec)
    staged = False  # once staged, a later failure puts the index back
    # The message goes in a file: a gc of 1,000 memories lists each one, longer than one
    # argument may be (128 KiB on Linux), and stdin carries the paths. Written before staging,
    # so the moment between `add` and `commit` stays as short as it was.
    with tempfile.TemporaryDirectory(prefix="cgv-commit-") as folder:
        message_file = Path(folder) / "message"
        message_file.write_text(message, encoding="utf-8")
        while True:
            if stageable:
                try:
                    waiter.run(*stage, input=nul_join(stageable), doing="stage the changed files")
                except GitError as exc:
                    if not staged:
                        raise
                    left = _restore_index(runner, ours, snapshot, start, lock_wait)
                    raise GitError(f"{exc}{left}") from exc
                staged = True
            changed: list[str] = []
            try:
                if plumbed:
                    config = identity_config(runner)
                    made, sha = plumbing.commit(runner, ours, message, waiter, config)
                    if made:
                        return sha
                else:
                    changed = _staged_changes(runner, ours, has_head=True if start else None)
                if changed:
                    waiter.run(
                        "commit", "--only", "--quiet", "-F", str(message_file), *pathspec,
                        input=nul_join(changed), config=identity_config(runner), doing="commit",
                    )  # fmt: skip
                    return runner.head_sha()
            except plumbing.HeadMoved:
                # Another tool committed between our reading HEAD and moving it. Again with
                # `git commit`, which holds the index lock throughout: the plumbing holds none,
                # and a tool that commits again and again would win every race with it.
                plumbed = False
                if waiter.time_left():
                    continue
                _restore_index(runner, ours, snapshot, start, lock_wait)
                raise GitError(
                    wording.index_kept_busy(str(runner.vault_root), lock_wait, len(ours))
                ) from None
            except GitError as exc:
                if changed and not _staged_changes(runner, ours):
                    if not _differs_from_head(runner, ours):
                        return None  # another tool (obsidian-git) committed our paths meanwhile
                    if waiter.time_left():
                        continue  # another tool's commit wrote over the index: stage again
                left = _restore_index(runner, ours, snapshot, start, lock_wait)
                raise GitError(f"{exc}{left}") from exc
            if not _differs_from_head(runner, ours):
                break  # nothing new to record
            # Staged, then unstaged before we looked: another tool's `git commit -- <its
            # paths>` read the index before our `add` and wrote it back after. Stage again.
            if not waiter.time_left():
                _restore_index(runner, ours, snapshot, start, lock_wait)
                raise GitError(
                    wording.index_kept_busy(str(runner.vault_root), lock_wait, len(ours))
                )
    _restore_index(runner, ours, snapshot, start, lock_wait)  # no trace of a non-commit
    return None


def _differs_from_head(runner: GitRunner, paths: Sequence[str]) -> bool:
    """Whether a working file among `paths` is not what HEAD holds (new, edited, deleted)."""
    if not runner.has_head():
        return any(os.path.lexists(runner.work_tree / path) for path in paths)
    # `git diff HEAD` skips a file the index does not hold: our new file, when another tool's
    # write-back of the index dropped our `add`, would pass for already recorded.
    if runner.list_paths("ls-files", "--others", "--exclude-standard", paths=paths):
        return True
    diff = ("diff", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", "HEAD")
    return bool(runner.list_paths(*diff, paths=paths))


def _committable(
    runner: GitRunner, wanted: Sequence[str], *, has_head: bool
) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Files among `wanted` git can record, as (to stage, all, their index entries): to stage
    are those in the index or new and not ignored; all adds those only HEAD still knows (`git
    add` would refuse them, `git commit --only` records their deletion). A path that exists
    nowhere is dropped. One `ls-files` answers for the index and the new files together (the
    index's entries with their stage lines, a new file by its bare name)."""
    asked = set(wanted)
    stageable: set[str] = set()
    entries: dict[str, list[str]] = {}
    listing = ("ls-files", "--stage", "--cached", "--others", "--exclude-standard")
    for item in runner.list_paths(*listing, paths=wanted):
        if item in asked:  # a bare name: a new file (an entry's line is never a path asked)
            stageable.add(item)
            continue
        meta, _, path = item.partition("\t")
        stageable.add(path)
        entries.setdefault(path, []).append(meta)
    for lines in entries.values():
        lines.sort()
    known = set(stageable)
    # Only a path neither in the index nor new can be one that only HEAD still knows.
    if has_head and not asked <= known:
        known |= runner.list_paths("ls-tree", "-r", "--name-only", "HEAD", paths=wanted)
    ours = _ours(runner, known)
    return _ours(runner, stageable), ours, {p: entries[p] for p in ours if p in entries}


def _ours(runner: GitRunner, paths: set[str]) -> list[str]:
    keep = []
    for path in sorted(paths):
        vault_path = runner.from_repo(path)
        if vault_path is not None and not _NEVER_COMMIT.match(vault_path):
            keep.append(path)
    return keep


def _staged_changes(
    runner: GitRunner, paths: Sequence[str], *, has_head: bool | None = None
) -> list[str]:
    if not (runner.has_head() if has_head is None else has_head):
        return sorted(runner.list_paths("ls-files", "--cached", paths=paths))
    diff = ("diff-index", "--cached", "--name-only", "--no-renames", "HEAD")
    return sorted(runner.list_paths(*diff, paths=paths))


def _index_entries(runner: GitRunner, paths: Sequence[str]) -> dict[str, list[str]]:
    """path -> its index lines ("mode sha stage"), several when a merge conflict is staged."""
    entries: dict[str, list[str]] = {}
    for line in runner.list_paths("ls-files", "--stage", paths=paths):
        meta, _, path = line.partition("\t")
        entries.setdefault(path, []).append(meta)
    for lines in entries.values():
        lines.sort()
    return entries


def _restore_index(
    runner: GitRunner,
    paths: Sequence[str],
    snapshot: dict[str, list[str]],
    start: str | None,
    lock_wait: float,
) -> str:
    """Put our paths' index entries back as they were; '' on success, else what is left."""
    try:
        # Once another tool has committed, the old entries describe a past HEAD: putting them
        # back would stage a revert of that commit.
        if runner.head_or_none() != start or _index_entries(runner, paths) == snapshot:
            return ""
        lines = []
        for path in paths:
            lines.append(f"0 {runner.zero_sha()}\t{path}")  # mode 0 removes the entry
            lines.extend(f"{meta}\t{path}" for meta in snapshot.get(path, []))
        LockWait(runner, min(lock_wait, 2.0)).run(
            "update-index", "-z", "--index-info", input=nul_join(lines), doing="restore the index"
        )
        return ""
    except GitError:
        return wording.index_still_staged(len(paths))


def init_repo(vault_root: Path, lock_wait: float) -> None:
    """Make the vault a repository with a first commit of everything in it. Idempotent: an
    existing repository only gains a .gitignore when the vault has none."""
    vault_root = Path(vault_root)
    if not vault_root.is_dir():
        raise GitError(f"{vault_root}: not a folder; no repository was made")
    found = GitRunner.discover(vault_root)
    if isinstance(found, str):
        gitmod = load_gitpython()
        if gitmod is None or not git_works():
            raise GitError(f"{found}; no repository was made")
        status, _, err = gitmod.Git(str(vault_root)).execute(
            ["git", "init", "-q"], with_extended_output=True, with_exceptions=False, env=ENV
        )
        if status:
            raise GitError(f"{vault_root}: git init failed ({err.strip()}); nothing was changed")
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
