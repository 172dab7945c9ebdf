"""The last steps of an atomic write, off the writer's turn when its caller can wait for them.

After the rename that replaces a note, two slow things remain: the fsync of the folder (what
makes the rename itself survive a power cut) and the close of the note we replaced, held open
until then (closing the last descriptor of a replaced file frees it, a journaled change of its
own). Under the vault lock, every write would queue behind them.

Inside `deferred()` (a door's call, `ServiceCalls`) they go to one thread instead: it fsyncs
each folder once for all the writes queued meanwhile (a group fsync) and closes the
descriptors. The caller waits for its tickets after letting go of its locks and answers only
then: a write is answered once its folder is fsynced. A process killed meanwhile loses
nothing a kill could take (the kernel holds the rename and the data, fsynced before it);
only a power cut in that instant could undo a write, and an unanswered one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from cortexgraph_vault.vault.late_writes import LATE_LOOK_SECONDS, LastLook, wait_for_keepers

log = logging.getLogger(__name__)


class Pending(threading.Event):
    """One deferred step: `wait()` returns once it is done (set), and `when_done` callbacks
    run then, on the thread that set it (at once, on the caller's, if it is done already)."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], None]] = []
        self._callbacks_lock = threading.Lock()

    @property
    def done(self) -> bool:
        return self.is_set()

    def set(self) -> None:
        with self._callbacks_lock:
            super().set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def when_done(self, callback: Callable[[], None]) -> None:
        """`callback()` once this is done; it must not block (it runs on the step's thread)."""
        with self._callbacks_lock:
            if not self.is_set():
                self._callbacks.append(callback)
                return
        callback()


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
        # (when, descriptor, look): replaced notes kept open for a last look (late_writes.py)
        self._looks: list[tuple[float, int, LastLook]] = []
        self._thread: threading.Thread | None = None
        self._looking = 0  # last looks taken off the list, not yet done
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

    def close_later(self, fd: int, look: LastLook | None = None) -> None:
        """Close a descriptor of a replaced note (nobody waits for this); with `look`, not
        before LATE_LOOK_SECONDS, and `look` runs just before the close."""
        if look is None and getattr(self._local, "pending", None) is None:
            os.close(fd)
            return
        with self._cond:
            if look is None:
                self._fds.append(fd)
            else:
                self._looks.append((time.monotonic() + LATE_LOOK_SECONDS, fd, look))
            self._wake()

    def settle(self, timeout: float = 5.0) -> bool:
        """Whether every last look, and every merge of late words it started, is done within
        `timeout` (for tests: nothing in the product waits for the looks)."""
        ends = time.monotonic() + timeout
        with self._cond:
            while self._looks or self._looking:
                left = ends - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
        return wait_for_keepers(ends - time.monotonic())

    def _wake(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="cgv-durability", daemon=True)
            self._thread.start()
        self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._folders and not self._fds and not self._due_looks():
                    self._cond.wait(self._next_look_in())
                folders, self._folders = self._folders, []
                fds, self._fds = self._fds, []
                looks = self._due_looks()
                self._looks = self._looks[len(looks) :]
                self._looking += len(looks)
            # Every fsync below starts after the renames its tickets stand for.
            for folder in dict.fromkeys(f for f, _ in folders):
                fsync_folder(folder)
                self.folder_syncs += 1
            for _, ticket in folders:
                ticket.set()
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            again = [(fd, look) for _, fd, look in looks if self._look(fd, look)]
            if looks:
                with self._cond:
                    due = time.monotonic() + LATE_LOOK_SECONDS
                    self._looks.extend((due, fd, look) for fd, look in again)
                    self._looking -= len(looks)
                    self._cond.notify_all()

    @staticmethod
    def _look(fd: int, look: LastLook) -> bool:
        """Run a look; True when it asks for another one (the descriptor stays open)."""
        again = False
        try:
            again = look()
        except Exception:  # a look must never stop the thread every write waits on
            log.exception("a last look at a replaced note failed")
        finally:
            if not again:
                with contextlib.suppress(OSError):
                    os.close(fd)
        return again

    def _due_looks(self) -> list[tuple[float, int, LastLook]]:
        # Queued in time order (one delay for all), so the due ones are a prefix.
        now = time.monotonic()
        due = 0
        while due < len(self._looks) and self._looks[due][0] <= now:
            due += 1
        return self._looks[:due]

    def _next_look_in(self) -> float | None:
        return max(0.0, self._looks[0][0] - time.monotonic()) if self._looks else None


DURABILITY = Durability()  # one per process: every vault's writes share the thread
