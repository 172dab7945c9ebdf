"""The vault's folders watched with Linux inotify directly, on one thread of ours (issue 16).

watchdog's inotify observer runs four threads per watch and builds, queues and dispatches a
Python object per event; under 50 REST clients that was ~14 % of the daemon's interpreter,
almost all of it for our own writes' temp files. Here one thread waits in poll() (no GIL),
reads every pending event in one read(), parses the buffer in bulk (`inotify_events`) and
hands the watcher one coalesced set of paths. While events keep coming (the daemon's writes
under load) it sleeps `pause` seconds after each read, so the next read finds many writes'
events at once and the thread waits for the interpreter less often (under 50 clients its
share of the daemon's CPU was 0.5-0.8 % with 20 ms pauses, 0-0.2 % with 50 ms); a lone edit
after a quiet spell is read at once (the watcher debounces it 50 ms anyway).

Every folder the vault reads is watched (inotify is not recursive): the root and each folder
below it that `ignored_name` lets through — never `.git/` nor `.obsidian/`. A folder made or
moved in gets its watches (its subtree walked) before the watcher re-scans it, which the same
event asks for: what lands in it before the watch is found by the scan, after by events. A
folder moved away loses its watches; one deleted loses them as the kernel says (IN_IGNORED).
A lost event (IN_Q_OVERFLOW) re-walks the folders and asks the watcher for a full re-scan.

Where inotify is refused at start (no inotify, too many instances, the watch limit) the
caller falls back to watchdog; a folder refused a watch later is reported in the watcher's
errors and found by its periodic walk.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import logging
import os
import select
import sys
import threading
import time
from typing import Protocol

from cortexgraph_vault.index.catalog.vault_walk import ignored_name
from cortexgraph_vault.index.inotify_events import IN_DONT_FOLLOW, WATCH_MASK, parse_events

log = logging.getLogger(__name__)

_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = os.O_CLOEXEC
_READ_SIZE = 1 << 16
# A folder that is gone again, or no longer a folder (a symlink now: IN_ONLYDIR refuses it).
_GONE = {errno.ENOENT, errno.ENOTDIR, errno.ELOOP}


class EventSink(Protocol):
    """What the reader tells (the watcher)."""

    def note_event(self, rels: list[str], *, is_dir: bool, count: int = 1) -> None: ...
    def note_overflow(self) -> None: ...
    def note_error(self, message: str) -> None: ...


class _Libc(Protocol):
    def inotify_init1(self, flags: int) -> int: ...
    def inotify_add_watch(self, fd: int, path: bytes, mask: int) -> int: ...
    def inotify_rm_watch(self, fd: int, wd: int) -> int: ...


_libc: _Libc | None = None


def _inotify() -> _Libc:
    global _libc
    if _libc is None:
        lib = ctypes.CDLL(None, use_errno=True)
        lib.inotify_init1.argtypes = [ctypes.c_int]
        lib.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        lib.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
        for fn in (lib.inotify_init1, lib.inotify_add_watch, lib.inotify_rm_watch):
            fn.restype = ctypes.c_int
        _libc = lib
    assert _libc is not None
    return _libc


def inotify_available() -> bool:
    """True on Linux with a C library that has inotify (musl and glibc both do)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        _inotify()
    except (OSError, AttributeError):
        return False
    return True


