"""The in-memory catalogue of every note in the vault: notes, memories, links and words.

It only reads the vault. A file is re-parsed when its size or mtime changed and its bytes
differ; our own writes are recorded directly (read-your-writes), so the watcher's echo and the
next stat walk both skip them. Every change and multi-step read holds one lock; readers get
lists, never live views. Every note comes in through `_put` and goes through `drop`; the word
index, the vectors, the link graph and `on_change` follow each. The word index and vectors are
restored from the cache only when first needed (`stats` and `show` never load numpy).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.index.catalog.change_log import ADDED, RELATIONS, REMOVED, ChangeLog, Changes
from cortexgraph_vault.index.catalog.file_reads import (
    FileRead,
    is_refusal,
    read_note_file,
    stat_key,
)
from cortexgraph_vault.index.catalog.vault_walk import (
    BAD_NAME,
    Walked,
    ignored_name,
    shown_name,
    utf8_name,
    walk_vault,
)
from cortexgraph_vault.index.gc_pause import gc_paused
from cortexgraph_vault.index.graph import LinkGraph
from cortexgraph_vault.index.heap_trim import give_back_freed_memory
from cortexgraph_vault.index.notes.records import (
    IndexedNote,
    index_bytes,
    stats_of,
    with_stamp,
    with_words,
)
from cortexgraph_vault.index.vectors.embedder import SMALL_BATCH, VectorModel
from cortexgraph_vault.index.vectors.meaning import MeaningVectors
from cortexgraph_vault.progress import Progress, no_progress
from cortexgraph_vault.vault.files import kind_of, not_regular, regular_file_exists
from cortexgraph_vault.vault.layout import VaultLayout

if TYPE_CHECKING:  # numpy: made when vectors or words are first needed (a search, a change)
    import numpy as np

    from cortexgraph_vault.core.note import ParsedNote
    from cortexgraph_vault.index.catalog.parallel_parse import EarlyWorkers, ParseWorkers
    from cortexgraph_vault.index.text.document_terms import TermStats
    from cortexgraph_vault.index.text.text_index import TextIndex
    from cortexgraph_vault.index.vectors.semantic import SemanticIndex
    from cortexgraph_vault.index.vectors.vector_rows import ExportedVectors

log = logging.getLogger(__name__)

T = TypeVar("T")
READ_ATTEMPTS = 5  # reads of a path that keeps changing under us before leaving it for later
# a note parsed outside the lock: its words (None: those of the note it was parsed beside)
Parsed = tuple[IndexedNote, "TermStats | None", IndexedNote | None]

__all__ = [
    "IndexedNote",
    "PickledVectors",
    "RefreshReport",
    "VaultCatalog",
    "ignored_name",
    "walk_vault",
]


@dataclass(frozen=True)
class PickledVectors:
    """Note vectors as the cache holds them (`SemanticIndex.export`), read only when something
    needs them: `stats` or `show` never loads numpy. `complete`: every note has its vector
    and none waits to be embedded again."""

    load: Callable[[], ExportedVectors]  # read from the cache file
    copy_to: Callable[[BinaryIO], None]  # written as they are into a newer cache file
    complete: bool


def complete(exported: ExportedVectors, paths: Iterable[str]) -> bool:
    """Exported vectors hold every note's, and none waits to be embedded again."""
    return not exported["pending"] and set(exported["paths"]) >= set(paths)


@dataclass
class RefreshReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


