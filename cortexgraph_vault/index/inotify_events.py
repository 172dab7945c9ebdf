"""Reading a buffer of Linux inotify events in bulk, keeping only what the vault cares about.

Each change we make writes a hidden temp file and renames it over the note: five events
(create, modify, modify, moved_from of the temp name, moved_to of the note), four of them
about a name the vault never reads. watchdog made a Python object of each, queued it on three
threads and dispatched it before our handler dropped it (~14 % of the daemon's interpreter
under load). Here a whole `read()` is walked with `struct`, a hidden name (all our temp and
set-aside names start with a dot) is dropped by its first byte before any decoding, and what
is left is coalesced into the set of paths and folders to look at again.

Pure: bytes in, `EventBatch` out; which folder a watch descriptor stands for is the caller's.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from cortexgraph_vault.index.catalog.vault_walk import ignored_name

# <sys/inotify.h>
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_EXCL_UNLINK = 0x04000000
IN_ISDIR = 0x40000000

# What a folder's watch asks for. Not IN_CLOSE_WRITE: every write that changes a file also
# reports IN_MODIFY (an open with O_TRUNC too), so a close would only double the events.
# IN_ATTRIB: a touched mtime or a changed mode can change what the catalogue records.
WATCH_MASK = (
    IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
    | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK
)  # fmt: skip

_HEAD = struct.Struct("iIII")  # wd, mask, cookie, len (struct inotify_event)
_DOT = ord(".")


@dataclass
class EventBatch:
    """What one read of the inotify descriptor asks the watcher to look at again."""

    files: set[str] = field(default_factory=set)  # vault-relative paths of files
    dirs: set[str] = field(default_factory=set)  # folders to re-scan
    # (True, folder) made or moved in: to be watched; (False, folder) moved away: its
    # watches dropped. In the order they came (a folder renamed away and back in one read).
    folder_moves: list[tuple[bool, str]] = field(default_factory=list)
    ignored: list[int] = field(default_factory=list)  # watches the kernel removed
    overflow: bool = False  # the kernel's queue overflowed: events were lost
    kept: int = 0  # events that named a file of the vault (folders: `dirs`)
    seen: int = 0  # events in the buffer


def parse_events(
    buf: bytes,
    folders: Mapping[int, str],
    *,
    decode: Callable[[bytes], str] = os.fsdecode,
) -> EventBatch:
    """The events in `buf` (whole `struct inotify_event` records, as one read() returns
    them), with `folders` giving the vault-relative folder of each watch ("" for the root).

    Dropped: hidden names and other tools' folders (`ignored_name`, the walk's rule), events
    of watches no longer known (a folder dropped meanwhile) and a folder's events about itself
    (its parent's watch reports its deletion or move). A truncated record at the end (never
    given by the kernel) is ignored."""
    batch = EventBatch()
    unpack = _HEAD.unpack_from
    end = len(buf)
    offset = 0
    while offset + 16 <= end:
        wd, mask, _cookie, length = unpack(buf, offset)
        start = offset + 16
        offset = start + length
        if offset > end:
            break
        batch.seen += 1
        if mask & (IN_Q_OVERFLOW | IN_IGNORED):
            if mask & IN_Q_OVERFLOW:
                batch.overflow = True
            else:
                batch.ignored.append(wd)
            continue
        if not length or buf[start] == _DOT:  # about the folder itself, or a hidden name
            continue
        base = folders.get(wd)
        if base is None:
            continue
        name = decode(buf[start:offset].rstrip(b"\0"))
        if ignored_name(name):
            continue
        rel = f"{base}/{name}" if base else name
        if mask & IN_ISDIR:
            batch.dirs.add(rel)
            if mask & (IN_CREATE | IN_MOVED_TO):
                batch.folder_moves.append((True, rel))
            elif mask & IN_MOVED_FROM:
                batch.folder_moves.append((False, rel))
        else:
            batch.files.add(rel)
            batch.kept += 1
    return batch


def records(buf: bytes) -> Iterator[tuple[int, int, int, bytes]]:
    """Every record of `buf` as (wd, mask, cookie, name), nothing dropped: for a look at what
    the kernel said (tests, debugging), not for the watcher's path."""
    offset = 0
    while offset + 16 <= len(buf):
        wd, mask, cookie, length = _HEAD.unpack_from(buf, offset)
        yield wd, mask, cookie, buf[offset + 16 : offset + 16 + length].rstrip(b"\0")
        offset += 16 + length


def pack_event(wd: int, mask: int, name: bytes = b"", cookie: int = 0) -> bytes:
    """One record as the kernel writes it (the name NUL-padded to a multiple of 16): for
    tests and for whoever needs to feed `parse_events` by hand."""
    padded = name + b"\0" * (16 - len(name) % 16) if name else b""
    return _HEAD.pack(wd, mask, cookie, len(padded)) + padded
