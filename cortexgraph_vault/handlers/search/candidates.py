"""The matches of a search with their scores, held as arrays until a page needs them.

A broad query at 100k notes has 40–60k matches; a page shows ten. The pool answers what
paging and blending ask — how many, the first n in rank order, the review candidates —
making a Python tuple only for the few it hands out. The first n are found with a partition
on the score: every match scoring at least the n-th best (ties included) is then ordered by
the full key, so the result is exactly that of sorting every match.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

# A match while ranking: (score, path, relevance, memory score or None, review priority)
Candidate = tuple[float, str, float, float | None, float]


def order_key(c: Candidate) -> tuple[float, float, str]:
    return (-c[0], -(c[3] or 0.0), c[1])


def review_key(c: Candidate) -> tuple[float, float, str]:
    return (-c[4], -c[0], c[1])


@dataclass(frozen=True, eq=False)
class CandidatePool:
    paths: Sequence[str]  # of the whole search; `at` says which are in the pool
    at: np.ndarray  # int64 indexes into paths, in match order
    score: np.ndarray
    relevance: np.ndarray
    memory_score: np.ndarray  # nan for a note that is not a memory
    priority: np.ndarray

    def __len__(self) -> int:
        return len(self.at)

    def where(self, keep: np.ndarray) -> CandidatePool:
        return CandidatePool(
            self.paths,
            self.at[keep],
            self.score[keep],
            self.relevance[keep],
            self.memory_score[keep],
            self.priority[keep],
        )

    def without(self, path: str) -> CandidatePool:
        paths = self.paths
        return self.where(np.array([paths[i] != path for i in self.at.tolist()], dtype=bool))

    def memory_scores_or_zero(self) -> np.ndarray:
        return np.where(np.isnan(self.memory_score), 0.0, self.memory_score)

    def tuples(self, picked: np.ndarray | None = None) -> list[Candidate]:
        """The candidates at `picked` (all when None) as tuples, in pool order."""
        sel = slice(None) if picked is None else picked
        paths = self.paths
        memory = self.memory_score[sel]
        scores = [None if s != s else s for s in memory.tolist()]  # nan: not a memory
        return list(
            zip(
                self.score[sel].tolist(),
                [paths[i] for i in self.at[sel].tolist()],
                self.relevance[sel].tolist(),
                scores,
                self.priority[sel].tolist(),
                strict=True,
            )
        )

    def __iter__(self) -> Iterator[Candidate]:
        return iter(self.tuples())

    def first(self, n: int) -> list[Candidate]:
        """The first n in rank order (score, then memory score, then path)."""
        if n <= 0:
            return []
        if n >= len(self):
            return sorted(self.tuples(), key=order_key)
        neg = -self.score
        bar = np.partition(neg, n - 1)[n - 1]
        picked = np.nonzero(neg <= bar)[0]  # the n best and every tie of the n-th
        return sorted(self.tuples(picked), key=order_key)[:n]

    def review(self) -> list[Candidate]:
        """The review candidates (priority > 0), most urgent first."""
        return sorted(self.tuples(np.nonzero(self.priority > 0)[0]), key=review_key)
