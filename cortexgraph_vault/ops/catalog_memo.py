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

    def __call__(self, engine: VaultEngine) -> T:
        catalog = engine.catalog
        # Read before building: a change while building leaves an older count beside the
        # newer value, so the next call builds again rather than keeping a stale one.
        state = (catalog, self._state(catalog))
        with self._lock:
            cached = self._cache.get(engine)
            if cached is not None and cached[:2] == state:
                return cached[2]
        value = self._build(engine)
        with self._lock:
            self._cache[engine] = (*state, value)
        return value
