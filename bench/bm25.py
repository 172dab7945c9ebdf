"""A plain BM25 over short texts: the baseline the recall benchmark holds the product against.

Deliberately plain (what "60 lines of Python" would be): lower-cased word tokens, no stemming,
k1 1.2, b 0.75, the idf that stays positive (log(1 + (N - df + 0.5)/(df + 0.5))); stop words
dropped only when asked.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"\w+")
# The product's query stop words as they were when this baseline was written
# (cortexgraph_vault/core/relevance.py), copied so that the baseline never moves with them.
_STOP = (
    "a an and are as at be but by do does did for from had has have how i in is it its me my of "
    "on or our so than that the their them then there these they this to was we were what when "
    "where which who why will with you your about say said"
)
STOP_WORDS = frozenset(_STOP.split())


def tokens(text: str, stop: frozenset[str] = frozenset()) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in stop]


class BM25:
    def __init__(
        self,
        texts: Sequence[str],
        *,
        k1: float = 1.2,
        b: float = 0.75,
        stop: frozenset[str] = frozenset(),
    ) -> None:
        self.k1, self.b, self.stop = k1, b, stop
        self.docs = [Counter(tokens(t, stop)) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = sum(self.lengths) / max(1, len(self.docs))
        df: Counter[str] = Counter()
        for doc in self.docs:
            df.update(doc.keys())
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
        # Postings: a query scores only the documents holding one of its words.
        self.postings: dict[str, list[int]] = {}
        for i, doc in enumerate(self.docs):
            for word in doc:
                self.postings.setdefault(word, []).append(i)

    def scores(self, query: str) -> dict[int, float]:
        out: dict[int, float] = {}
        for word in set(tokens(query, self.stop)):
            idf = self.idf.get(word)
            if idf is None:
                continue
            for i in self.postings[word]:
                tf = self.docs[i][word]
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.average)
                out[i] = out.get(i, 0.0) + idf * tf * (self.k1 + 1) / (tf + norm)
        return out

    def top(self, query: str, k: int) -> list[int]:
        """Indexes of the k best documents, best first (ties by position, so runs repeat)."""
        scored = self.scores(query)
        return sorted(scored, key=lambda i: (-scored[i], i))[:k]
