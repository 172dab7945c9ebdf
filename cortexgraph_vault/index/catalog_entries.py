"""A catalogue's notes as held: by path, by memory id, its names and tags counted, and the
counters that say what changed (`VaultCatalog` is one). Every note comes in through `_put` and
goes through `drop`, under the catalogue's lock; the word index, the vectors and the link graph
follow each, and so does `on_change` (a daemon's read processes, told which notes to read again)."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.index.catalog_parts import indexed_terms_of, relations_changed
from cortexgraph_vault.index.catalog_state import CatalogState
from cortexgraph_vault.index.change_log import ADDED, RELATIONS, REMOVED, ChangeLog, Changes
from cortexgraph_vault.index.records import IndexedNote, stats_of

if TYPE_CHECKING:
    from cortexgraph_vault.index.text_index import TermStats


class CatalogEntries(CatalogState):
    removed: int
    _unreadable: dict[str, str]
    _names: Counter[str]
    _tags: Counter[str]
    change_log: ChangeLog  # the path of each recent change (`changes_since`)
    # told of each note ("note", path), other file ("file", path) or folder walked again
    # ("walk", folder) whose state changed, under the catalogue's lock: it must not block
    on_change: Callable[[str, str], None] | None
    # set on a thread bringing the catalogue up to what it found on disk (the watcher), where
    # no call waits for the change to answer: a read process may take it in behind its reads
    _noticing: threading.local

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

    def _named(self, path: str, delta: int) -> None:
        name = name_key(path.rsplit("/", 1)[-1])
        self._names[name] += delta
        if self._names[name] <= 0:
            del self._names[name]

    def _tagged(self, note: IndexedNote | None, delta: int) -> None:
        if note is None:
            return
        for tag in note.tags:
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
