"""Values derived from the whole catalogue (the vault's names, who relates to whom), built once
and kept per engine until the catalogue counter they depend on moves."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.catalog import VaultCatalog

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
