"""The nearest notes to a vector as a dict (path → cosine), made from `SemanticIndex`'s array
answer: what the plain ranking of tests/handlers/search/ranking_reference.py takes, and what the vector
tests compare."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from cortexgraph_vault.index.vectors.semantic import SemanticIndex


def nearest(
    index: SemanticIndex, vec: np.ndarray, k: int, min_cos: float, also: Iterable[str] = ()
) -> dict[str, float]:
    """Cosine of the k notes nearest to `vec` (those at least `min_cos`), and of each of
    `also` that has a vector; one among the nearest keeps its place."""
    wanted = list(also)
    with index.lock:
        rows = index.rows_of(wanted, object())
        top, cosines = index.nearest_arrays(vec, k, min_cos, rows)
    out = dict(top)
    out.update(
        (path, cosine)
        for path, row, cosine in zip(wanted, rows.tolist(), cosines.tolist(), strict=True)
        if row >= 0
    )
    return out
