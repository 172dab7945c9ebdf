"""Values derived from the whole catalogue (the note table, the vault's names, who relates to
whom, the episodes), built once and kept per engine until the catalogue counter they depend on
moves; and values derived from one note, kept while the note is the same."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.catalog.change_log import Changes
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes.records import IndexedNote

T = TypeVar("T")


class CatalogMemo(Generic[T]):
    """A value kept until `state` (a catalogue counter) moves. With `update`, it is then
    brought up to date from the paths the catalogue's log says changed since the value's
    generation, and built again only when the log no longer reaches back that far or `update`
    cannot place a change (None): the read after a save does not rebuild it.

    `build` gives the value and the catalogue generation it is of, exactly (read under the
    catalogue's lock with the notes it is made from): the changes after it are applied once."""

    def __init__(
        self,
        state: Callable[[VaultCatalog], int],
        build: Callable[[VaultEngine], tuple[int, T]],
        update: Callable[[T, Changes], T | None] | None = None,
    ) -> None:
        self._state = state
        self._build = build
        self._update = update
        self._cache: weakref.WeakKeyDictionary[VaultEngine, tuple[object, int, int, T]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        # One build at a time: readers that miss together wait for the first one's value
        # rather than each building the same (under load, after a save, four read threads
        # built it four times over; with one interpreter, side by side is no faster).
        self._building = threading.Lock()

    def __call__(self, engine: VaultEngine) -> T:
        return self.at(engine)[1]

    def at(self, engine: VaultEngine) -> tuple[int, T]:
        """The value with the catalogue generation it is of."""
        catalog = engine.catalog
        # Read before building: a change while building leaves an older count beside the
        # newer value, so the next call builds again rather than keeping a stale one.
        state = self._state(catalog)
        found = self._cached(engine, catalog, state)
        if found is not None:
            return found[2], found[3]
        with self._building:
            cached = self._cached(engine, catalog, -1)
            if cached is not None and cached[1] >= state:  # built while this one waited
                return cached[2], cached[3]
            value: T | None = None
            if cached is not None and self._update is not None:
                changes = catalog.changes_since(cached[2])
                if changes is not None:
                    value = self._update(cached[3], changes)
                    generation = changes.generation
            if value is None:
                generation, value = self._build(engine)
            with self._lock:
                self._cache[engine] = (catalog, state, generation, value)
        return generation, value

    def _cached(
        self, engine: VaultEngine, catalog: VaultCatalog, state: int
    ) -> tuple[object, int, int, T] | None:
        """The value kept for this catalogue if its counter was at least `state` (the counters
        only grow: a reader that asked a moment later would have had it)."""
        with self._lock:
            cached = self._cache.get(engine)
        if cached is None or cached[0] is not catalog or cached[1] < state:
            return None
        return cached


class NoteMemo(Generic[T]):
    """`make(note)` kept for as long as the note object is the same (a note is immutable: a
    change makes a new one): a search shows the same notes call after call. Bounded: emptied
    when it holds `kept` notes."""

    def __init__(self, make: Callable[[IndexedNote], T], kept: int = 4096) -> None:
        self._make = make
        self.kept = kept
        # id of a note → (the note, held so its id stays its own while kept; its value)
        self.held: dict[int, tuple[IndexedNote, T]] = {}

    def __call__(self, note: IndexedNote) -> T:
        found = self.held.get(id(note))
        if found is not None and found[0] is note:
            return found[1]
        made = self._make(note)
        if len(self.held) >= self.kept:
            self.held.clear()
        self.held[id(note)] = (note, made)
        return made
