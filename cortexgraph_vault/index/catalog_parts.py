"""Parts of the catalogue kept apart from its notes: the word index and the note vectors,
each restored from the cache only when something first needs it (`stats` and `show` need
neither, and neither loads numpy), and what a stat walk reports."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from cortexgraph_vault.index.embedder import SMALL_BATCH, Embedder
from cortexgraph_vault.index.heap_trim import give_back_freed_memory
from cortexgraph_vault.index.records import IndexedNote, stats_of

if TYPE_CHECKING:  # numpy: made when vectors or words are first needed (a search, a change)
    from cortexgraph_vault.index.parallel_parse import EarlyWorkers
    from cortexgraph_vault.index.semantic import SemanticIndex
    from cortexgraph_vault.index.text_index import TextIndex
    from cortexgraph_vault.progress import Progress

log = logging.getLogger("cortexgraph_vault.index.catalog")

Walked = tuple[str, os.stat_result | None]  # what `walk_vault` yields


@dataclass(frozen=True)
class PickledVectors:
    """Note vectors as the cache holds them (`SemanticIndex.export`), read only when something
    needs them: `stats` or `show` never loads numpy. `complete`: every note has its vector
    and none waits to be embedded again."""

    load: Callable[[], dict[str, Any]]  # read from the cache file
    copy_to: Callable[[BinaryIO], None]  # written as they are into a newer cache file
    complete: bool


def complete(exported: dict[str, Any], paths: Iterable[str]) -> bool:
    """Exported vectors hold every note's, and none waits to be embedded again."""
    return not exported["pending"] and set(exported["paths"]) >= set(paths)


@dataclass
class RefreshReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def merge(self, other: RefreshReport) -> None:
        self.added += other.added
        self.changed += other.changed
        self.removed += other.removed


class LazyParts:
    """The word index and the note vectors of a catalogue (`VaultCatalog` is one)."""

    lock: threading.RLock
    _notes: dict[str, IndexedNote]
    _embedder: Callable[[], Embedder] | None
    # made when first used; until then `_text_loader` restores the cached words, if any,
    # and `_vectors` holds the cached vectors, if any
    _text: TextIndex | None
    _text_loader: Callable[[], TextIndex] | None
    _semantic: SemanticIndex | None
    # (None: the cache held no vectors, a one-call process wrote it before making them)
    _vectors: tuple[PickledVectors | None, set[str]] | None
    # told how many notes `sync_vectors` embedded (a one-call process writes them to the cache)
    vectors_made: Callable[[int], None] | None = None
    vector_progress: Progress  # told (embedded, to embed) as `sync_vectors` embeds

    # words -------------------------------------------------------------------
    @property
    def text(self) -> TextIndex:
        """The word index, unpickled from the cache (or made empty) when first asked for:
        `stats` or `show` never loads it."""
        text = self._text
        if text is None:
            with self.lock:
                if self._text is None:
                    self._text = self._restored_text()
                text = self._text
        return text

    def _restored_text(self) -> TextIndex:
        from cortexgraph_vault.index.text_index import TextIndex

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

    # vectors -----------------------------------------------------------------
    @property
    def semantic(self) -> SemanticIndex:
        """The note vectors, unpickled from the cache (or made empty) when first asked for."""
        index = self._semantic
        if index is None:
            with self.lock:
                if self._semantic is None:
                    self._semantic = self._unpickled_vectors()
                index = self._semantic
        return index

    def _unpickled_vectors(self) -> SemanticIndex:
        from cortexgraph_vault.index.semantic import SemanticIndex

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
        from cortexgraph_vault.index.semantic import note_text

        note = self._notes.get(rel)
        return None if note is None else note_text(note.title, note.aliases, note.body_text())

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


def parallel_min() -> int:
    # the parse workers' module (and the subprocess machinery): only when there is a parse
    from cortexgraph_vault.index.parallel_parse import PARALLEL_MIN

    return PARALLEL_MIN


class NoEarlyWorkers:
    """A walk that starts no parse workers on its way (a warm start parses what changed)."""

    def walk(self, walked: Iterator[Walked]) -> Iterator[Walked]:
        return walked

    def take(self) -> None:
        return None

    def stop(self) -> None:
        return None


def workers_for_walk(*, cold: bool) -> NoEarlyWorkers | EarlyWorkers:
    if not cold:
        return NoEarlyWorkers()
    from cortexgraph_vault.index.parallel_parse import EarlyWorkers

    return EarlyWorkers()


def relation_key(note: IndexedNote | None) -> object:
    m = note.memory if note is not None else None
    if m is None:
        return None
    # the save time too: it places a memory in its episode (ops/relevance.py `episodes`)
    return m.path, m.id, m.title, m.relations, m.created


def relations_changed(old: IndexedNote | None, new: IndexedNote | None) -> bool:
    if old is None or new is None:  # a memory came or went (no need to unpickle it to know)
        either = old if old is not None else new
        return either is not None and either.kind != "note"
    return relation_key(old) != relation_key(new)


def indexed_terms_of(old: IndexedNote) -> dict[str, float]:
    from cortexgraph_vault.index.text_index import indexed_weights

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
