"""The persistent index cache: a warm start re-parses only the files that changed.

One file per vault in the user's cache folder (never in the vault: vaults are synced and
committed), named by the vault's key. It holds every note as parsed (with its size, mtime and
hash) and the word index, stamped with a format version, the parser version and the vault's
layout. Anything unexpected — another version, another layout, a truncated or corrupt file —
means the cache is ignored and rebuilt; deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import secrets
import stat
import struct
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypedDict, cast

from cortexgraph_vault.index.cache.cache_records import (
    CacheRecords,
    posting_parts,
    read_postings,
    read_stored_postings,
    vectors_in,
    write_postings,
    write_vectors,
)
from cortexgraph_vault.index.catalog.vault_catalog import PickledVectors, VaultCatalog, complete
from cortexgraph_vault.index.gc_pause import gc_paused
from cortexgraph_vault.index.heap_trim import give_back_freed_memory
from cortexgraph_vault.index.notes.records import IndexedNote, parser_version
from cortexgraph_vault.vault.layout import VaultLayout
from cortexgraph_vault.vault.lock import vault_key

if TYPE_CHECKING:  # numpy: loaded with the word index, when first needed
    from cortexgraph_vault.index.text.text_index import TextIndex
    from cortexgraph_vault.index.vectors.vector_rows import ExportedVectors

log = logging.getLogger(__name__)

# the file's layout (the word index's own is covered by the parser version)
CACHE_FORMAT = 8
NOTE_CHUNK = 2000
_END = "end of the cortexgraph-vault index cache"
# where the vectors, the notes' cold fields, their records and the word index begin, where
# the word index ends, and what the vectors are (_NO_VECTORS, or whether they are complete)
_TRAILER = struct.Struct("<QQQQQB")
_NO_VECTORS = 2


@dataclass(frozen=True)
class CachedIndex:
    notes: dict[str, IndexedNote]
    text: Callable[[], TextIndex]  # the word index, unpickled when first called
    vectors: PickledVectors | None = None


def _words_loader(
    store: CacheRecords, start: int, end: int, header: CacheHeader, stored: bool
) -> Callable[[], TextIndex]:
    """The word index held in [start, end) of the file, restored when called; `stored`: its
    lists' arrays made when each is first used (a one-call process: a search reads a few)."""

    def restore() -> TextIndex:
        from cortexgraph_vault.index.text.text_index import TextIndex

        raw = store.stream(start)
        with gc_paused():
            chunks = header["term_chunks"]
            postings: dict[str, Any] = (
                read_stored_postings(raw, chunks, len(header["paths"]))
                if stored
                else read_postings(raw, chunks)
            )
            if raw.tell() != end:
                raise ValueError("the word index does not end where the end marker begins")
            return TextIndex.restore(
                {
                    "paths": header["paths"],
                    "norms": header["norms"],
                    "postings": postings,
                    "terms_of": header["terms_of"],
                    "stored": stored,
                }
            )

    return restore


def cache_path(cache_dir: Path, root: Path) -> Path:
    return cache_dir / "index" / f"{vault_key(root)}.pickle"


class CacheStamp(TypedDict):
    """What a cache must have been written with to be read: compared whole, pickled first."""

    format: int
    parser: str
    root: str
    layout: tuple[str, str, str]
    max_note_bytes: int


class CacheHeader(TypedDict):
    """How many parts the notes and words are in, and the word index's small parts."""

    note_chunks: int
    term_chunks: int
    paths: list[str | None]
    norms: object  # array("d"), handed to TextIndex.restore
    terms_of: dict[int, list[str]]


def _stamp(layout: VaultLayout, max_note_bytes: int) -> CacheStamp:
    return {
        "format": CACHE_FORMAT,
        "parser": parser_version(),
        "root": str(layout.root),
        "layout": (layout.stm, layout.ltm, layout.archive),
        "max_note_bytes": max_note_bytes,
    }


# Caches being written by a background thread of this process (a reader waits for them).
_writing: dict[Path, threading.Thread] = {}
_writing_lock = threading.Lock()


def wait_for_writes(path: Path) -> None:
    with _writing_lock:
        thread = _writing.get(path)
    if thread is not None:
        thread.join()


def _tail(fh: BinaryIO, size: int) -> bytes:
    """The last `size` bytes of the file; its position is left where it was."""
    at = fh.tell()
    fh.seek(-size, os.SEEK_END)
    found = fh.read(size)
    fh.seek(at)
    return found


