"""The word index's vocabulary: every term some note holds, sorted and by length, and the
terms a query term stands for — itself, the terms it is a prefix of, or (when it is unknown)
the known terms it is a typo of.

Typos are matched against the vocabulary, never per document: rapidfuzz compares an unknown
query term with the known terms of similar length. The new terms of a document join the
sorted vocabulary in one merge, not one insertion each.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, insort

from cortexgraph_vault.core.relevance import QUERY_STOP_WORDS
from cortexgraph_vault.index.text.document_terms import stems
from cortexgraph_vault.index.text.posting_lists import Postings

PREFIX_WEIGHT = 0.8
FUZZY_WEIGHT = 0.6
FUZZY_CUTOFF = 84.0
MIN_EXPAND_LEN = 4
MAX_EXPANSIONS = 8
SMALL_VOCAB_CHANGE = 64  # up to this many terms come and go one at a time; more, in one pass


@functools.cache
def filler_stems() -> frozenset[str]:
    """The stems of the words a query drops as filler ("any" is "ani"): a prefix or a typo of
    a word that names something never stands for one of them."""
    return frozenset(stems(sorted(QUERY_STOP_WORDS)))


class Vocabulary:
    """The terms of a word index (`TextIndex` is one), kept as its postings change."""

    _postings: dict[str, Postings]  # only terms some document holds
    _vocab: list[str]  # sorted
    # ordered sets, for typo matching; None: made from the vocabulary when first needed (a
    # typo, a change), a restored index's terms in its order (a search rarely needs them)
    _by_length: dict[int, dict[str, None]] | None

    def _vocab_from_postings(self) -> None:
        self._vocab = sorted(self._postings)
        self._by_length = None

    def _lengths(self) -> dict[int, dict[str, None]]:
        by_length = self._by_length
        if by_length is None:
            by_length = self._by_length = {}
            for term in self._vocab:
                by_length.setdefault(len(term), {})[term] = None
        return by_length

    def _add_terms(self, new: list[str]) -> None:
        """New terms join the sorted vocabulary: a few by bisection, many in one merge."""
        if not new:
            return
        by_length = self._lengths()  # before the vocabulary changes
        if len(new) <= SMALL_VOCAB_CHANGE:
            for term in new:
                insort(self._vocab, term)
        else:
            # two sorted runs: the sort merges them in C (heapq.merge steps in Python)
            self._vocab = sorted(self._vocab + new)
        for term in new:
            by_length.setdefault(len(term), {})[term] = None

    def _drop_terms(self, gone: list[str]) -> None:
        """Terms no document holds any more leave the vocabulary."""
        if not gone:
            return
        by_length = self._lengths()  # before the vocabulary changes
        vocab = self._vocab
        if len(gone) <= SMALL_VOCAB_CHANGE:
            for term in gone:
                i = bisect_left(vocab, term)
                if i < len(vocab) and vocab[i] == term:
                    del vocab[i]
        else:
            postings = self._postings
            self._vocab = [t for t in vocab if t in postings]
        for term in gone:
            bucket = by_length.get(len(term))
            if bucket is not None:
                bucket.pop(term, None)
                if not bucket:
                    del by_length[len(term)]

    def expand(self, term: str) -> list[tuple[str, float]]:
        """The vocabulary terms a query term stands for, each with its weight: itself when
        some note holds it, else the terms it is the start of ("kube" → "kubernetes") or,
        failing those, a typo of."""
        postings = self._postings
        out: list[tuple[str, float]] = []
        exact = postings.get(term)
        if exact is not None and exact.df:
            # A word the vault holds means itself: its longer relatives ("note" →
            # "notebook", "onenote"'s stem aside) are other words, often rarer, and would
            # outscore the notes that say it. Prefixes and typos serve words it lacks.
            return [(term, 1.0)]
        if len(term) < MIN_EXPAND_LEN:
            return out
        # prefix: "deploy" finds "deployment"
        prefixed: list[str] = []
        vocab = self._vocab
        i = bisect_left(vocab, term)
        filler = filler_stems()
        while i < len(vocab) and vocab[i].startswith(term):
            if vocab[i] != term and postings[vocab[i]].df and vocab[i] not in filler:
                prefixed.append(vocab[i])
            i += 1
        prefixed.sort(key=lambda t: -postings[t].df)
        out.extend((t, PREFIX_WEIGHT) for t in prefixed[:MAX_EXPANSIONS])
        if out:
            return out
        # a typo: "postgers" finds "postgres" (only when the term itself is unknown; rapidfuzz
        # loaded then, not by every search command)
        from rapidfuzz import fuzz, process

        lengths = self._lengths()
        near = [t for size in range(len(term) - 2, len(term) + 3) for t in lengths.get(size, {})]
        found = process.extract(
            term, near, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=MAX_EXPANSIONS * 4
        )
        return [
            (cand, FUZZY_WEIGHT) for cand, _, _ in found if cand in postings and cand not in filler
        ][:MAX_EXPANSIONS]
