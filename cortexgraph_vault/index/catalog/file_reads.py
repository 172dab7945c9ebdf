"""One look at a path the index was told about: read it if it is a regular file of the vault.

The catalogue reads a file without holding its lock (a slow or hostile file must never stall
every search), then checks under the lock that the path still is what it read: the lstat
before the read and the lstat at that moment agree, or the read is stale and is done again.
Only a regular file is ever opened for reading; a symlink, a FIFO, a socket or a device named
like a note, or a file in a folder that resolves outside the vault, is a problem, never read.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cortexgraph_vault.vault.anchored import HeldFolder
from cortexgraph_vault.vault.fd_reads import read_fd
from cortexgraph_vault.vault.files import (
    NEVER_READ,
    NotRegularFile,
    kind_of,
    not_regular,
    open_stat,
)

StatKey = tuple[int, int, int, int, int]
_STALE: StatKey = (-1, -1, -1, -1, -1)  # matches no path: the read is done again


def stat_key(st: os.stat_result) -> StatKey:
    return (st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns)


def lstat_key(path: Path | str) -> StatKey | None:
    try:
        return stat_key(os.lstat(path))
    except (FileNotFoundError, NotADirectoryError):
        return None


def is_refusal(problem: str) -> bool:
    """The problem is that the path is no regular file of the vault (from a parsing worker)."""
    return problem.endswith(NEVER_READ)


@dataclass(frozen=True)
class FileRead:
    """What was at a path. `gone`: nothing (or a folder); `problem`: why it was not read
    (`refused`: it is not a regular file of the vault, so no note may stand for it);
    `data` None with `st` set: the stamp matched the one already indexed, so not read."""

    key: StatKey | None
    st: os.stat_result | None = None
    data: bytes | None = None
    problem: str | None = None
    refused: bool = False

    @property
    def gone(self) -> bool:
        return self.st is None and self.problem is None

    def still_current(self, path: Path) -> bool:
        """The path is what it was when read (to be asked under the catalogue's lock)."""
        return lstat_key(path) == self.key


def read_note_file(
    path: Path | str,
    real_root: str,
    max_bytes: int,
    known: tuple[int, int] | None = None,
    held: HeldFolder | None = None,
) -> FileRead:
    """Read up to max_bytes + 1 bytes of the note at `path`; `known`: the (size, mtime_ns) the
    index holds, for which the bytes are not read again; `held`: the folder kept from the
    read before (many reads in a row)."""
    key = lstat_key(path)
    if key is None:
        return FileRead(None)
    if not stat.S_ISREG(key[2]):
        if stat.S_ISDIR(key[2]):
            return FileRead(key)
        return FileRead(key, problem=not_regular(kind_of(key[2])), refused=True)
    try:
        fd, st = open_stat(path, real_root, held)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return FileRead(lstat_key(path))
    except NotRegularFile as exc:
        return FileRead(key, problem=exc.reason, refused=True)
    except OSError as exc:
        return FileRead(key, problem=f"cannot read ({exc.strerror})")
    try:
        if stat_key(st) != key:
            key = _STALE  # replaced between the lstat and the open
        if known is not None and known == (st.st_size, st.st_mtime_ns):
            return FileRead(key, st)
        return FileRead(key, st, read_fd(fd, max_bytes + 1, st.st_size))
    except OSError as exc:
        return FileRead(key, problem=f"cannot read ({exc.strerror})")
    finally:
        os.close(fd)
