"""Values derived from the whole catalogue (the vault's names, who relates to whom), built once
and kept per engine until the catalogue counter they depend on moves."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.catalog.change_log import Changes
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog

T = TypeVar("T")


class CatalogMemo(Generic[T]):
    def __init__(
        self, state: Callable[[VaultCatalog], int], build: Callable[[VaultEngine], T]
    ) -> None:
        self._state = state
        self._build = build
        self._cache: weakref.WeakKeyDictionary[VaultEngine, tuple[object, int, T]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        # One build at a time: readers that miss together wait for the first one's value
        # rather than each building the same (under load, after a save, four read threads
        # built it four times over; with one interpreter, side by side is no faster).
        self._building = threading.Lock()

    def __call__(self, engine: VaultEngine) -> T:
        catalog = engine.catalog
        # Read before building: a change while building leaves an older count beside the
        # newer value, so the next call builds again rather than keeping a stale one.
        state = (catalog, self._state(catalog))
        found = self._cached(engine, state)
        if found is not None:
            return found[0]
        with self._building:
            found = self._cached(engine, state)  # built while this one waited
            if found is not None:
                return found[0]
            value = self._build(engine)
            with self._lock:
                self._cache[engine] = (*state, value)
        return value

    def _cached(self, engine: VaultEngine, state: tuple[object, int]) -> tuple[T] | None:
        with self._lock:
            cached = self._cache.get(engine)
        # As new as asked or newer (the counters only grow): a reader that asked a moment
        # later would have had it.
        if cached is None or cached[0] is not state[0] or cached[1] < state[1]:
            return None
        return (cached[2],)


class ChangedMemo(Generic[T]):
    """A `CatalogMemo` brought up to date, when its counter moves, from the paths the
    catalogue's log says changed since the value's generation (`update`), and built again
    (`build`) only when the log no longer reaches back that far or `update` cannot place a
    change (None): the read after a save does not rebuild who relates to whom and the
    episodes.

    `build` gives the catalogue generation its value is of, exactly (read under the
    catalogue's lock with the notes it is made from): the changes after it are applied once."""

    def __init__(
        self,
        state: Callable[[VaultCatalog], int],
        build: Callable[[VaultEngine], tuple[int, T]],
        update: Callable[[T, Changes], T | None],
    ) -> None:
        self._state = state
        self._build = build
        self._update = update
        self._cache: weakref.WeakKeyDictionary[VaultEngine, tuple[object, int, int, T]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        self._building = threading.Lock()  # one build at a time, as CatalogMemo

    def __call__(self, engine: VaultEngine) -> T:
        catalog = engine.catalog
        state = self._state(catalog)  # read before building, as CatalogMemo does
        with self._lock:
            cached = self._cache.get(engine)
        if cached is not None and cached[0] is catalog and cached[1] >= state:
            return cached[3]
        with self._building:
            with self._lock:
                cached = self._cache.get(engine)
            if cached is not None and cached[0] is not catalog:
                cached = None
            if cached is not None and cached[1] >= state:
                return cached[3]
            value: T | None = None
            if cached is not None:
                changes = catalog.changes_since(cached[2])
                if changes is not None:
                    value = self._update(cached[3], changes)
                    generation = changes.generation
            if value is None:
                generation, value = self._build(engine)
            with self._lock:
                self._cache[engine] = (catalog, state, generation, value)
        return value