class VaultCatalog:
    """Every note of one vault as parsed, and what is derived from them: memories by id,
    names and tags in use, the word index, the note vectors and the link graph."""

    def __init__(
        self,
        layout: VaultLayout,
        *,
        max_note_bytes: int = 5_000_000,
        embedder: Callable[[], VectorModel] | None = None,
        encoder: Callable[[], VectorModel] | None = None,
    ) -> None:
        self.layout = layout
        self.root = layout.root
        self._real_root = os.path.realpath(layout.root)
        self.max_note_bytes = max_note_bytes
        self.lock = threading.RLock()
        self._notes: dict[str, IndexedNote] = {}
        # memory id → the paths holding it (several: a problem)
        self._by_id: dict[str, list[str]] = {}
        self._unreadable: dict[str, str] = {}  # path → why it could not be read
        # made when first used; until then `_text_loader` restores the cached one, if any
        self._text: TextIndex | None = None
        self._text_loader: Callable[[], TextIndex] | None = None
        self._embedder = embedder
        # made when first used; until then `_vectors` holds the cached vectors, if any (None
        # in it: the cache held none, a one-call process wrote it before making them)
        self._semantic: SemanticIndex | None = None
        self._vectors: tuple[PickledVectors | None, set[str]] | None = None
        # told how many notes `sync_vectors` embedded (a one-call process writes them to the cache)
        self.vectors_made: Callable[[int], None] | None = None
        # the sentence encoder's vectors, made behind the searches (index/vectors/meaning.py)
        self.meaning = MeaningVectors(encoder, lambda: list(self._notes), self.meaning_text)
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
        self.change_log = ChangeLog()  # the path of each recent change (`changes_since`)
        self._names: Counter[str] = Counter()  # file names as Obsidian compares them → how many
        self._tags: Counter[str] = Counter()
        self._counted = True  # False: both counted from the notes when first needed
        # where notes parsed in worker processes keep their fields until the cache holds
        # them (index/cache/cold_spool.py); None: in memory
        self.spool_folder: Path | None = None
        # told of each note ("note", path), other file ("file", path) or folder walked again
        # ("walk", folder) whose state changed, under the catalogue's lock: it must not block
        self.on_change: Callable[[str, str], None] | None = None
        # set on a thread bringing the catalogue up to what it found on disk (the watcher),
        # where no call waits for the change to answer: a read process may take it in behind
        # its reads
        self._noticing = threading.local()

    def __len__(self) -> int:
        return len(self._notes)

    def notes(self) -> list[IndexedNote]:
        with self.lock:
            return list(self._notes.values())

    def note(self, rel: str) -> IndexedNote | None:
        return self._notes.get(rel)

    def memories(self) -> Iterator[Memory]:
        return (note.memory for note in self.notes() if note.memory is not None)

    def memory_by_id(self, memory_id: str) -> Memory | None:
        with self.lock:
            paths = self._by_id.get(memory_id)
            note = self._notes.get(paths[0]) if paths else None
            return note.memory if note else None

    def problems(self) -> list[tuple[str, str]]:
        with self.lock:
            found = [(n.path, p) for n in self._notes.values() for p in n.problems]
            found += list(self._unreadable.items())
            found += [
                (
                    path,
                    f"memory id {mid} is also used by {', '.join(p for p in paths if p != path)}",
                )
                for mid, paths in self._by_id.items()
                if len(paths) > 1
                for path in paths
            ]
        return sorted(found)

    def name_in_use(self, name: str, *, besides: str | None = None) -> bool:
        """A note anywhere in the vault has this file name, compared as Obsidian compares link
        names (case-insensitively): a new note takes another, so a `[[link]]` to either stays
        unambiguous. `besides`: a note that is moving and gives up its own name."""
        key = name_key(name)
        with self.lock:
            count = self._counts()[0].get(key, 0)
        if besides is not None and name_key(besides.rsplit("/", 1)[-1]) == key:
            count -= 1
        return count > 0

    def tags_in_use(self) -> set[str]:
        """Every tag some note carries, as written (kept as notes change: no walk)."""
        with self.lock:
            return set(self._counts()[1])

    def search_text(
        self, terms: list[str], related: Mapping[str, Sequence[tuple[str, float]]] | None = None
    ) -> tuple[dict[str, float], dict[str, list[str]]]:
        """Path → similarity of every note matching the terms, and what each term matched."""
        with self.lock:
            return self.text.search_expanded(terms, related)

    def search_text_sized(
        self, terms: list[str], related: Mapping[str, Sequence[tuple[str, float]]] | None = None
    ) -> tuple[dict[str, float], dict[str, list[str]], np.ndarray]:
        """`search_text`, and each match's indexed length (field-weighted words), in order."""
        with self.lock:
            return self.text.search_sized(terms, related)

    def text_lengths(self, paths: Sequence[str]) -> np.ndarray:
        """Each note's indexed length (0 for a note the word index does not hold)."""
        with self.lock:
            return self.text.lengths(paths)

    def document_frequencies(self, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """How many notes the word index holds, and in how many of them each term occurs."""
        with self.lock:
            text = self.text
            return len(text), {term: text.document_frequency(term) for term in terms}

    @property
    def text(self) -> TextIndex:
        """The word index, unpickled from the cache (or made empty) when first asked for:
        `stats` or `show` never loads it."""
        return self._made_once("_text", self._restored_text)

    def _made_once(self, name: str, make: Callable[[], T]) -> T:
        """The attribute `name`, made by `make` under the lock when first asked for (another
        thread may be making it meanwhile); read without the lock once it is there."""
        made: T | None = getattr(self, name)
        if made is None:
            with self.lock:
                made = getattr(self, name)
                if made is None:
                    made = make()
                    setattr(self, name, made)
        return made

    def _restored_text(self) -> TextIndex:
        from cortexgraph_vault.index.text.text_index import TextIndex

        loader, self._text_loader = self._text_loader, None
        if loader is None:
            return TextIndex()
        try:
            return loader()
        except Exception as exc:  # a damaged cache costs tokenising the notes again
            log.warning("cached word index unusable (%s); indexing the words again", exc)
        index = TextIndex()
        for note in self._notes.values():
            index.put(note.path, stats_of(note), None)
        return index

    @property
    def semantic(self) -> SemanticIndex:
        """The note vectors, unpickled from the cache (or made empty) when first asked for."""
        return self._made_once("_semantic", self._unpickled_vectors)

    def _unpickled_vectors(self) -> SemanticIndex:
        from cortexgraph_vault.index.vectors.semantic import SemanticIndex

        index = SemanticIndex(self._embedder)
        cached, self._vectors = self._vectors, None
        if cached is None:
            return index
        vectors, known = cached
        if vectors is not None:
            try:
                index.restore(vectors.load(), known)
                return index
            except Exception as exc:  # a damaged cache costs an embedding, never the index
                log.warning("cached note vectors unusable (%s); embedding again", exc)
                index = SemanticIndex(self._embedder)
        for path in known:  # none cached, or unusable: every note waits for its own
            index.mark(path)
        return index

    def vectors_waiting(self) -> bool:
        """Some note waits for its vector: the cache held none or not all of them, or a note
        changed since (any change to a note unpickles the cached vectors first)."""
        if self._semantic is None:
            cached = self._vectors
            if cached is None or self._embedder is None:
                return False
            return cached[0] is None or not cached[0].complete
        return self._semantic.pending > 0

    def vector_text(self, rel: str) -> str | None:
        from cortexgraph_vault.index.vectors.semantic import note_text

        note = self._notes.get(rel)
        return None if note is None else note_text(note.title, note.aliases, note.body_text())

    def meaning_text(self, rel: str) -> str | None:
        """What the sentence encoder reads of a note: its names, then its text as rendered
        (core/reading_text.py), so its 128 tokens go to words a reader sees, not markup."""
        from cortexgraph_vault.core.reading_text import reading_text
        from cortexgraph_vault.index.vectors.semantic import note_text

        note = self._notes.get(rel)
        return (
            None
            if note is None
            else note_text(note.title, note.aliases, reading_text(note.body_text()))
        )

    def sync_vectors(self) -> int:
        """Embed the notes changed since the last call (the search calls it before it looks)."""
        if self._semantic is None and not self.vectors_waiting():
            return 0  # nothing changed since the cached vectors (or there are none to make)
        made = self.semantic.sync(self.vector_text, self.vector_progress)
        if made > SMALL_BATCH:  # the tokenizer (and past TABLE_MIN the float32 table) made
            model = self.semantic.embedder()
            if model is not None:
                model.let_go(time.monotonic())
            # the parsed tokenizer's heap and each note's decoded text, handed back: a daemon
            # that embeds the memories saved since its last search keeps none of it
            give_back_freed_memory()
        if made and self.vectors_made is not None:
            self.vectors_made(made)
        return made

    def sync_vectors_behind(self) -> threading.Thread:
        """Embed the changed notes on a thread of their own, so the index answers by words
        meanwhile. Whatever needs the vectors calls `sync_vectors` first, which waits for
        this one (the semantic index's lock) or does the work itself: what it sees is the
        same as if the vectors had been made up front."""
        started = threading.Event()

        def embed() -> None:
            with self.semantic.embedding:  # taken before the caller goes on: a sync waits
                started.set()
                try:
                    self.sync_vectors()
                except Exception:  # search by meaning reports its own problem; words go on
                    log.exception("embedding notes in the background failed")

        thread = threading.Thread(target=embed, name="cgv-vectors", daemon=True)
        thread.start()
        started.wait()
        return thread

    # the whole state at once: from the cache, from a re-index beside it, to the cache
    def adopt(
        self,
        notes: dict[str, IndexedNote],
        text: TextIndex | Callable[[], TextIndex],
        vectors: PickledVectors | SemanticIndex | None = None,
    ) -> None:
        """Take over a state loaded from the persistent cache (before any other change):
        its vectors too when it has them, or else every note is embedded again. Vectors
        kept pickled, or none, are unpickled (or marked to be made) when first needed."""
        with self.lock:
            self._semantic, self._vectors = None, None
            self.meaning.reset()
            if vectors is None or isinstance(vectors, PickledVectors):
                self._vectors = (vectors, set(notes))
            else:
                self._semantic = vectors
            self._notes = dict(notes)
            self._by_id = {}
            for note in notes.values():
                if note.memory_id:
                    self._by_id.setdefault(note.memory_id, []).append(note.path)
            if callable(text):  # as cached: unpickled when first needed
                self._text, self._text_loader = None, text
            else:
                self._text, self._text_loader = text, None
            self.graph.load(notes.values())
            self._counted = False  # a read of one call never asks them: counted when asked
            self.generation += 1
            self.note_generation += 1
            self.relation_generation += 1
            self.change_log.reset(self.generation)

    def replace_with(self, other: VaultCatalog) -> None:
        """Take over another catalogue's notes (a full re-index built beside this one)."""
        with other.lock:
            notes, text = dict(other._notes), other.text
            unreadable = dict(other._unreadable)
            attachments = set(other.graph._attachments)
            semantic = other.semantic
        self.adopt(notes, text, semantic)
        with self.lock:
            self._unreadable = unreadable
            self.graph.set_attachments(attachments)
            self.parsed += other.parsed
            if self.on_change is not None:
                self.on_change("walk", "")

    def snapshot(
        self,
    ) -> tuple[dict[str, IndexedNote], dict[str, object], PickledVectors | ExportedVectors | None]:
        """Notes, words and vectors to save: the vectors as loaded if still untouched, else
        exported (pickled by the writer, outside the lock)."""
        with self.lock:
            notes = dict(self._notes)
            if self._semantic is None and self._vectors is not None:
                vectors: PickledVectors | ExportedVectors | None = self._vectors[0]
            else:
                vectors = self.semantic.export()
            return notes, self.text.export(), vectors

    @contextlib.contextmanager
    def noticing(self) -> Iterator[None]:
        self._noticing.on = True
        try:
            yield
        finally:
            self._noticing.on = False

    @property
    def noticed(self) -> bool:
        """Whether the change being made now was found on disk (`noticing`), not made by a call."""
        return getattr(self._noticing, "on", False)

    def changes_since(self, generation: int) -> Changes | None:
        """The changes after `generation` with each changed path's note now, or None when
        they are no longer all known (a value made then is built again)."""
        with self.lock:
            found = self.change_log.since(generation)
            if found is None:
                return None
            notes = self._notes
            return Changes(self.generation, found, {path: notes.get(path) for path, _ in found})

    def notes_now(self) -> tuple[int, list[IndexedNote]]:
        """The notes in the catalogue's order, with the generation they are (`changes_since`
        brings a value made from them up to date)."""
        with self.lock:
            return self.generation, list(self._notes.values())

    def drop(self, rel: str) -> None:
        with self.lock:
            self._unreadable.pop(rel, None)
            old = self._notes.pop(rel, None)
            if old is None:
                return
            self._forget_id(old)
            self.text.remove(rel, lambda: indexed_terms_of(old))
            self.semantic.drop(rel)
            self.meaning.drop(rel)
            self.graph.remove(old)
            self.removed += 1
            self._tagged(old, -1)
            self._changed(old, None)
            if self.on_change is not None:
                self.on_change("note", rel)

    def _put(
        self,
        note: IndexedNote,
        *,
        reindex: bool = True,
        stats: TermStats | None = None,
        words_later: bool = False,
        same_words: bool = False,
    ) -> IndexedNote:
        """Index a note. `words_later`: its words come in a block of postings the caller adds
        (`TextIndex.put_block`) before letting go of the lock. `same_words`: its searchable
        text is the indexed note's (a touch changes fields only): the word index is left as it
        is (taking the note's words out and putting them back costs two word counts)."""
        reindex = reindex or words_later
        if reindex and stats is None and not words_later and not same_words:
            stats = stats_of(note)
        with self.lock:
            old = self._notes.get(note.path)
            self._unreadable.pop(note.path, None)
            if old is not None:
                self._forget_id(old)
            self._notes[note.path] = note
            if note.memory_id:
                paths = self._by_id.setdefault(note.memory_id, [])
                if note.path not in paths:
                    paths.append(note.path)
            if old is None:
                self._named(note.path, +1)
            if reindex:
                self._tagged(old, -1)
                self._tagged(note, +1)
                self._changed(old, note)
                self.parsed += 1
                self.semantic.mark(note.path)
                self.meaning.mark(note.path)
                old_terms = (lambda: indexed_terms_of(old)) if old else None
                if same_words:
                    pass
                elif not words_later:
                    assert stats is not None  # taken above, outside the lock
                    self.text.put(note.path, stats, old_terms)
                elif note.path in self.text:
                    self.text.remove(note.path, old_terms)
                self.graph.put(note, old)
            else:  # a restamp: the generation stays; a value made from `old` is told later
                self.change_log.record(self.generation + 1, note.path, ADDED if old is None else 0)
            if self.on_change is not None:
                self.on_change("note", note.path)
        return note

    def _changed(self, old: IndexedNote | None, new: IndexedNote | None) -> None:
        self.generation += 1
        # a memory's fields are not decoded to know it is one (100k notes: 30k memories)
        if (old is not None and not old.has_memory) or (new is not None and not new.has_memory):
            self.note_generation += 1
        flags = (ADDED if old is None else 0) | (REMOVED if new is None else 0)
        if relations_changed(old, new):
            self.relation_generation += 1
            flags |= RELATIONS
        changed = new if new is not None else old
        assert changed is not None
        self.change_log.record(self.generation, changed.path, flags)
        if new is None and old is not None:
            self._named(old.path, -1)

    def _counts(self) -> tuple[Counter[str], Counter[str]]:
        """How many notes have each file name, and each tag (called under the lock)."""
        if not self._counted:
            notes = self._notes
            self._names = Counter(name_key(path.rsplit("/", 1)[-1]) for path in notes)
            self._tags = Counter(tag for note in notes.values() for tag in note.tags)
            self._counted = True
        return self._names, self._tags

    def _named(self, path: str, delta: int) -> None:
        if not self._counted:  # counted from the notes, this one's change included
            return
        name = name_key(path.rsplit("/", 1)[-1])
        self._names[name] += delta
        if self._names[name] <= 0:
            del self._names[name]

    def _tagged(self, note: IndexedNote | None, delta: int) -> None:
        if not self._counted:
            return
        for tag in note.tags if note is not None else ():
            self._tags[tag] += delta
            if self._tags[tag] <= 0:
                del self._tags[tag]

    def _forget_id(self, old: IndexedNote) -> None:
        mid = old.memory_id
        paths = self._by_id.get(mid) if mid else None
        if mid and paths and old.path in paths:
            paths.remove(old.path)
            if not paths:
                del self._by_id[mid]

    def refresh(self, start: str = "", walked: Iterable[Walked] | None = None) -> RefreshReport:
        """Stat every note (under `start`); re-parse those that changed; drop the vanished.
        `walked`: what a walk of the whole vault begun a moment ago found (early_walk.py),
        taken instead of walking again."""
        with gc_paused():
            report = self._refresh(start, walked)
        if self.on_change is not None:  # what the walk saw beside the notes (attachments)
            self.on_change("walk", start)
        return report

    def _refresh(self, start: str, walked: Iterable[Walked] | None = None) -> RefreshReport:
        report = RefreshReport()
        seen: set[str] = set()
        attachments: set[str] = set()
        prefix = start.rstrip("/") + "/" if start else ""
        todo: dict[str, tuple[int, int] | None] = {}  # path → stamp indexed when walked
        # a cold start parses every file: its workers start while the walk goes on
        workers = workers_for_walk(cold=not self._notes)
        found = iter(walked) if walked is not None else walk_vault(self.root, start)
        for rel, st in workers.walk(found):
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
                    self._refuse(
                        rel, FileRead(None, problem=not_regular(kind_of(st.st_mode)), refused=True)
                    )
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
        from cortexgraph_vault.index.cache.cold_spool import ColdSpool
        from cortexgraph_vault.index.catalog.parallel_parse import parse_many

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
        note, stats = with_words(
            index_bytes(rel, got.data, got.st, self.layout, self.max_note_bytes)
        )
        return self._put(note, stats=stats)

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


def parallel_min() -> int:
    # the parse workers' module (and the subprocess machinery): only when there is a parse
    from cortexgraph_vault.index.catalog.parallel_parse import PARALLEL_MIN

    return PARALLEL_MIN


class NoEarlyWorkers:
    """A walk that starts no parse workers on its way (a warm start parses what changed)."""

    def walk(self, walked: Iterator[Walked]) -> Iterator[Walked]:
        return walked

    def take(self) -> None: ...

    def stop(self) -> None: ...


def workers_for_walk(*, cold: bool) -> NoEarlyWorkers | EarlyWorkers:
    if not cold:
        return NoEarlyWorkers()
    from cortexgraph_vault.index.catalog.parallel_parse import EarlyWorkers

    return EarlyWorkers()


def relation_key(note: IndexedNote | None) -> object:
    m = note.memory if note is not None else None
    if m is None:
        return None
    # the save time too: it places a memory in its episode (handlers/search/relevance.py `episodes`)
    return m.path, m.id, m.title, m.relations, m.created


def relations_changed(old: IndexedNote | None, new: IndexedNote | None) -> bool:
    if old is None or new is None:  # a memory came or went (no need to unpickle it to know)
        either = old if old is not None else new
        return either is not None and either.kind != "note"
    return relation_key(old) != relation_key(new)


def indexed_terms_of(old: IndexedNote) -> dict[str, float]:
    from cortexgraph_vault.index.text.document_terms import indexed_weights

    return indexed_weights(stats_of(old))


def same_words(old: IndexedNote, new: IndexedNote) -> bool:
    """The new version of a note has the searchable text the indexed one has (`_put`'s
    `same_words`), and the old one was indexed in full (not cut to the words one note holds)."""
    if any(p.endswith(" are searchable") for p in old.problems):
        return False
    return old.document() == new.document()


def same_bytes(old: IndexedNote, data: bytes, max_bytes: int) -> bool:
    if len(data) > max_bytes or old.sha256.startswith("partial:"):
        return False
    # the bytes first: a touch's are new, and the note's fields are then not decoded
    if old.size != len(data) or old.sha256 != hashlib.sha256(data).hexdigest():
        return False
    # its times default from the file's stamp, which just changed
    return old.memory is None or {"created", "last_used"} <= old.frontmatter.keys()