class InotifyWatch:
    """One inotify descriptor for the whole vault, read on the `cgv-inotify` thread."""

    def __init__(
        self, root: str, sink: EventSink, *, pause: float = 0.03, busy_within: float = 0.1
    ) -> None:
        self.root = root
        self.sink = sink
        self.pause = pause
        self.busy_within = busy_within  # a read this soon after the last: events keep coming
        self.folders: dict[int, str] = {}  # watch descriptor → vault-relative folder
        self.by_folder: dict[str, int] = {}
        self._fd = -1
        self._wake: tuple[int, int] = (-1, -1)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        # One batch's changes to the watch table are seen whole by another thread: a folder
        # moved out was seen gone while its subfolders were still being dropped.
        self._table = threading.Lock()
        self._stopping = threading.Event()

    # lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Watch every folder now; raises OSError when inotify is refused (the caller falls
        back to watchdog), with nothing left open."""
        lib = _inotify()
        fd = lib.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"inotify_init1: {os.strerror(code)}")
        self._fd = fd
        try:
            self._watch_tree("", strict=True)
            self._wake = os.pipe()
        except OSError:
            os.close(fd)
            self._fd = -1
            raise
        self._thread = threading.Thread(target=self._run, name="cgv-inotify", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask the thread to end (again: harmless)."""
        with self._lock:
            if self._thread is not None and not self._stopping.is_set():
                self._stopping.set()  # ends a pause at once
                os.write(self._wake[1], b"x")  # ends a wait in poll()

    def join(self, timeout: float | None = None) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                return
        with self._lock:  # closed once, and only when the thread no longer uses them
            for fd in (self._fd, *self._wake):
                if fd >= 0:
                    os.close(fd)
            self._fd, self._wake, self._thread = -1, (-1, -1), None

    def watched_folders(self) -> list[str]:
        with self._table:
            return sorted(self.by_folder)

    # the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        poller.register(self._wake[0], select.POLLIN)
        last_read = float("-inf")
        while True:
            ready = poller.poll()
            if any(fd == self._wake[0] for fd, _ in ready):
                return
            try:
                buf = os.read(self._fd, _READ_SIZE)
            except BlockingIOError:
                continue
            except OSError as exc:  # never seen; the periodic walk still runs
                log.exception("watcher: reading inotify events failed")
                self.sink.note_error(f"inotify read: {exc}")
                return
            try:
                self._handle(buf)
            except Exception as exc:  # one bad buffer must not end the watching
                log.exception("watcher: inotify events failed")
                self.sink.note_error(f"{type(exc).__name__}: {exc}")
            now = time.monotonic()
            busy, last_read = now - last_read < self.busy_within, now
            if busy and self.pause and self._stopping.wait(self.pause):
                return

    def _handle(self, buf: bytes) -> None:
        batch = parse_events(buf, self.folders)
        with self._table:
            for wd in batch.ignored:
                self._forget(wd)
            for came, rel in batch.folder_moves:
                if came:
                    self._watch_tree(rel)
                else:
                    self._drop_tree(rel)
            if batch.overflow:
                self._rewatch()
        if batch.overflow:
            self.sink.note_overflow()
        if batch.dirs:
            self.sink.note_event(sorted(batch.dirs), is_dir=True, count=len(batch.dirs))
        if batch.files:
            self.sink.note_event(list(batch.files), is_dir=False, count=batch.kept)

    # the watches -----------------------------------------------------------------------
    def _watch_tree(self, top: str, *, strict: bool = False) -> set[int]:
        """Watch `top` and every folder below it the vault reads; the descriptors bound."""
        lib = _inotify()
        bound: set[int] = set()
        stack = [top]
        while stack:
            rel = stack.pop()
            path = os.path.join(self.root, rel) if rel else self.root
            # The root may be reached through a symlink; nothing below it is followed.
            mask = WATCH_MASK if rel else WATCH_MASK & ~IN_DONT_FOLLOW
            wd = lib.inotify_add_watch(self._fd, os.fsencode(path), mask)
            if wd < 0:
                code = ctypes.get_errno()
                if code in _GONE and rel:
                    continue  # its parent's event says what became of it
                message = f"{path}: not watched ({os.strerror(code)})"
                if strict:
                    raise OSError(code, message)
                self.sink.note_error(f"{message}; its changes are found by the periodic walk")
                continue
            self._bind(wd, rel)
            bound.add(wd)
            # After the watch: a folder made below from now on is reported by it.
            with contextlib.suppress(OSError), os.scandir(path) as entries:
                for entry in entries:
                    if not ignored_name(entry.name) and entry.is_dir(follow_symlinks=False):
                        stack.append(f"{rel}/{entry.name}" if rel else entry.name)
        return bound

    def _bind(self, wd: int, rel: str) -> None:
        old = self.folders.get(wd)  # the same folder, found under a new name (a rename)
        if old is not None and old != rel and self.by_folder.get(old) == wd:
            del self.by_folder[old]
        previous = self.by_folder.get(rel)  # another folder that had this name
        if previous is not None and previous != wd:
            self._unwatch(previous)
        self.folders[wd] = rel
        self.by_folder[rel] = wd

    def _drop_tree(self, top: str) -> None:
        prefix = top + "/"
        for rel in [r for r in self.by_folder if r == top or r.startswith(prefix)]:
            self._unwatch(self.by_folder[rel])

    def _unwatch(self, wd: int) -> None:
        self._forget(wd)
        _inotify().inotify_rm_watch(self._fd, wd)  # already gone: EINVAL, nothing to do

    def _forget(self, wd: int) -> None:
        rel = self.folders.pop(wd, None)
        if rel is not None and self.by_folder.get(rel) == wd:
            del self.by_folder[rel]

    def _rewatch(self) -> None:
        """After lost events: watch what is there now, drop what is not."""
        bound = self._watch_tree("")
        for wd in [wd for wd in self.folders if wd not in bound]:
            self._unwatch(wd)
