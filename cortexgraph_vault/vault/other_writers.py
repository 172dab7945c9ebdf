"""Whether another program is writing a note, and reads that no such write can cut through.

An editor that saves in place opens the note truncating it and then writes its buffer: in
between the note is empty, or a part of itself. A version read then is in the middle of
someone else's write; written back, or taken for what the person saved, it would empty their
note. Linux says whether any process holds a file open for writing: a read lease is refused
then (fcntl F_SETLEASE, EAGAIN). Held while we read, the lease also makes a program that
opens the file for writing meanwhile wait until we let go, before its truncate: the bytes
read are a whole version, never a write's middle.

A lease breaking sends its holder a signal, SIGIO by default, which ends a Python process:
ours are set to SIGURG, which is ignored unless a handler is set. Where leases are not to be
had (another OS, a file system without them, a file of another user), a read counts as whole
when the file's size, modification time and inode are the same after it as before and it
returned the whole size: an in-place save caught between its truncate and its write still
looks whole then, which is why an empty version is never taken for anything (vault/store.py).
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal

from cortexgraph_vault.vault.fd_reads import read_fd

_SET_LEASE: int | None = getattr(fcntl, "F_SETLEASE", None)  # Linux only
_SET_SIGNAL: int | None = getattr(fcntl, "F_SETSIG", None)
_BREAK_SIGNAL = getattr(signal, "SIGURG", 0)


def _lease(fd: int) -> bool | None:
    """Take a read lease on `fd` (open read-only): True when taken, False when some process
    has the file open for writing, None when leases are not to be had here."""
    if _SET_LEASE is None:
        return None
    try:
        if _SET_SIGNAL is not None:
            fcntl.fcntl(fd, _SET_SIGNAL, _BREAK_SIGNAL)
        fcntl.fcntl(fd, _SET_LEASE, fcntl.F_RDLCK)
    except OSError as exc:
        return False if exc.errno == errno.EAGAIN else None
    return True


def _let_go(fd: int) -> None:
    assert _SET_LEASE is not None
    fcntl.fcntl(fd, _SET_LEASE, fcntl.F_UNLCK)


def read_alone(
    fd: int, *, size: int | None = None, offset: int | None = None, limit: int | None = None
) -> bytes | None:
    """`read_fd(fd, ...)`, or None when another program is writing the file: it has it open
    for writing (where leases say so), or the file changed while it was read."""
    leased = _lease(fd)
    if leased is False:
        return None
    if leased:
        try:
            return read_fd(fd, limit=limit, size=size, offset=offset)
        finally:
            _let_go(fd)
    before = os.fstat(fd)
    data = read_fd(
        fd, limit=limit, size=size if size is not None else before.st_size, offset=offset
    )
    after = os.fstat(fd)
    whole = limit is not None or len(data) == after.st_size
    if not whole or _shape(before) != _shape(after):
        return None
    return data


def _shape(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
