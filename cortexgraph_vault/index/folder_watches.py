"""The vault's file events, from watchdog: which folders are watched, and what the watcher is
told. Only this module imports watchdog.

Which folders: the vault's own, not `.git/` nor `.obsidian/`. watchdog has no path filter,
and one recursive watch of the root also watches `.git/`, so every commit would come back as
events made into objects, queued and dispatched only to be dropped. The root is watched alone
(its own notes and folders, not below) and each of its folders the vault reads
(`ignored_name` says which) recursively. A folder made, moved in or renamed at the top gets
its watch from the root's event, before the watcher's re-scan of that folder (which the same
event asks for): what lands in it before the watch is found by the scan, what lands after by
events. Past `MAX_FOLDERS` folders at the top, one recursive watch of the root.

What is told: the vault-relative paths an event names (`PathEvents`). The kernel is asked
only for what changes a note or where it is (`EVENTS`): not a file's close, since every write
that changes a file is reported as a modification too. Each change we make writes a hidden
temp file and renames it over the note; the temp name's events are dropped by the first
character of the name, before anything else is looked at. Lost events (the kernel's queue
overflowed) ask the watcher for a walk of the vault; a folder refused a watch (the watch
limit) is named in the watcher's errors, and its changes are found by the periodic walk.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
from typing import Protocol

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    EventsLostEvent,
    FileAttribEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from cortexgraph_vault.index.catalog.vault_walk import ignored_name

MAX_FOLDERS = 24
# watchdog reports an attribute change (a touched mtime, a changed mode) as FileAttribEvent.
EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileAttribEvent,
    FileDeletedEvent,
    FileMovedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    EventsLostEvent,
]
# A folder gone again, or no longer a folder, before its watch was made: its event says so.
_GONE = {errno.ENOENT, errno.ENOTDIR, errno.ELOOP}


class EventTarget(Protocol):
    """What the events are told to (the watcher)."""

    def relative(self, path: bytes | str) -> str | None: ...
    def note_event(self, rels: list[str], *, is_dir: bool) -> None: ...
    def note_overflow(self) -> None: ...
    def note_error(self, message: str) -> None: ...


class PathEvents(FileSystemEventHandler):
    """watchdog's events as the vault-relative paths the watcher looks at again. The root's
    handler is given the `watches`, which follow a folder event before it is handled."""

    def __init__(self, watcher: EventTarget, watches: FolderWatches | None = None) -> None:
        self.watcher = watcher
        self.watches = watches

    def dispatch(self, event: FileSystemEvent) -> None:
        if isinstance(event, EventsLostEvent):
            if self.watches is not None:
                self.watches.resync()
            self.watcher.note_overflow()
            return
        if self.watches is not None and event.is_directory:
            self.watches.follow(event)
        src = os.fsdecode(event.src_path)
        if event.event_type == "moved":
            paths = [src, os.fsdecode(event.dest_path)]
        elif src.startswith(".", src.rfind(os.sep) + 1):
            return  # a hidden name: our temp files, set-aside copies, other tools' folders
        else:
            paths = [src]
        w = self.watcher
        rels = [r for r in (w.relative(p) for p in paths) if r is not None]
        if rels:
            w.note_event(rels, is_dir=event.is_directory)


def top_folders(root: str) -> list[str]:
    """The root's folders the vault reads (symlinks are not followed, as the walk does not)."""
    with os.scandir(root) as entries:
        return [
            e.name for e in entries if e.is_dir(follow_symlinks=False) and not ignored_name(e.name)
        ]