def load_cache(
    path: Path, layout: VaultLayout, max_note_bytes: int, *, stored_words: bool = False
) -> CachedIndex | None:
    """The cached index, or None when there is none or it cannot be trusted. `stored_words`:
    the word index's lists are made from the file's bytes when each is first used, not all
    when it is restored, and the notes' numbers and tags are kept as read, not shared (a
    one-call process; a long-lived one would hold both lists, and copies of each value).

    The file: the stamp, a header, the vectors, each note's cold fields (cold_fields.py),
    the notes' records, the word index, an end marker, and where the parts begin."""
    wait_for_writes(path)
    try:
        with open(path, "rb") as fh, gc_paused():
            if pickle.load(fh) != _stamp(layout, max_note_bytes):
                log.info("%s: index cache is from another version or layout; rebuilding it", path)
                return None
            header: CacheHeader = pickle.load(fh)
            vectors_at, base, records_at, terms_at, end_at, flag = _TRAILER.unpack(
                _tail(fh, _TRAILER.size)
            )
            if fh.tell() != vectors_at:
                raise ValueError("the vectors do not begin where the header ends")
            fh.seek(records_at)
            records = [pickle.load(fh) for _ in range(header["note_chunks"])]
            if fh.tell() != terms_at:
                raise ValueError("the notes' records end where the word index does not begin")
            fh.seek(end_at)
            if pickle.load(fh) != _END:
                raise ValueError("the end marker is missing")
            store = CacheRecords(fh, base)
            vectors = None
            if flag != _NO_VECTORS:  # read when first needed
                vectors = PickledVectors(*vectors_in(store, vectors_at, base), bool(flag))
            encoded, share = IndexedNote.encoded, not stored_words
            notes = {
                hot[0]: encoded(hot, store, at, length, share)
                for chunk in records
                for hot, at, length in chunk
            }
            indexed = set(header["paths"])  # the word index's: None for a removed note
            indexed.discard(None)
            if notes.keys() != indexed:
                raise ValueError("notes and word index disagree")
    except FileNotFoundError:
        return None
    except Exception as exc:  # a corrupt or foreign cache is rebuilt, never fatal
        log.warning("%s: index cache unreadable (%s); rebuilding it", path, exc)
        return None
    text = _words_loader(store, terms_at, end_at, header, stored_words)
    return CachedIndex(notes, text, vectors)


def _private_folders(folder: Path) -> None:
    """The cache's folder and the app's cache folder above it, readable by the user only
    (made so again when an older version left them 0755)."""
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for each in (folder, folder.parent):
            if stat.S_IMODE(each.stat().st_mode) != 0o700:
                each.chmod(0o700)


def _moved(
    path: Path, base: int, notes: list[IndexedNote], offsets: array[int], lengths: array[int]
) -> None:
    """The notes just written read their cold fields from the new file from now on: those a
    parse gave in bytes of their own let them go (100k notes: a few hundred megabytes)."""
    if os.name == "nt":
        return  # the file is read whole there: nothing to gain
    with contextlib.suppress(OSError, ValueError), open(path, "rb") as fh:
        store = CacheRecords(fh, base)
        for note, at, length in zip(notes, offsets, lengths, strict=True):
            note.moved_to(store, at, length)


