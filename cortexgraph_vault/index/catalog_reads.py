"""What a catalogue answers about its notes (`VaultCatalog` is one): notes and memories by
path or id, problems, names and tags in use, and the word index's answers — each under the
catalogue's lock, as a snapshot, never a live view of its dictionaries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.index.catalog_parts import LazyParts
from cortexgraph_vault.index.records import IndexedNote

if TYPE_CHECKING:
    import numpy as np


class CatalogReads(LazyParts):
    _by_id: dict[str, list[str]]  # memory id → the paths holding it (several: a problem)
    _unreadable: dict[str, str]  # path → why it could not be read
    _names: Counter[str]  # file names as Obsidian compares them → how many notes
    _tags: Counter[str]

    def __len__(self) -> int:
        return len(self._notes)

    def notes(self) -> list[IndexedNote]:
        with self.lock:
            return list(self._notes.values())

    def note(self, rel: str) -> IndexedNote | None:
        return self._notes.get(rel)

    def memories(self) -> Iterator[Memory]:
        for note in self.notes():
            if note.memory is not None:
                yield note.memory

    def memory_by_id(self, memory_id: str) -> Memory | None:
        with self.lock:
            paths = self._by_id.get(memory_id)
            note = self._notes.get(paths[0]) if paths else None
            return note.memory if note else None

    def paths_with_id(self, memory_id: str) -> list[str]:
        with self.lock:
            return list(self._by_id.get(memory_id, ()))

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
            count = self._names.get(key, 0)
        if besides is not None and name_key(besides.rsplit("/", 1)[-1]) == key:
            count -= 1
        return count > 0

    def tags_in_use(self) -> set[str]:
        """Every tag some note carries, as written (kept as notes change: no walk)."""
        with self.lock:
            return set(self._tags)

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
