"""The word-match scores of one query, merged over numpy arrays (index/text/text_index.py).

Each query term keeps, per document, the best of its expansions' scores (the term itself,
prefixes, typos, synonyms); the terms' bests are then summed. The sum is made in the order
the plain dict merge made it — the term matching most documents first, then the others
from the fewest up — and the documents come out in the order that merge met them, so every
value and every order downstream is bit for bit what it was (float addition is not
associative).
"""

from __future__ import annotations

import numpy as np

# One expansion of a query term: its documents (each once) and their scores, in list order.
Expansion = tuple[np.ndarray, np.ndarray]


def no_docs() -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(0, dtype=np.int64), np.zeros(0)


def merge_terms(terms: list[list[Expansion]], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Documents matching any term, in the order the plain merge meets them, and each one's
    summed score. `size`: one more than the largest document number."""
    scratch = np.zeros(size)
    mark = np.zeros(size, dtype=bool)
    merged: list[tuple[list[np.ndarray], np.ndarray, np.ndarray]] = []  # (lists, docs, bests)
    for expansions in terms:
        docs, values = expansions[0]
        scratch[docs] = values  # the first expansion's scores as they are
        mark[docs] = True
        for more, more_values in expansions[1:]:
            # a later expansion replaces a score only when higher
            scratch[more] = np.maximum(scratch[more], more_values)
            mark[more] = True
        unique = np.flatnonzero(mark)
        merged.append(([d for d, _ in expansions], unique, scratch[unique]))
        scratch[unique] = 0.0
        mark[unique] = False
    # the plain merge sorts terms by how many documents they match (a stable sort), starts
    # from the last (the largest) and adds the others in order
    order = sorted(range(len(merged)), key=lambda i: len(merged[i][1]))
    order = [order[-1], *order[:-1]]
    total = np.zeros(size)
    met: list[np.ndarray] = []  # documents in the order first met
    for i in order:
        lists, unique, bests = merged[i]
        total[unique] = total[unique] + bests
        for d in lists:
            new = d[~mark[d]]
            mark[new] = True
            met.append(new)
    docs = np.concatenate(met) if met else np.zeros(0, dtype=np.int64)
    return docs, total[docs]
