"""The last steps of an atomic write, off the writer's turn when its caller can wait for them.

After the rename that replaces a note, two slow things remain: the fsync of the folder (what
makes the rename itself survive a power cut) and the close of the note we replaced, held open
until then (fix 16 of RELIABILITY.md; closing the last descriptor of a replaced file frees it,
a journaled change of its own). Each takes milliseconds on an ordinary disk, and a write made
them under the vault lock, so every write queued behind them.

Inside `deferred()` (a door's call, `ServiceCalls`) they go to one thread instead: it fsyncs
each folder once for all the writes queued meanwhile (a group fsync) and closes the
descriptors. The caller waits for its tickets after letting go of its locks and answers only
then: a write is answered once it is as durable as before. A process killed meanwhile loses
nothing a kill could take (the kernel holds the rename and the data, fsynced before it);
only a power cut in that instant could undo an unanswered write, as it could before.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path


class Pending:
    """One deferred step: `wait()` returns once it is done."""

    def __init__(self) -> None:
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def finish(self) -> None:
        self._done.set()

    def wait(self) -> None:
        self._done.wait()


def fsync_folder(folder: Path) -> None:
    # Directory fsync makes the rename durable; some file systems refuse it, which is fine.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class Durability:
    def __init__(self) -> None:
        self._local = threading.local()
        self._cond = threading.Condition()
        self._folders: list[tuple[Path, Pending]] = []
        self._fds: list[int] = []
        self._thread: threading.Thread | None = None
        self.folder_syncs = 0  # fsyncs made by the thread (a figure for tests)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[list[Pending]]:
        """Within this block (on this thread) the steps are queued; the list holds what the
        caller must wait for once it has let go of its locks."""
        outer = getattr(self._local, "pending", None)
        pending: list[Pending] = [] if outer is None else outer
        self._local.pending = pending
        try:
            yield pending
        finally:
            self._local.pending = outer

    def sync_folder(self, folder: Path) -> None:
        waiting: list[Pending] | None = getattr(self._local, "pending", None)
        if waiting is None:
            fsync_folder(folder)
            return
        ticket = Pending()
        with self._cond:
            self._folders.append((folder, ticket))
            self._wake()
        waiting.append(ticket)

    def close_later(self, fd: int) -> None:
        """Close a descriptor of a replaced note (nobody waits for this)."""
        if getattr(self._local, "pending", None) is None:
            os.close(fd)
            return
        with self._cond:
            self._fds.append(fd)
            self._wake()

    def _wake(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="cgv-durability", daemon=True)
            self._thread.start()
        self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._folders and not self._fds:
                    self._cond.wait()
                folders, self._folders = self._folders, []
                fds, self._fds = self._fds, []
            # Every fsync below starts after the renames its tickets stand for.
            for folder in dict.fromkeys(f for f, _ in folders):
                fsync_folder(folder)
                self.folder_syncs += 1
            for _, ticket in folders:
                ticket.finish()
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)


DURABILITY = Durability()  # one per process: every vault's writes share the thread
