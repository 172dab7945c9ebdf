"""Letting other changes run while a rewrite waits for the disk.

A touch spends most of its turn in one fsync: the temp file that will replace the note must be
on the disk before the rename (else a power cut could leave the note empty), and changes made
one after another would pay it one after another. Several fsyncs waited for at once cost
little more than one (the file system commits them together), so a rewrite lets go of its
locks while it waits (`wait_for_disk`), and the next change runs. Threads that write at once
gain from it (MCP tool calls over HTTP, each on a worker thread); the REST door's change lane
runs on one thread (api/admission.py says why).

Why that is safe: the rewrite read the note and computed its new text under the locks, and it
takes them back before it checks that the note is still what it read and renames over it
(compare-before-replace, vault/files.py): whatever ran meanwhile, a change of that note is
seen and the rewrite starts again from the note as it is. Changes of the same note in this
process do not even race: one waits for the other (`NoteStore`'s note turns), so neither
retries. The renames, and what a change records after its rename, still happen under the
locks, one change at a time.

Only where a caller said so (`allowed()`, around a single-note rewrite made by a service call)
are locks let go: a caller that holds some other lock around a write (an import, a gc) keeps
its locks throughout. The locks are the ones registered on this thread (`holding`), let go
innermost first and taken back outermost first, the order they were taken in.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
_local = threading.local()


@contextlib.contextmanager
def holding(lock: Any) -> Iterator[None]:
    """Within this block this thread holds `lock` (a `threading.RLock`), which a disk wait
    may let go of and take back."""
    stack: list[Any] = getattr(_local, "locks", None) or []
    _local.locks = stack
    stack.append(lock)
    try:
        yield
    finally:
        stack.pop()


@contextlib.contextmanager
def allowed() -> Iterator[None]:
    """Disk waits within this block let go of this thread's registered locks."""
    before = getattr(_local, "allowed", False)
    _local.allowed = True
    try:
        yield
    finally:
        _local.allowed = before


def registered() -> list[Any]:
    """The locks registered on this thread, outermost first."""
    return list(getattr(_local, "locks", None) or [])


def lets_go() -> bool:
    """Whether a disk wait here would let go of the locks (and so may wait for a note's turn)."""
    return bool(getattr(_local, "allowed", False) and getattr(_local, "locks", None))


def wait_for_disk(fn: Callable[[], T]) -> T:
    """`fn()` (an fsync, a wait for another writer), with this thread's locks let go meanwhile
    when allowed."""
    if not lets_go():
        return fn()
    locks: list[Any] = list(dict.fromkeys(_local.locks))  # a re-entered lock once
    # An RLock held several levels deep is let go of at every level and taken back as deep
    # (what threading.Condition does with it while it waits).
    states = [(lock, lock._release_save()) for lock in reversed(locks)]
    try:
        return fn()
    finally:
        for lock, state in reversed(states):
            lock._acquire_restore(state)
