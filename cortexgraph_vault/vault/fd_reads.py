"""Reading a whole file from a descriptor in as few system calls as its size allows."""

from __future__ import annotations

import os


def read_fd(
    fd: int, limit: int | None = None, size: int | None = None, offset: int | None = None
) -> bytes:
    """Up to `limit` bytes (all, when None) of a file just opened (from its start), or from
    `offset` on (pread: the file's position is left alone). `size`: its size, when a stat
    of it was made already.

    Plain reads sized by the file: a buffered file object costs five system calls more to
    make, and `read(limit)` sets aside the whole limit (megabytes) for a note of a few
    hundred bytes. A read that returns the whole size stat'ed and less than asked is the
    file's end: the empty read that would confirm it is one system call (one hand-over of
    the interpreter to a reader) saved on each read of a note. A file that grew meanwhile
    fills the read (one byte more is asked) and is read on to its end; a short read that
    is not the whole size (a file system that returns less) is read on too."""
    if size is None:
        size = os.fstat(fd).st_size
    want = max(size + 1, 16384)
    if limit is not None:
        want = min(want, limit)
    chunks = []
    got = 0
    while limit is None or got < limit:
        ask = want if limit is None else min(want, limit - got)
        chunk = os.read(fd, ask) if offset is None else os.pread(fd, ask, offset + got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
        if len(chunk) < ask and got == size:
            break
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
