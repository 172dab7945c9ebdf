"""The in-memory catalogue of every note in the vault: notes, memories, links and words.

It only reads the vault. A file is re-parsed when its size or mtime changed and its bytes
differ; our own writes are recorded directly (read-your-writes), so the watcher's echo and the
next stat walk both recognise them and skip them.

The watcher thread and request threads share it: every change and every multi-step read
holds one lock, and readers get snapshots (lists), never live views of the dictionaries.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.index.catalog_entries import CatalogEntries
from cortexgraph_vault.index.catalog_parts import (
    PickledVectors,
    RefreshReport,
    parallel_min,
    same_bytes,
    same_words,
    workers_for_walk,
)
from cortexgraph_vault.index.change_log import ChangeLog
from cortexgraph_vault.index.embedder import Embedder
from cortexgraph_vault.index.file_reads import FileRead, is_refusal, read_note_file, stat_key
from cortexgraph_vault.index.gc_pause import gc_paused
from cortexgraph_vault.index.graph import LinkGraph
from cortexgraph_vault.index.heap_trim import give_back_freed_memory
from cortexgraph_vault.index.records import (
    IndexedNote,
    index_bytes,
    index_with_words,
    parse_note_bytes,
    with_stamp,
    with_words,
)
from cortexgraph_vault.index.vault_walk import (
    BAD_NAME,
    ignored_name,
    shown_name,
    utf8_name,
    walk_vault,
)
from cortexgraph_vault.progress import Progress, no_progress
from cortexgraph_vault.vault.files import kind_of, not_regular, regular_file_exists
from cortexgraph_vault.vault.layout import VaultLayout

if TYPE_CHECKING:  # numpy: made when vectors or words are first needed (a search, a change)
    from cortexgraph_vault.core.note import ParsedNote
    from cortexgraph_vault.index.parallel_parse import ParseWorkers
    from cortexgraph_vault.index.semantic import SemanticIndex
    from cortexgraph_vault.index.text_index import TermStats, TextIndex

log = logging.getLogger(__name__)

READ_ATTEMPTS = 5  # reads of a path that keeps changing under us before leaving it for later
# a note parsed outside the lock: its words (None: those of the note it was parsed beside)
Parsed = tuple[IndexedNote, "TermStats | None", IndexedNote | None]

__all__ = [
    "IndexedNote",
    "PickledVectors",
    "RefreshReport",
    "VaultCatalog",
    "ignored_name",
    "parse_note_bytes",
    "walk_vault",
]


class VaultCatalog(CatalogEntries):
    def __init__(
        self,
        layout: VaultLayout,
        *,
        max_note_bytes: int = 5_000_000,
        embedder: Callable[[], Embedder] | None = None,
    ) -> None:
        self.layout = layout
        self.root = layout.root
        self._real_root = os.path.realpath(layout.root)
        self.max_note_bytes = max_note_bytes
        self.lock = threading.RLock()
        self._notes: dict[str, IndexedNote] = {}
        self._by_id: dict[str, list[str]] = {}
        self._unreadable: dict[str, str] = {}
        # made when first used; until then `_text_loader` restores the cached one, if any
        self._text: TextIndex | None = None
        self._text_loader: Callable[[], TextIndex] | None = None
        self._embedder = embedder
        # made when first used; until then `_vectors` holds the cached vectors, if any
        self._semantic: SemanticIndex | None = None
        self._vectors: tuple[PickledVectors | None, set[str]] | None = None
        self.graph = LinkGraph()
        self.parsed = 0  # notes parsed since start (a warm start parses only what changed)
        self.progress: Progress = no_progress("indexing")  # (parsed, to parse) on a cold start
        self.vector_progress: Progress = no_progress("embedding")  # (embedded, to embed)
        self.removed = 0
        # Bumped on every change of what notes say (a restamp is not one); note_generation
        # only when a note that is not a memory changes: memories come and go with each save.
        self.generation = 0
        self.note_generation = 0
        # Bumped only when what memories say of each other may have changed (their typed
        # relations, ids, titles, paths): a touch does not, so relation lookups stay cached.
        self.relation_generation = 0
        self.change_log = ChangeLog()  # the path of each recent change (catalog_entries.py)
        self._names: Counter[str] = Counter()
        self._tags: Counter[str] = Counter()
        # where notes parsed in worker processes keep their fields until the cache holds
        # them (index/cold_spool.py); None: in memory
        self.spool_folder: Path | None = None
        self.on_change: Callable[[str, str], None] | None = None  # catalog_entries.py
        self._noticing = threading.local()

    # updating ----------------------------------------------------------------
    def refresh(self, start: str = "") -> RefreshReport:
        """Stat every note (under `start`); re-parse those that changed; drop the vanished."""
        with gc_paused():
            report = self._refresh(start)
        if self.on_change is not None:  # what the walk saw beside the notes (attachments)
            self.on_change("walk", start)
        return report

    def _refresh(self, start: str) -> RefreshReport:
        report = RefreshReport()
        seen: set[str] = set()
        attachments: set[str] = set()
        prefix = start.rstrip("/") + "/" if start else ""
        todo: dict[str, tuple[int, int] | None] = {}  # path → stamp indexed when walked
        # a cold start parses every file: its workers start while the walk goes on
        workers = workers_for_walk(cold=not self._notes)
        for rel, st in workers.walk(walk_vault(self.root, start)):
            if st is None:
                if utf8_name(rel):
                    attachments.add(rel)
                continue
            if not utf8_name(rel):
                shown = shown_name(rel)
                seen.add(shown)
                with self.lock:
                    self._unreadable[shown] = BAD_NAME
                continue
            old = self._notes.get(rel)
            # the indexed note's own path string, not the walk's copy of it (a walk of 100k
            # notes: 8 MB of strings held to its end)
            seen.add(old.path if old is not None else rel)
            if not stat.S_ISREG(st.st_mode):
                with self.lock:
                    self._refuse(rel, FileRead(None, problem=not_regular(kind_of(st.st_mode)),
                                               refused=True))  # fmt: skip
                continue
            if old is None or old.size != st.st_size or old.mtime_ns != st.st_mtime_ns:
                todo[rel] = (old.size, old.mtime_ns) if old else None
        if todo and len(todo) >= parallel_min():
            self._apply_parsed(todo, report, workers.take())
        else:
            workers.stop()
            for done, (rel, stamp) in enumerate(todo.items(), 1):
                self.progress(done, len(todo))
                old = self._notes.get(rel)
                new = self.reload(rel)
                if new is not None and new is not old and (old is None or new.sha256 != old.sha256):
                    (report.changed if stamp else report.added).append(rel)
        with self.lock:
            # A note written meanwhile (after the walk passed its folder) is not gone.
            gone = [
                rel
                for rel in self._notes
                if rel.startswith(prefix)
                and rel not in seen
                and not regular_file_exists(self.root / rel)
            ]
            for rel in gone:
                self.drop(rel)
            report.removed += gone
            for rel in [r for r in self._unreadable if r.startswith(prefix) and r not in seen]:
                del self._unreadable[rel]
            self.graph.set_attachments(attachments, prefix)
        return report

    def _apply_parsed(
        self,
        todo: dict[str, tuple[int, int] | None],
        report: RefreshReport,
        workers: ParseWorkers | None = None,
    ) -> None:
        """Many files: parsed in worker processes (`workers`, when started already), added
        here as they arrive."""
        from cortexgraph_vault.index.cold_spool import ColdSpool
        from cortexgraph_vault.index.parallel_parse import parse_many

        done = 0
        spool = ColdSpool.beside(self.spool_folder)
        found = parse_many(self.layout, list(todo), self.max_note_bytes, workers)
        for parsed, block in found:
            done += len(parsed)
            if spool is not None:
                spool.keep(note for _, note, _, _ in parsed)
            self.progress(done, len(todo))
            with self.lock:
                words_in_block: set[str] = set()
                for rel, note, stats, problem in parsed:
                    current = self._notes.get(rel)
                    if ((current.size, current.mtime_ns) if current else None) != todo[rel]:
                        continue  # indexed again since the walk (our own write): that is newer
                    if problem is not None:
                        self._refuse(
                            rel, FileRead(None, problem=problem, refused=is_refusal(problem))
                        )
                    elif note is None:
                        self.drop(rel)
                    elif current is not None and current.sha256 == note.sha256:
                        self._put(note, reindex=False)  # same words and links, new stamp
                    else:
                        self._put(note, stats=stats, words_later=block is not None)
                        words_in_block.add(rel)
                        (report.changed if current else report.added).append(rel)
                if block is not None and words_in_block:
                    self.text.put_block(block, words_in_block)
        give_back_freed_memory()  # the frames' objects, among the notes kept

    def reload(self, rel: str) -> IndexedNote | None:
        """Bring one path up to date with the disk: parse, restamp, drop, or leave alone.

        The file is read without the lock (a slow file must not stall every search), and the
        result is applied under it only if the path is still what was read: a reader that saw
        the file before one of our writes can never put that older text back over the write's
        record.
        """
        path = self.root / rel
        if not utf8_name(rel):
            with self.lock:
                if os.path.lexists(path):
                    self._unreadable[shown_name(rel)] = BAD_NAME
                else:
                    self._unreadable.pop(shown_name(rel), None)
            return None
        for _ in range(READ_ATTEMPTS):
            old = self._notes.get(rel)
            known = (old.size, old.mtime_ns) if old else None
            got = read_note_file(path, self._real_root, self.max_note_bytes, known)
            parsed = self._parse(rel, got, old)
            with self.lock:
                # not read (same stamp as indexed): only if the index still holds that stamp
                unread_ok = got.data is not None or self._notes.get(rel) is old
                if got.still_current(path) and unread_ok:
                    return self._apply_read(rel, got, parsed)
        log.info("%s: changing faster than it can be read; left for the next look", rel)
        return self._notes.get(rel)

    def _parse(self, rel: str, got: FileRead, old: IndexedNote | None) -> Parsed | None:
        """The note and its words, worked out before taking the lock (a note of megabytes
        takes seconds); None when there is nothing to parse, or the bytes are the indexed ones.
        A note whose searchable text is `old`'s (its fields changed: a touch by another
        process, a sync tool) has no words counted: they are the indexed ones."""
        if got.data is None or got.st is None:
            return None
        if old is not None and same_bytes(old, got.data, self.max_note_bytes):
            return None
        note = index_bytes(rel, got.data, got.st, self.layout, self.max_note_bytes)
        if old is not None and same_words(old, note):
            return note, None, old
        return *with_words(note), old

    def _apply_read(
        self, rel: str, got: FileRead, parsed: Parsed | None = None
    ) -> IndexedNote | None:
        old = self._notes.get(rel)
        if got.gone:
            self.drop(rel)
            return None
        if got.problem is not None:
            self._refuse(rel, got)
            return None
        assert got.st is not None
        if got.data is None:
            return old  # the stamp the index holds: nothing changed
        if old is not None and same_bytes(old, got.data, self.max_note_bytes):
            # Same bytes, new stamp (a touch, a sync tool, our own write's echo).
            return self._put(with_stamp(old, got.st), reindex=False)
        if parsed is not None:
            note, words, parsed_beside = parsed
            if words is not None:
                return self._put(note, stats=words)
            if parsed_beside is old:  # still the note whose words it shares
                return self._put(note, same_words=True)
            note, words = with_words(note)
            return self._put(note, stats=words)
        return self.ingest(rel, got.data, got.st)

    def _refuse(self, rel: str, got: FileRead) -> None:
        """A path that could not be read: a note that stood for it goes when it is not a
        regular file any more; the reason is kept as a problem."""
        assert got.problem is not None
        if got.refused:
            self.drop(rel)
        if self._unreadable.get(rel) != got.problem:
            log.warning("%s: %s", rel, got.problem)
        self._unreadable[rel] = got.problem
        if self.on_change is not None:
            self.on_change("note", rel)

    def ingest(self, rel: str, data: bytes, st: os.stat_result) -> IndexedNote:
        note, stats = index_with_words(rel, data, st, self.layout, self.max_note_bytes)
        return self._put(note, stats=stats)

    def record(
        self,
        rel: str,
        data: bytes,
        ours: os.stat_result | None = None,
        parsed: ParsedNote | None = None,
    ) -> IndexedNote:
        """Our own write: index it now, without waiting for a walk or a watcher event.

        The write has happened, so this never fails: should the path hold something else by
        now, what we wrote is still returned to the caller (and the path reported).
        `ours`: our file's stat once written (FileStamp.st), `parsed`: its text parsed (by the
        edit's check), when known; see `_record_ours`."""
        path = self.root / rel
        if ours is not None:
            mine = self._record_ours(rel, path, data, ours, parsed)
            if mine is not None:
                return mine
        for _ in range(READ_ATTEMPTS):
            got = read_note_file(path, self._real_root, self.max_note_bytes)
            theirs = self._parse(rel, got, self._notes.get(rel))
            with self.lock:
                if not got.still_current(path):
                    continue
                if got.data is None or got.st is None:
                    self._apply_read(rel, got)
                    return self._unindexed(rel, data)
                # Written again since our write (a person's editor): the stamp is theirs, so
                # their bytes are indexed, or their change would pass for the echo of ours.
                note = self._apply_read(rel, got, theirs)
                assert note is not None
                return note
        log.info("%s: changing faster than it can be read; left for the next look", rel)
        return self._unindexed(rel, data)

    def _record_ours(
        self, rel: str, path: Path, data: bytes, ours: os.stat_result, text: ParsedNote | None
    ) -> IndexedNote | None:
        """Our write indexed from the bytes we wrote, when the path still holds our file: the
        same inode, size and mtime as when we wrote it (one lstat, under the lock, where a
        read back took nine system calls, each a hand-over of the interpreter to a reader
        thread). Anyone's write since changes the stamp (a rename: the inode; in place: the
        size or mtime), and is read as `record` reads it: None. Same test as the watcher's
        echo and the stat walk make (a file whose stamp is unchanged is not read again)."""
        if len(data) > self.max_note_bytes or not utf8_name(rel):
            return None
        old = self._notes.get(rel)
        note = index_bytes(rel, data, ours, self.layout, self.max_note_bytes, text)
        same = old is not None and same_words(old, note)
        worded = None if same else with_words(note)  # (words counted outside the lock)
        with self.lock:
            try:
                now = os.lstat(path)
            except OSError:
                return None
            if stat_key(now) != stat_key(ours):
                return None
            current = self._notes.get(rel)
            if current is not None and same_bytes(current, data, self.max_note_bytes):
                return self._put(with_stamp(current, now), reindex=False)
            if now.st_ctime_ns != ours.st_ctime_ns:  # the rename's: the path's, as a read sees it
                note = with_stamp(note, now)
            if current is old and same:
                return self._put(note, same_words=True)
            note, words = with_words(note) if worded is None else worded
            return self._put(with_stamp(note, now), stats=words)

    def _unindexed(self, rel: str, data: bytes) -> IndexedNote:
        """What we wrote, parsed but not indexed (the path no longer holds it)."""
        now = time.time_ns()
        seconds = now // 1_000_000_000
        st = os.stat_result(
            (stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, len(data), seconds, seconds, seconds),
            {"st_atime_ns": now, "st_mtime_ns": now, "st_ctime_ns": now},
        )
        return index_bytes(rel, data, st, self.layout, self.max_note_bytes)

    def attachment_changed(self, rel: str) -> None:
        """A file that is not a note appeared or went (links to it resolve, or no longer)."""
        if not utf8_name(rel):
            return
        with self.lock:
            self.graph.attachment(rel, regular_file_exists(self.root / rel))
            if self.on_change is not None:
                self.on_change("file", rel)
