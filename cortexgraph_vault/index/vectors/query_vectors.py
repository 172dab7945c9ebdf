"""The vectors of the last few queries, remembered by their text.

A query's vector is a pure function of its text and the model: a page asked again, its
continuation (a cursor) or the same search from another door need not embed it again. Each
vector is made read-only, so the one array can serve every caller. The process keeps one
such memory (`QUERIES`) for every index of note vectors: an index made anew (a daemon's read
process taking the vectors file again) still knows the queries asked before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from cortexgraph_vault.index.vectors.embedder import VectorModel

QUERIES_KEPT = 256  # ~1 KB each at 256 dimensions


class QueryVectors:
    def __init__(self, kept: int = QUERIES_KEPT) -> None:
        self.kept = kept
        # by the model's id and the text; the model itself is checked (an id is reused)
        self._held: OrderedDict[tuple[int, str], tuple[VectorModel, np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def clear(self) -> None:
        with self._lock:
            self._held.clear()

    def of(self, model: VectorModel, text: str) -> np.ndarray:
        """`model.embed_one(text)`, read-only."""
        key = (id(model), text)
        with self._lock:
            found = self._held.get(key)
            if found is not None and found[0] is model:
                self._held.move_to_end(key)
                return found[1]
        vec = model.embed_one(text)  # outside the lock: the slow part
        vec.flags.writeable = False
        with self._lock:
            self._held[key] = (model, vec)
            self._held.move_to_end(key)
            while len(self._held) > self.kept:
                self._held.popitem(last=False)
        return vec


QUERIES = QueryVectors()
