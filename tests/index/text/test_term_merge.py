"""Merging the terms' scores over arrays gives the plain dict merge's documents, in its
order, with its sums bit for bit (float addition is not associative, so the order of the
sum is part of the result)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cortexgraph_vault.index.text.term_merge import Expansion, merge_terms


def _plain(terms: list[list[Expansion]]) -> dict[int, float]:
    """The merge as text_index.py did it, one document at a time."""
    per_term: list[dict[int, float]] = []
    for expansions in terms:
        docs, values = expansions[0]
        best = dict(zip(docs.tolist(), values.tolist(), strict=True))
        for more, more_values in expansions[1:]:
            for doc, s in zip(more.tolist(), more_values.tolist(), strict=True):
                if s > best.get(doc, 0.0):
                    best[doc] = s
        per_term.append(best)
    per_term.sort(key=len)
    total = per_term.pop()
    for scores in per_term:
        for doc, s in scores.items():
            total[doc] = total.get(doc, 0.0) + s
    return total


@pytest.mark.parametrize("seed", range(8))
def test_merged_scores_equal_the_plain_merge(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([50, 400, 3000])
    terms: list[list[Expansion]] = []
    for _ in range(rng.randint(1, 5)):
        expansions = []
        for _ in range(rng.randint(1, 4)):
            docs = sorted(rng.sample(range(size), rng.randint(1, size // 2)))
            # coarse values make equal scores (ties) and equal term sizes common
            values = [rng.choice([0.3, 0.7, 1.1, rng.random() * 3]) for _ in docs]
            expansions.append((np.array(docs, dtype=np.int64), np.array(values)))
        terms.append(expansions)
        if rng.random() < 0.5:  # a term matching as many documents: the stable sort decides
            terms.append([(d, v[::-1] * 1.7) for d, v in expansions])
    docs, totals = merge_terms(terms, size)
    want = _plain(terms)
    assert docs.tolist() == list(want)
    assert totals.tolist() == list(want.values())