def save_cache(
    path: Path,
    layout: VaultLayout,
    max_note_bytes: int,
    notes: dict[str, IndexedNote],
    text: dict[str, Any],
    vectors: PickledVectors | ExportedVectors | None = None,
) -> float:
    """Write the cache atomically (a reader sees the old file or the new one); seconds taken.

    Written as a sequence of small pickles: a watching process writes it in the background,
    and one big pickle would hold the interpreter lock (and every search) for a second.
    Exported vectors (a dict) are emptied once written: the index's arrays are its own again.
    """
    started = time.perf_counter()
    _private_folders(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    postings = text["postings"]
    term_parts = posting_parts(postings)
    try:
        header: CacheHeader = {
            "note_chunks": (len(notes) + NOTE_CHUNK - 1) // NOTE_CHUNK,
            "term_chunks": len(term_parts),
            "paths": text["paths"],
            "norms": text["norms"],
            "terms_of": text.get("terms_of", {}),
        }
        # 0600 from its creation: the cache holds the text of every note in the vault
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as fh:
            pickle.dump(_stamp(layout, max_note_bytes), fh, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(header, fh, protocol=pickle.HIGHEST_PROTOCOL)
            vectors_at = fh.tell()
            # the vectors, read when first needed: written straight from their arrays, or
            # copied from the cache they were loaded from (100 MB at 100k notes); first, so
            # the index's arrays are let go of at once (a change meanwhile copies them)
            if vectors is None:
                flag = _NO_VECTORS
            elif isinstance(vectors, PickledVectors):  # as loaded, never read
                flag = vectors.complete
                vectors.copy_to(fh)
            else:  # as exported
                flag = complete(vectors, notes)
                write_vectors(fh, vectors)
                cast("dict[str, object]", vectors).clear()  # the arrays let go of
            base = fh.tell()
            # where each note's cold fields are: two numbers a note (100k: records would be
            # 30 MB more at the peak of a cold start)
            offsets, lengths = array("Q"), array("Q")
            for note in notes.values():  # one at a time: never all of them encoded at once
                cold = note.cold_bytes()
                offsets.append(fh.tell() - base)
                lengths.append(len(cold))
                fh.write(cold)
            records_at = fh.tell()
            ordered = list(notes.values())
            for start in range(0, len(ordered), NOTE_CHUNK):
                chunk = [
                    (note.hot(), offsets[i], lengths[i])
                    for i, note in enumerate(ordered[start : start + NOTE_CHUNK], start)
                ]
                pickle.dump(chunk, fh, protocol=pickle.HIGHEST_PROTOCOL)
            terms_at = fh.tell()
            write_postings(fh, postings, term_parts)
            end_at = fh.tell()
            pickle.dump(_END, fh, protocol=pickle.HIGHEST_PROTOCOL)
            fh.write(_TRAILER.pack(vectors_at, base, records_at, terms_at, end_at, flag))
        os.replace(tmp, path)
        _moved(path, base, ordered, offsets, lengths)
        give_back_freed_memory()
    except Exception as exc:  # a cache is only a speed-up: failing to write one is never fatal
        reason = exc.strerror if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
        log.warning("%s: cannot write the index cache (%s); the next start re-parses", path, reason)
        with contextlib.suppress(OSError):
            tmp.unlink()
    return time.perf_counter() - started


class IndexCache:
    """The cache file of one vault, and when it is worth writing again."""

    def __init__(
        self, path: Path, layout: VaultLayout, max_note_bytes: int, *, one_call: bool = False
    ) -> None:
        self.path, self.layout, self.max_note_bytes = path, layout, max_note_bytes
        self.one_call = one_call  # the process makes one call: the word index read as used
        self.loaded_at_start = False
        self._written = False  # the file holds this process's index (or a loaded one)
        self.load_seconds = self.save_seconds = 0.0
        self.saved_at: float | None = None
        self._written_at = time.time()  # of the file this process started from, or wrote
        self._parsed_at_save = self._removed_at_save = 0

    def load_into(self, catalog: VaultCatalog) -> bool:
        started = time.perf_counter()
        cached = load_cache(self.path, self.layout, self.max_note_bytes, stored_words=self.one_call)
        if cached is not None:
            catalog.adopt(cached.notes, cached.text, cached.vectors)
        else:  # notes parsed in workers wait beside the cache for it (index/cache/cold_spool.py)
            _private_folders(self.path.parent)
        catalog.spool_folder = self.path.parent
        catalog.meaning.file = self.path.with_name(self.path.name + ".meaning")
        self.loaded_at_start = self._written = cached is not None
        self.load_seconds = time.perf_counter() - started
        self._parsed_at_save = catalog.parsed
        self._removed_at_save = catalog.removed
        return self.loaded_at_start

    def changes_since_save(self, catalog: VaultCatalog) -> int:
        return catalog.parsed - self._parsed_at_save + catalog.removed - self._removed_at_save

    def save(
        self,
        catalog: VaultCatalog,
        *,
        background: bool = False,
        after: threading.Thread | None = None,
    ) -> None:
        """Write the cache; in the background, the snapshot is taken now and written by a
        thread the process waits for before it exits (a CLI call never leaves half a file).
        `after`: a thread (the embedding of new notes) the snapshot waits for, so the file
        holds its vectors."""
        parsed, removed = catalog.parsed, catalog.removed
        now = None if after is not None else catalog.snapshot()
        self.saved_at = self._written_at = time.time()
        self._parsed_at_save, self._removed_at_save = parsed, removed

        def write() -> None:
            if after is not None:
                after.join()
            notes, text, vectors = now or catalog.snapshot()
            self.save_seconds = save_cache(
                self.path, self.layout, self.max_note_bytes, notes, text, vectors
            )

        wait_for_writes(self.path)
        if not background:
            write()
            return
        thread = threading.Thread(target=write, name="cgv-index-cache", daemon=False)
        with _writing_lock:
            _writing[self.path] = thread
        thread.start()

    def save_if_changed(
        self,
        catalog: VaultCatalog,
        *,
        min_changes: int = 1,
        min_interval: float = 0.0,
        background: bool = False,
        after: threading.Thread | None = None,
    ) -> bool:
        """Write the cache when enough changed since it was written (and not too recently)."""
        if (self._written and self.changes_since_save(catalog) < min_changes) or (
            time.time() - self._written_at < min_interval
        ):
            return False
        self.save(catalog, background=background or after is not None, after=after)
        self._written = True
        return True
