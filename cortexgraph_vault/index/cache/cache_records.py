"""The index cache file as a process reads it once loaded: each note's cold fields, the word
index and the note vectors are read from it when first needed, by position (`os.pread`).

Read, not memory-mapped: a map's pages count in the process's memory once touched and stay
counted, so reading every memory for `stats`, or rewriting the cache (which reads every
note's fields and the vectors through), would add the whole file to the process. Read by
position, only what is kept counts; the system call a note costs little beside decoding it.

The vectors and the word index's postings are kept as small pickles and the raw bytes of
their arrays: written from the arrays and read straight into the arrays the index keeps.
"""

from __future__ import annotations

import io
import os
import pickle
import struct
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:  # numpy: loaded with the word index, when first needed
    from cortexgraph_vault.index.text.posting_lists import Postings
    from cortexgraph_vault.index.vectors.vector_rows import ExportedVectors

CHUNK = 1 << 20
_UINT = struct.Struct("=I")  # a document number as array("I") holds it
# Windows has no positional read, and a file held open there cannot be replaced by the
# next cache: the file is read whole instead.
_POSITIONAL = hasattr(os, "pread") and os.name != "nt"
_PREADV = hasattr(os, "preadv")


class CacheRecords:
    """A cache file kept open by the process that loaded (or wrote) it: a newer cache may
    replace the file, and this one still reads the old. `base`: where the notes' cold
    fields begin (a note's offset counts from there)."""

    def __init__(self, fh: BinaryIO, base: int) -> None:
        self._base = base
        self._data: bytes | None = None
        if _POSITIONAL:
            # its own descriptor (closed with this object), whatever the caller does with fh
            self._file: io.FileIO | None = io.FileIO(os.dup(fh.fileno()), "rb")
            self._fd = self._file.fileno()
        else:
            fh.seek(0)
            self._data, self._file, self._fd = fh.read(), None, -1

    def read(self, start: int, length: int) -> bytes:
        """`length` bytes of the file from `start`."""
        if self._data is not None:
            found = self._data[start : start + length]
        else:
            found = os.pread(self._fd, length, start)
        if len(found) != length:
            raise ValueError("the index cache ends before its parts do")
        return found

    def bytes_at(self, offset: int, length: int) -> bytes:
        """One note's cold fields."""
        return self.read(self._base + offset, length)

    def stream(self, start: int) -> BinaryIO:
        """The file from `start` on, to read pickles from (position: in the file)."""
        if self._data is not None:
            raw = io.BytesIO(self._data)
            raw.seek(start)
            return raw
        return io.BufferedReader(_PositionalReader(self._fd, start), CHUNK)

    def read_into(self, start: int, buffer: memoryview) -> None:
        """Fill `buffer` from the file at `start` (no intermediate copy of it all)."""
        view = buffer
        done = 0
        if self._data is None and _PREADV:  # straight into the buffer, no copy of each chunk
            while done < len(view):
                got = os.preadv(self._fd, [view[done : done + CHUNK]], start + done)
                if not got:
                    raise ValueError("the index cache ends before its parts do")
                done += got
            return
        while done < len(view):
            part = self.read(start + done, min(CHUNK, len(view) - done))
            view[done : done + len(part)] = part
            done += len(part)

    def copy(self, start: int, end: int, out: BinaryIO) -> None:
        """Bytes [start, end) of this file written to `out`, a chunk at a time."""
        while start < end:
            part = self.read(start, min(CHUNK, end - start))
            out.write(part)
            start += len(part)


