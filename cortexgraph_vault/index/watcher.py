"""Keeping the catalogue current from file-system events (watchdog), without ever writing.

Events are only hints: a batch names paths, and each path is compared with the disk (the
disk is the truth), so the order events arrive in, duplicates and echoes of our own writes do
not matter. A folder event (created, deleted, renamed, moved) re-scans that subtree. Events
are coalesced per path and debounced: a batch is handled once the vault has been quiet for
`debounce` seconds, or `max_delay` after its first event however busy the vault is.

A stat walk at start and every `reconcile_every` seconds catches anything the events missed
(a network drive without notifications); an overflowing kernel queue asks for one at once.
The events come from watchdog (`folder_watches`), on every platform.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog, ignored_name
from cortexgraph_vault.index.gc_pause import SETTLE_AFTER, settle

if TYPE_CHECKING:
    from cortexgraph_vault.index.folder_watches import FolderWatches

log = logging.getLogger(__name__)

# Past this many pending paths one walk of the vault is cheaper than a path at a time.
FULL_WALK_AFTER = 5000


@dataclass
class WatcherState:
    running: bool = False
    started_at: datetime | None = None
    heartbeat: float = 0.0  # time.time() of the worker's last turn
    events: int = 0
    batches: int = 0
    paths_checked: int = 0
    last_batch_at: datetime | None = None
    last_batch_seconds: float = 0.0
    reconciliations: int = 0
    last_reconcile_at: datetime | None = None
    last_reconcile_changes: int = 0
    errors: list[str] = field(default_factory=list)


class VaultWatcher:
    def __init__(
        self,
        catalog: VaultCatalog,
        *,
        debounce: float = 0.05,
        max_delay: float = 0.25,
        reconcile_every: float = 180.0,
        on_idle: Callable[[], None] | None = None,
    ) -> None:
        self.catalog, self.root, self.on_idle = catalog, str(catalog.root), on_idle
        self.debounce, self.max_delay, self.reconcile_every = debounce, max_delay, reconcile_every
        self.state = WatcherState()
        self._cond = threading.Condition()
        self._files: set[str] = set()
        self._dirs: set[str] = set()
        self._full = False  # events were lost: the next batch walks the whole vault
        self._first_event = self._last_event = 0.0
        self._stopping = False
        self.watches: FolderWatches | None = None  # None: file events refused, the walk alone
        self._worker: threading.Thread | None = None
        self._next_reconcile = 0.0
        self._unsettled = 0  # paths taken in since the heap was last settled (gc_pause.settle)

    def relative(self, path: bytes | str) -> str | None:
        """The vault-relative path of an event, or None when it is not the vault's business."""
        text = os.fsdecode(path)
        if not text.startswith(self.root + os.sep):
            return None
        rel = text[len(self.root) + 1 :].replace(os.sep, "/").strip("/")
        if not rel or any(ignored_name(part) for part in rel.split("/")):
            return None
        return rel

    def note_event(self, rels: list[str], *, is_dir: bool) -> None:
        now = time.monotonic()
        with self._cond:
            target = self._dirs if is_dir else self._files
            target.update(rels)
            self._last_event = now
            self.state.events += 1
            if not self._first_event:
                self._first_event = now
                # Only the first event of a batch wakes the worker: with a batch pending it
                # sleeps until the batch's deadline and looks at `_last_event` then.
                self._cond.notify()

    def note_overflow(self) -> None:
        """Events were lost (the kernel's queue overflowed): one walk finds what they said."""
        now = time.monotonic()
        with self._cond:
            if not self._full:  # each watch says so
                log.warning("watcher: file events were lost; walking the vault")
            self._full = True
            if not self._first_event:
                self._first_event = now
            self._last_event = now
            self._cond.notify()

    def note_error(self, message: str) -> None:
        log.warning("watcher: %s", message)
        self.state.errors = [*self.state.errors[-9:], message]

    def start(self) -> None:
        if self._worker is not None:
            return
        self.state = WatcherState(running=True, started_at=datetime.now(UTC), heartbeat=time.time())
        self.watches = self._watch_events()
        # Whatever changed before the observer was listening is found by one walk now.
        self._reconcile()
        self._worker = threading.Thread(target=self._run, name="cgv-watcher", daemon=True)
        self._worker.start()

    def _watch_events(self) -> FolderWatches | None:
        # watchdog imported only once a watcher starts: a one-call CLI process needs none of it
        from cortexgraph_vault.index.folder_watches import FolderWatches

        watches = FolderWatches(self, self.root)
        try:
            watches.start()
        except OSError as exc:  # refused (no inotify, the watch limit): the walk alone keeps up
            self.note_error(
                f"file events refused ({exc}): changes are found by the walk every "
                f"{self.reconcile_every:g} s"
            )
            return None
        return watches

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify()
        if self.watches is not None:
            self.watches.stop()
            self.watches = None
        if self._worker is not None:
            self._worker.join(timeout=10)
            self._worker = None
        self.state.running = False
        self._stopping = False

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def pending(self) -> int:
        with self._cond:
            return len(self._files) + len(self._dirs) + self._full

    def _run(self) -> None:
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            files, dirs, full = batch
            try:
                if full:
                    self._reconcile()
                elif files or dirs:
                    self._apply(files, dirs)
                elif time.monotonic() >= self._next_reconcile:
                    self._reconcile()
                elif self.on_idle is not None:
                    self.on_idle()
            except Exception as exc:  # one bad batch must not stop the watcher
                log.exception("watcher: batch failed")
                self.state.errors = [*self.state.errors[-9:], f"{type(exc).__name__}: {exc}"]
                with self._cond:  # the paths are checked again by the next reconciliation
                    self._next_reconcile = min(self._next_reconcile, time.monotonic() + 1.0)

    def _next_batch(self) -> tuple[set[str], set[str], bool] | None:
        with self._cond:
            while True:
                self.state.heartbeat = time.time()
                if self._stopping:
                    return None
                if not self._files and not self._dirs and not self._full:
                    if not self._cond.wait(timeout=1.0):
                        return set(), set(), False  # a quiet second: heartbeat, maybe reconcile
                    continue
                now = time.monotonic()
                wait = min(self._last_event + self.debounce, self._first_event + self.max_delay)
                if now < wait:
                    self._cond.wait(timeout=wait - now)
                    continue
                files, dirs, full = self._files, self._dirs, self._full
                self._files, self._dirs, self._full = set(), set(), False
                self._first_event = self._last_event = 0.0
                return files, dirs, full

    def _apply(self, files: set[str], dirs: set[str]) -> None:
        started = time.perf_counter()
        catalog = self.catalog
        taken = len(files)  # and the notes a folder's walk found
        with catalog.noticing():
            if len(files) + len(dirs) > FULL_WALK_AFTER:
                report = catalog.refresh()
                taken = len(report.added) + len(report.changed)
            else:
                # Outermost folders first; a file inside a re-scanned folder is already current.
                scanned: list[str] = []
                for folder in sorted(dirs, key=lambda d: (d.count("/"), d)):
                    if not any(folder.startswith(s + "/") for s in scanned):
                        report = catalog.refresh(start=folder)
                        taken += len(report.added) + len(report.changed)
                        scanned.append(folder)
                for rel in sorted(files):
                    if not any(rel.startswith(s + "/") for s in scanned):
                        (catalog.reload if rel.endswith(".md") else catalog.attachment_changed)(rel)
        catalog.sync_vectors()  # edited notes are searchable by meaning as soon as by words
        # Once many notes were taken in, the heap is settled before the next batch: the
        # collector's full walks of them would stall every thread.
        self._unsettled += taken
        if self._unsettled >= SETTLE_AFTER:
            self._unsettled = 0
            settle()
        self.state.batches += 1
        self.state.paths_checked += len(files) + len(dirs)
        self.state.last_batch_at = datetime.now(UTC)
        self.state.last_batch_seconds = time.perf_counter() - started

    def _reconcile(self) -> None:
        with self.catalog.noticing():
            report = self.catalog.refresh()
        self.catalog.sync_vectors()
        self.state.reconciliations += 1
        self.state.last_reconcile_at = datetime.now(UTC)
        self.state.last_reconcile_changes = sum(
            map(len, (report.added, report.changed, report.removed))
        )
        self._next_reconcile = time.monotonic() + self.reconcile_every