class FolderWatches:
    """The watches of one vault on an observer of its own (watchdog's for this platform:
    inotify, FSEvents, kqueue, Windows'), kept as the root's folders come and go, and
    watchdog's warnings about them told to the watcher while they are kept."""

    def __init__(self, watcher: EventTarget, root: str) -> None:
        self.observer: BaseObserver = Observer()
        self.observer.daemon = True
        self.watcher = watcher
        self.handler = PathEvents(watcher)
        self.root = root
        self.by_folder: dict[str, ObservedWatch] = {}
        self.whole_root = False
        self._warnings = _Warnings(watcher, root)

    def start(self) -> None:
        """Watch the root now, each of its folders as far as they are allowed; raises
        OSError, with nothing left running, when the root's watch is refused."""
        folders = top_folders(self.root)
        self.whole_root = len(folders) > MAX_FOLDERS
        logging.getLogger("watchdog").addHandler(self._warnings)
        # Only the root's own events move the watches: a folder's watch also reports its
        # own deletion, and could come after the root's report of a new folder of that name.
        root_handler = self.handler if self.whole_root else PathEvents(self.watcher, self)
        try:
            self.observer.start()  # first: each folder's watch is then refused on its own
            self.observer.schedule(
                root_handler, self.root, recursive=self.whole_root, event_filter=EVENTS
            )
        except OSError:
            self.stop()
            raise
        for name in [] if self.whole_root else folders:
            self._watch(name)

    def stop(self) -> None:
        logging.getLogger("watchdog").removeHandler(self._warnings)
        if self.observer.is_alive():
            self.observer.stop()
            self.observer.join(timeout=5)

    def follow(self, event: FileSystemEvent) -> None:
        """Keep the watches in step with a folder event at the top of the vault (called on
        the observer's thread, before the event is handled: watchdog allows it there)."""
        kind = event.event_type
        gone = [event.src_path] if kind in ("deleted", "moved") else []
        came = {"moved": [event.dest_path], "created": [event.src_path]}.get(kind, [])
        for name in filter(None, map(self._top_name, gone)):
            self._unwatch(name)
        for name in filter(None, map(self._top_name, came)):
            if not ignored_name(name):
                self._unwatch(name)  # a folder of that name that was there before
                folder = os.path.join(self.root, name)
                if os.path.isdir(folder) and not os.path.islink(folder):
                    self._watch(name)

    def resync(self) -> None:
        """After lost events: a watch for each folder now at the top, none for one gone
        (watchdog rebuilds what is below each)."""
        now = set(top_folders(self.root))
        for name in set(self.by_folder) - now:
            self._unwatch(name)
        for name in sorted(now - set(self.by_folder)):
            self._watch(name)

    def _top_name(self, path: bytes | str) -> str | None:
        text = os.fsdecode(path)
        parent, name = os.path.split(text.rstrip(os.sep))
        return name if parent == self.root and name else None

    def _watch(self, name: str) -> None:
        path = os.path.join(self.root, name)
        try:
            self.by_folder[name] = self.observer.schedule(
                self.handler, path, recursive=True, event_filter=EVENTS
            )
        except OSError as exc:
            if exc.errno not in _GONE:
                self.watcher.note_error(
                    f"{path}: not watched ({exc.strerror or exc}); its changes are found by "
                    "the periodic walk"
                )

    def _unwatch(self, name: str) -> None:
        watch = self.by_folder.pop(name, None)
        if watch is not None:
            with contextlib.suppress(KeyError):  # already gone with its folder
                self.observer.unschedule(watch)


class _Warnings(logging.Handler):
    """watchdog's warnings of a refusal in this vault (a folder below a watched one refused a
    watch is only logged), told to the watcher as errors."""

    def __init__(self, watcher: EventTarget, root: str) -> None:
        super().__init__(logging.WARNING)
        self.watcher = watcher
        # A bytes path appears in a message as its repr.
        self.marks = (root + os.sep, repr(os.fsencode(root + os.sep))[2:-1])

    def emit(self, record: logging.LogRecord) -> None:
        if not any(isinstance(arg, OSError) for arg in record.args or ()):
            return
        message = record.getMessage()
        if any(mark in message for mark in self.marks):
            self.watcher.note_error(message)