class _PositionalReader(io.RawIOBase):
    """A file read by position from a descriptor shared with other readers (no shared
    position to move under them)."""

    def __init__(self, fd: int, start: int) -> None:
        super().__init__()
        self._fd = fd
        self._pos = start

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = os.pread(self._fd, len(buffer), self._pos)
        memoryview(buffer).cast("B")[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            self._pos = offset
        elif whence == io.SEEK_CUR:
            self._pos += offset
        else:
            self._pos = os.fstat(self._fd).st_size + offset
        return self._pos

    def tell(self) -> int:
        return self._pos


# Free rows the vectors are read with: a process can add this many notes before the matrix
# grows (growing copies it: 100k notes, 100 MB more for a moment). Untouched until used.
SPARE_ROWS = 1024


def write_vectors(out: BinaryIO, exported: ExportedVectors) -> None:
    """The exported vectors (`SemanticIndex.export`: `paths` names each row of the arrays,
    None for a free one): a pickle of all but the arrays, then each array's bytes written
    from the array itself (100k notes: 100 MB never copied). Free rows at the end are left
    out (those a process was given to grow into)."""
    rows = len(exported["paths"])
    while rows and exported["paths"][rows - 1] is None:
        rows -= 1
    arrays = {"keys": exported["keys"][:rows], "notes": exported["notes"][:rows]}
    rest = {"paths": exported["paths"][:rows], "pending": exported["pending"]}
    shapes = {k: (v.dtype.str, v.shape) for k, v in arrays.items()}
    pickle.dump((rest, shapes), out, protocol=pickle.HIGHEST_PROTOCOL)
    for array_ in arrays.values():
        out.write(array_.data if array_.flags.c_contiguous else array_.copy().data)


def read_vectors(records: CacheRecords, start: int, end: int) -> ExportedVectors:
    """The vectors written by `write_vectors` in [start, end), their arrays read straight
    into arrays of their own, with SPARE_ROWS free rows more."""
    import numpy as np

    stream = records.stream(start)
    rest: dict[str, list[Any]]  # paths and pending, as pickled
    rest, shapes = pickle.load(stream)
    at = stream.tell()
    rows = len(rest["paths"])
    arrays: dict[str, np.ndarray] = {}
    for key, (dtype, shape) in shapes.items():
        if not shape or shape[0] != rows:
            raise ValueError("the note vectors' arrays and paths disagree")
        array_ = np.zeros((rows + SPARE_ROWS, *shape[1:]), dtype=np.dtype(dtype))
        size = array_[:rows].nbytes
        records.read_into(at, array_.data.cast("B")[:size])
        at += size
        arrays[key] = array_
    if at != end:
        raise ValueError("the note vectors do not end where the end marker begins")
    if arrays.keys() != {"keys", "notes"}:
        raise ValueError(f"the note vectors hold {sorted(arrays)}, not keys and notes")
    return {
        "paths": [*rest["paths"], *[None] * SPARE_ROWS],
        "keys": arrays["keys"],
        "notes": arrays["notes"],
        "pending": rest["pending"],
    }


def vectors_in(
    records: CacheRecords, start: int, end: int
) -> tuple[Callable[[], ExportedVectors], Callable[[BinaryIO], None]]:
    """How to read the vectors in [start, end) of the file, and to copy them as they are."""

    def copy(out: BinaryIO) -> None:
        records.copy(start, end, out)

    return (lambda: read_vectors(records, start, end)), copy


TERM_CHUNK = 2000  # terms a part at most
CHUNK_BYTES = 4 << 20  # and about this many bytes of postings

# term, its docs' and term frequencies' typecodes, postings, live ones, tombstones
TermMeta = tuple[str, str, str, int, int, int]


def posting_parts(postings: dict[str, tuple[Any, Any, int, int]]) -> list[list[str]]:
    """The terms in parts of at most TERM_CHUNK terms and about CHUNK_BYTES of postings: a
    part is read whole, and the most common terms come first (a few hold most postings)."""
    parts: list[list[str]] = []
    part: list[str] = []
    size = 0
    for term, (docs, tfs, _, _) in postings.items():
        part.append(term)
        size += len(docs) * (docs.itemsize + tfs.itemsize)
        if len(part) >= TERM_CHUNK or size >= CHUNK_BYTES:
            parts.append(part)
            part, size = [], 0
    if part:
        parts.append(part)
    return parts


def write_postings(
    out: BinaryIO, postings: dict[str, tuple[Any, Any, int, int]], parts: list[list[str]]
) -> None:
    """Each part: a pickle of its terms' TermMeta, then their arrays' bytes as they are (the
    arrays pickled would each be copied first, and held until the part's pickle ends)."""
    for part in parts:
        entries = [postings[term] for term in part]
        meta = [
            (term, docs.typecode, tfs.typecode, len(docs), df, dead)
            for term, (docs, tfs, df, dead) in zip(part, entries, strict=True)
        ]
        pickle.dump(meta, out, protocol=pickle.HIGHEST_PROTOCOL)
        for docs, tfs, _, _ in entries:
            out.write(docs)
            out.write(tfs)


def read_postings(stream: BinaryIO, parts: int) -> dict[str, list[Any]]:
    """term → [docs, tfs, df, dead], as `write_postings` wrote them."""
    found: dict[str, list[Any]] = {}
    for _ in range(parts):
        meta: list[TermMeta] = pickle.load(stream)
        arrays = []
        size = 0
        for _, docs_code, tfs_code, n, _, _ in meta:
            docs, tfs = array(docs_code), array(tfs_code)
            arrays.append((docs, tfs))
            size += n * (docs.itemsize + tfs.itemsize)
        data = memoryview(stream.read(size))
        if len(data) != size:
            raise ValueError("the word index ends before its postings do")
        at = 0
        for (term, _, _, n, df, dead), (docs, tfs) in zip(meta, arrays, strict=True):
            docs.frombytes(data[at : at + n * docs.itemsize])
            at += n * docs.itemsize
            tfs.frombytes(data[at : at + n * tfs.itemsize])
            at += n * tfs.itemsize
            found[term] = [docs, tfs, df, dead]
    return found


def read_stored_postings(stream: BinaryIO, parts: int, documents: int) -> dict[str, Postings]:
    """term → its list (of the terms some document holds), as `write_postings` wrote them,
    each list's arrays made when first used (index/text/posting_lists.py `StoredPostings`).
    Checked as `TextIndex.restore` checks made ones: the typecodes, and that the last (the
    largest) document number of a list is one of the `documents`."""
    from cortexgraph_vault.index.text.posting_lists import _WIDTH, StoredPostings

    found: dict[str, Postings] = {}
    sizes: dict[str, int] = {}
    for _ in range(parts):
        meta: list[TermMeta] = pickle.load(stream)
        size = 0
        for _, docs_code, tfs_code, n, _, _ in meta:
            if docs_code not in sizes or tfs_code not in sizes:
                if tfs_code not in _WIDTH or docs_code != "I":
                    raise ValueError("a posting list of the word index is damaged")
                sizes[docs_code], sizes[tfs_code] = (
                    array(docs_code).itemsize,
                    array(tfs_code).itemsize,
                )
            size += n * (sizes[docs_code] + sizes[tfs_code])
        data = memoryview(stream.read(size))
        if len(data) != size:
            raise ValueError("the word index ends before its postings do")
        at = 0
        width = sizes.get("I", 0)
        last = _UINT.unpack_from
        for term, docs_code, tfs_code, n, df, dead in meta:
            if n < df + dead:
                raise ValueError(f"posting list of {term!r} is damaged")
            if n and last(data, at + (n - 1) * width)[0] >= documents:
                raise ValueError(f"posting list of {term!r} names an unknown document")
            if df > 0:
                found[term] = StoredPostings((data, at, n, docs_code, tfs_code), df, dead)
            at += n * (width + sizes[tfs_code])
    return found
