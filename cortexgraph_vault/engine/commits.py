"""Group commits: saves made one after another are recorded in git together, off the change lock.

A git commit (several git processes) takes many times a save's write. Made under the change
lock, each save's commit would hold every other change back. Instead a save asks for its
commit here and the call that made it waits for that commit once it has let go of the lock
(`ServiceCalls`): a committer thread records every save queued meanwhile in one commit, so the
saves of a busy minute cost a few commits, and each save still answers with the commit that
holds its file.

While saves keep coming (a commit ended less than `BUSY` ago), the committer gathers them for
up to `GATHER` before committing: each commit costs git's CPU whatever it holds (git reads
and writes the whole index), so commits of one or two saves each would take much of a busy
daemon's CPU. A lone save is committed at once.

Only a call that can wait after its lock (a door's call through `ServiceCalls`) defers its
commit; anything else commits at once. Each save's own commit is kept outside the vault as soon
as it is asked for (`vault/commit_outbox.py`): a process killed before the group's commit leaves
each to the next start, made under its own subject. When a group's commit fails, each save is
committed alone, so one that git refuses keeps no other out of history and is told why.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from cortexgraph_vault.errors import GitOperationInProgress
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.vault.durability import Pending

log = logging.getLogger("cortexgraph_vault")

# Keeps a commit about to be made outside the vault (vault/commit_outbox.py): its name.
KeepFn = Callable[[list[str], str], str]
# Makes one commit of paths with a message, and lets go of the kept entries it makes; raises
# (GitError) with the reason when it cannot.
CommitFn = Callable[[list[str], str, list[str]], str | None]
GATHER = 0.1  # seconds a busy committer waits for more saves after the first one queued
GATHER_MOST = 64  # entries that are enough to commit without waiting longer
BUSY = 0.5  # a commit that ended this many seconds ago or less: saves keep coming


class CommitTicket:
    """A commit asked for: `wait()` gives its sha (None when nothing was recorded); `failure`
    then says why it was not made, when it was not."""

    def __init__(
        self, sha: str | None = None, *, done: bool = False, failure: str | None = None
    ) -> None:
        self._done = Pending()
        self.sha = sha
        self.failure = failure
        if done:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def resolve(self, sha: str | None, failure: str | None = None) -> None:
        self.sha = sha
        self.failure = failure
        self._done.set()

    def wait(self) -> str | None:
        self._done.wait()
        return self.sha

    def when_done(self, callback: Callable[[], None]) -> None:
        """`callback()` once the commit is made or refused (it must not block)."""
        self._done.when_done(callback)


@dataclass
class _Entry:
    paths: tuple[str, ...]
    subject: str
    operation: str
    ids: tuple[str, ...]
    ticket: CommitTicket = field(default_factory=CommitTicket)
    kept: str = ""  # its own commit, kept until made, for a restart after a kill


def group_message(entries: Iterable[_Entry]) -> str:
    """One entry: its own message, as an ungrouped commit has it. Several (of one operation):
    a subject that counts them, each one's subject, and every memory's trailer."""
    entries = list(entries)
    ids = [i for e in entries for i in e.ids]
    if len(entries) == 1:
        return f"{entries[0].subject}\n\n{trailers(entries[0].operation, ids)}"
    operation = entries[0].operation
    listed = "\n".join(e.subject for e in entries)
    return f"{operation}: {len(entries)} memories\n\n{listed}\n\n{trailers(operation, ids)}"


class GroupCommitter:
    """Commits queued entries on a thread of its own, all that queued meanwhile at a time."""

    def __init__(self, commit: CommitFn, keep: KeepFn) -> None:
        self._commit = commit
        self._keep = keep
        self._cond = threading.Condition()
        self._queue: list[_Entry] = []
        self._thread: threading.Thread | None = None
        self._local = threading.local()
        self.commits = 0  # commits made (a figure for tests and the bench)
        self._last_commit_end = -BUSY  # monotonic
        self._first_queued = 0.0  # when the oldest queued entry came

    # the calls that may wait ------------------------------------------------------
    @contextlib.contextmanager
    def deferred(self) -> Iterator[list[CommitTicket]]:
        """Within this block (on this thread) commits are queued, not made; the list holds
        their tickets for the caller to wait on once it has let go of its lock."""
        tickets: list[CommitTicket] = []
        outer = getattr(self._local, "tickets", None)
        self._local.tickets = tickets if outer is None else outer
        try:
            yield tickets
        finally:
            self._local.tickets = outer

    def submit(
        self, paths: Iterable[str], subject: str, operation: str, ids: Iterable[str]
    ) -> CommitTicket:
        """Queue a commit when the calling thread can wait for it later; else make it now."""
        entry = _Entry(tuple(paths), subject, operation, tuple(ids))
        # Kept with its own message as soon as asked for: a process killed while the save waits
        # for company leaves it to the next start, committed under its own subject.
        entry.kept = self._keep(list(entry.paths), group_message([entry]))
        waiting: list[CommitTicket] | None = getattr(self._local, "tickets", None)
        if waiting is None:
            self._record([entry])
            return entry.ticket
        with self._cond:
            if not self._queue:
                self._first_queued = time.monotonic()
            self._queue.append(entry)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="cgv-group-commit", daemon=True
                )
                self._thread.start()
            self._cond.notify()
        waiting.append(entry.ticket)
        return entry.ticket

    # the committer ----------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.wait()
                if self._first_queued - self._last_commit_end <= BUSY:
                    until = self._first_queued + GATHER
                    while len(self._queue) < GATHER_MOST and (left := until - time.monotonic()) > 0:
                        self._cond.wait(left)
                batch, self._queue = self._queue, []
            for group in _by_operation(batch):
                self.commits += self._record(group)
            self._last_commit_end = time.monotonic()

    def _record(self, group: list[_Entry]) -> int:
        """One commit for the group (returns the commits made); when it fails, one for each entry, so that one entry git
        refuses (a hook's rule, a file it cannot read) keeps no other out of history, and
        each entry is told why its own commit was not made."""
        paths = list(dict.fromkeys(p for e in group for p in e.paths))
        try:
            sha = self._commit(paths, group_message(group), [e.kept for e in group])
        except Exception as exc:  # a commit is never an answer's error: the file is the truth
            if len(group) > 1 and not isinstance(exc, GitOperationInProgress):
                log.warning(
                    "group commit of %d saves failed (%s); each committed alone", len(group), exc
                )
                return sum(self._record([entry]) for entry in group)
            if not isinstance(exc, GitOperationInProgress):
                log.warning("commit of %s failed: %s", paths, exc)
            for entry in group:
                entry.ticket.resolve(None, str(exc))
            return 0
        for entry in group:
            entry.ticket.resolve(sha)
        return 1


def _by_operation(batch: list[_Entry]) -> list[list[_Entry]]:
    groups: dict[str, list[_Entry]] = {}
    for entry in batch:
        groups.setdefault(entry.operation, []).append(entry)
    return list(groups.values())
