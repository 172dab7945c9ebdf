"""Which folders the watcher asks the kernel about: the vault's own, not `.git/` nor `.obsidian/`.

One recursive watch of the vault's root also watched `.git/`: every commit (a group commit
writes a dozen files in `.git/objects/` and the index, the ref, the log) came back as events
that watchdog turned into Python objects, queued and dispatched before `relative()` dropped
them: ~19 % of the interpreter while saves were being committed under load. watchdog has no
path filter, so the root is watched alone (its own notes and folders, not below) and each of
its folders the vault reads (`ignored_name` says which) recursively. A folder made, moved in
or renamed at the top gets its watch from the root's event, before the watcher's re-scan of
that folder (which the same event asks for): what lands in it before the watch is found by
the scan, what lands after by events. Past `MAX_FOLDERS` folders at the top (each watch is a
thread of watchdog's), one recursive watch of the root, as before.

Used where our own inotify reader (`inotify_watch`) is not: macOS, Windows, a Linux that
refuses inotify, CORTEXGRAPH_WATCHER=watchdog. Only this module imports watchdog.
"""

from __future__ import annotations

import contextlib
import os
from typing import Protocol

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedEvent,
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
EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent, FileModifiedEvent, FileDeletedEvent, FileMovedEvent, FileClosedEvent,
    FileAttribEvent, DirCreatedEvent, DirDeletedEvent, DirMovedEvent,
]  # fmt: skip


def new_observer() -> BaseObserver:
    """watchdog's observer for this platform (inotify, FSEvents, kqueue, Windows')."""
    return Observer()


class EventTarget(Protocol):
    """What the handler tells (the watcher)."""

    def relative(self, path: bytes | str) -> str | None: ...
    def note_event(self, rels: list[str], *, is_dir: bool, count: int = 1) -> None: ...


class PathEvents(FileSystemEventHandler):
    """watchdog's events as the vault-relative paths the watcher looks at again."""

    def __init__(self, watcher: EventTarget) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        w = self.watcher
        paths = [event.src_path]
        if event.event_type == "moved":
            paths.append(event.dest_path)
        rels = [r for r in (w.relative(p) for p in paths) if r is not None]
        if rels:
            w.note_event(rels, is_dir=event.is_directory)


def top_folders(root: str) -> list[str] | None:
    """The root's folders to watch recursively (symlinks are not followed, as the walk does
    not), or None when there are too many (watch the root recursively instead)."""
    found = []
    with os.scandir(root) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and not ignored_name(entry.name):
                found.append(entry.name)
    return found if len(found) <= MAX_FOLDERS else None


class FolderWatches:
    """The watches of one vault on one observer, kept as the root's folders come and go."""

    def __init__(
        self,
        observer: BaseObserver,
        handler: FileSystemEventHandler,
        root: str,
    ) -> None:
        self.observer = observer
        self.handler = handler
        self.root = root
        self.events = EVENTS
        self.by_folder: dict[str, ObservedWatch] = {}
        self.whole_root = False

    def start(self) -> None:
        folders = top_folders(self.root)
        self.whole_root = folders is None
        # Only the root's own events move the watches: a folder's watch also reports its
        # own deletion, and could come after the root's report of a new folder of that name.
        root_handler = self.handler if self.whole_root else _Following(self)
        self.observer.schedule(
            root_handler, self.root, recursive=self.whole_root, event_filter=self.events
        )
        for name in folders or []:
            self._watch(name)

    def follow(self, event: FileSystemEvent) -> None:
        """Keep the watches in step with a folder event at the top of the vault (called on
        the observer's thread, before the event is handled: watchdog allows it there)."""
        if self.whole_root:
            return
        gone = [event.src_path] if event.event_type in ("deleted", "moved") else []
        came = [event.dest_path] if event.event_type == "moved" else []
        if event.event_type == "created":
            came = [event.src_path]
        for path in gone:
            name = self._top_name(path)
            if name is not None:
                self._unwatch(name)
        for path in came:
            name = self._top_name(path)
            if name is not None and not ignored_name(name):
                self._unwatch(name)  # a folder of that name that was there before
                if os.path.isdir(os.path.join(self.root, name)) and not os.path.islink(
                    os.path.join(self.root, name)
                ):
                    self._watch(name)

    def _top_name(self, path: bytes | str) -> str | None:
        text = os.fsdecode(path)
        parent, name = os.path.split(text.rstrip(os.sep))
        return name if parent == self.root and name else None

    def _watch(self, name: str) -> None:
        with contextlib.suppress(OSError):  # gone again already: its event says so
            self.by_folder[name] = self.observer.schedule(
                self.handler, os.path.join(self.root, name), recursive=True,
                event_filter=self.events,
            )  # fmt: skip

    def _unwatch(self, name: str) -> None:
        watch = self.by_folder.pop(name, None)
        if watch is not None:
            with contextlib.suppress(KeyError):
                self.observer.unschedule(watch)


class _Following(FileSystemEventHandler):
    """The root's handler: the watches follow a folder event, then it is handled as any."""

    def __init__(self, watches: FolderWatches) -> None:
        self.watches = watches

    def dispatch(self, event: FileSystemEvent) -> None:
        if event.is_directory:
            self.watches.follow(event)
        self.watches.handler.dispatch(event)
