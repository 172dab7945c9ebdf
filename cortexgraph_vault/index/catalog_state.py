"""A catalogue's whole state taken over or handed out at once (`VaultCatalog` is one): from
the persistent cache at start, from a full re-index built beside it, and to the cache writer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.index.catalog_parts import PickledVectors
from cortexgraph_vault.index.catalog_reads import CatalogReads
from cortexgraph_vault.index.change_log import ChangeLog
from cortexgraph_vault.index.graph import LinkGraph
from cortexgraph_vault.index.records import IndexedNote

if TYPE_CHECKING:  # numpy: made when vectors or words are first needed (a search, a change)
    from cortexgraph_vault.index.semantic import SemanticIndex
    from cortexgraph_vault.index.text_index import TextIndex


class CatalogState(CatalogReads):
    graph: LinkGraph
    parsed: int
    generation: int
    note_generation: int
    relation_generation: int
    change_log: ChangeLog
    on_change: Callable[[str, str], None] | None

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
            self._names = Counter(name_key(path.rsplit("/", 1)[-1]) for path in notes)
            self._tags = Counter(tag for note in notes.values() for tag in note.tags)
            self.generation += 1
            self.note_generation += 1
            self.relation_generation += 1
            self.change_log.reset(self.generation)

    def replace_with(self, other: CatalogState) -> None:
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
    ) -> tuple[dict[str, IndexedNote], dict[str, object], PickledVectors | dict[str, Any] | None]:
        """Notes, words and vectors to save: the vectors as loaded if still untouched, else
        exported (pickled by the writer, outside the lock)."""
        with self.lock:
            notes = dict(self._notes)
            if self._semantic is None and self._vectors is not None:
                vectors: PickledVectors | dict[str, Any] | None = self._vectors[0]
            else:
                vectors = self.semantic.export()
            return notes, self.text.export(), vectors
