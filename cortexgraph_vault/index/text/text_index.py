"""An inverted index over every note: BM25F relevance, prefix and typo-tolerant term matching.

Each note is a document of field-weighted terms (index/text/document_terms.py) kept in compact
posting lists (index/text/posting_lists.py). A query works out the saturated, length-normalised
frequencies of the lists it reads from those and each document's length norm, in numpy: the
same float32 values a stored copy would hold.

Length normalisation uses a fixed pivot instead of the running average length: the index then
depends only on the notes it holds, never on the order they arrived in, so an index kept live
by the watcher equals a fresh one built from the same files.

Removing a document leaves tombstones in long posting lists (short ones are cleaned at once);
a list is compacted when half of it is dead, so memory stays within twice the live postings
and a removal never scans the whole index. Document numbers are never reused. A term no
document holds any more is dropped at once: the vocabulary is what the notes say now.

A document adds at most MAX_TERMS_PER_NOTE distinct terms (its most weighty ones), and the
new terms of a document join the sorted vocabulary in one merge, not one insertion each: a
note of 200k made-up words costs about what a note of 20k does, once.

Words are indexed by their Snowball (English) stem, so "allergy" finds "allergies" and
"hiking" finds "hiked"; prefixes and typos are matched on stems too, against the vocabulary,
never per document (rapidfuzz compares an unknown query term with the known terms of similar
length).
"""

from __future__ import annotations

import functools
import math
import sys
from array import array
from bisect import bisect_left, insort
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from cortexgraph_vault.core.relevance import QUERY_STOP_WORDS
from cortexgraph_vault.index.text.document_terms import (
    FIELD_WEIGHTS,
    FIELDS,
    K1,
    KEEP_TERMS_FROM,
    PIVOT_LENGTH,
    B,
    DocumentText,
    TermStats,
    echoes_content,
    indexed_weights,
    stems,
    term_stats,
    text_tokens,
    words,
)
from cortexgraph_vault.index.text.posting_lists import (
    _LIMIT,
    _WIDTH,
    PostingBlock,
    Postings,
    _tf_type,
)
from cortexgraph_vault.index.text.term_merge import merge_terms, no_docs

# what the handlers and their tests import from here (the word index's terms live apart)
__all__ = [
    "FIELDS",
    "FIELD_WEIGHTS",
    "DocumentText",
    "TextIndex",
    "echoes_content",
    "stems",
    "term_stats",
    "text_tokens",
    "words",
]

SHORT_POSTINGS = 64
COMMON_MIN_NOTES = 100
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


class TextIndex:
    """Not thread-safe by itself: the catalogue serialises changes and searches."""

    def __init__(self) -> None:
        self._postings: dict[str, Postings] = {}  # only terms some document holds
        self._vocab: list[str] = []  # sorted
        # ordered sets, for typo matching; None: made from the vocabulary when first needed (a
        # typo, a change), a restored index's terms in its order (a search rarely needs them)
        self._by_length: dict[int, dict[str, None]] | None = {}
        self._doc_of: dict[str, int] = {}
        self._paths: list[str | None] = []
        self._norms = array("d")  # each document's length norm, by document number
        self._terms_of: dict[int, list[str]] = {}  # of documents with many terms
        self._era = 0  # bumped by each export: arrays exported before are not changed in place

    def __len__(self) -> int:
        return len(self._doc_of)

    def __contains__(self, path: object) -> bool:
        return path in self._doc_of

    @property
    def vocabulary_size(self) -> int:
        return len(self._postings)

    def paths(self) -> set[str]:
        return set(self._doc_of)

    def postings_of(self, term: str) -> dict[str, float]:
        """The live documents holding `term` → the term's weight in each (tests, diagnostics)."""
        p = self._postings.get(term)
        if p is None:
            return {}
        paths = self._paths
        return {
            path: part
            for d, part in zip(p.docs, self._parts(p).tolist(), strict=True)
            if (path := paths[d]) is not None
        }

    def _parts(self, p: Postings) -> np.ndarray:
        """The list's saturated, length-normalised term frequencies (BM25's tf part:
        tf · (K1 + 1) / (tf + norm)) as float32, in order."""
        docs = np.frombuffer(p.docs, dtype=np.uint32)
        tfs = np.asarray(p.tfs, dtype=np.float64)
        norms = np.frombuffer(self._norms, dtype=np.float64)[docs]
        parts: np.ndarray = (tfs * (K1 + 1) / (tfs + norms)).astype(np.float32)
        return parts

    def terms_held(self, path: str, terms: Iterable[str]) -> dict[str, float] | None:
        """Which of `terms` the document of `path` holds, with each one's field-weighted
        frequency there (index/text/document_terms.py `term_stats`); None when its lists cannot
        say it all: a path not indexed, or a document of many terms (they may hold only its
        weightiest). A list's documents are in ascending order (a document's number is new
        at each change), so each is one bisection."""
        doc = self._doc_of.get(path)
        if doc is None or doc in self._terms_of:
            return None
        held: dict[str, float] = {}
        postings = self._postings
        for term in terms:
            p = postings.get(term)
            if p is not None:
                docs = p.docs
                i = bisect_left(docs, doc)
                if i < len(docs) and docs[i] == doc:
                    held[term] = p.tfs[i]
        return held

    def document_frequency(self, term: str) -> int:
        """How many live documents hold `term` exactly (no prefix or typo matching)."""
        p = self._postings.get(term)
        return p.df if p is not None else 0

    def put(
        self, path: str, stats: TermStats, old_terms: Callable[[], Iterable[str]] | None = None
    ) -> None:
        """Add (or replace) a document. Its terms are not kept, to save memory: replacing or
        removing one needs `old_terms`, the terms it was added with (from its old note)."""
        if path in self._doc_of:
            self.remove(path, old_terms)
        doc = len(self._paths)
        self._doc_of[path] = doc
        self._paths.append(path)
        self._norms.append(stats.norm)
        weights = indexed_weights(stats)
        postings = self._postings
        era = self._era
        new_terms: list[str] = []
        for term, tf in weights.items():
            p = postings.get(term)
            if p is None:
                p = postings[term] = Postings(array("I"), array("B"), owned=era)
                new_terms.append(term)
            elif p.owned != era:
                self._own(p)
            p.docs.append(doc)
            code = p.tfs.typecode
            if code != "d" and not (tf == int(tf) and 0 <= tf <= _LIMIT[code]):
                p.tfs = array(_tf_type([tf], code), p.tfs)
            p.tfs.append(tf if p.tfs.typecode == "d" else int(tf))
            p.df += 1
        self._add_terms(new_terms)
        if len(weights) >= KEEP_TERMS_FROM:
            self._terms_of[doc] = list(weights)

    def put_block(self, block: PostingBlock, keep: Container[str] | None = None) -> None:
        """Add the documents of a block (those in `keep`, when given); none may be in the
        index already (the caller removes a replaced one first)."""
        if keep is not None and any(path not in keep for path in block.paths):
            block = block.only(keep)
        if any(path in self._doc_of for path in block.paths):
            raise ValueError("a document of the block is already indexed; remove it first")
        base = len(self._paths)
        self._paths.extend(block.paths)
        self._norms.extend(block.norms)
        self._doc_of.update(zip(block.paths, range(base, base + len(block.paths)), strict=True))
        # renumbered all at once ("I" is a C unsigned int), then copied a term's run at a time
        numbers = memoryview((np.frombuffer(block.docs, dtype=np.uintc) + np.uintc(base)).tobytes())
        width = block.docs.itemsize
        postings = self._postings
        era = self._era
        new_terms: list[str] = []
        start = 0
        for term, end in zip(block.terms, block.ends, strict=True):
            tfs = block.tfs[start:end]
            p = postings.get(term)
            if p is None:
                p = postings[term] = Postings(array("I"), array(tfs.typecode), owned=era)
                new_terms.append(term)
            elif p.owned != era:
                self._own(p)
            p.docs.frombytes(numbers[start * width : end * width])
            added = end - start
            start = end
            if tfs.typecode != p.tfs.typecode:
                code = tfs.typecode if _WIDTH[tfs.typecode] > _WIDTH[p.tfs.typecode] else None
                if code is not None:  # the list needs the wider type from now on
                    p.tfs = array(code, p.tfs)
                else:
                    tfs = array(p.tfs.typecode, tfs)
            p.tfs.extend(tfs)
            p.df += added
        self._add_terms(new_terms)

    def remove(self, path: str, old_terms: Callable[[], Iterable[str]] | None = None) -> None:
        doc = self._doc_of.get(path)
        if doc is None:
            return
        terms: Iterable[str] | None = self._terms_of.pop(doc, None)
        if terms is None:
            if old_terms is None:
                raise ValueError(f"{path}: its terms are needed to take it out of the index")
            terms = old_terms()
        del self._doc_of[path]
        self._paths[doc] = None
        postings = self._postings
        gone: list[str] = []
        for term in terms:
            p = postings.get(term)
            if p is None:
                continue
            p.df -= 1
            if p.df <= 0:
                del postings[term]
                gone.append(term)
            elif len(p.docs) <= SHORT_POSTINGS:
                if p.owned != self._era:
                    self._own(p)
                i = p.docs.index(doc)
                del p.docs[i]
                del p.tfs[i]
            else:
                p.dead += 1
                if p.dead * 2 > len(p.docs):
                    self._compact(p)
        self._drop_terms(gone)

    def _compact(self, p: Postings) -> None:
        paths = self._paths
        keep = [i for i, d in enumerate(p.docs) if paths[d] is not None]
        p.docs = array("I", [p.docs[i] for i in keep])
        p.tfs = array(p.tfs.typecode, [p.tfs[i] for i in keep])
        p.dead = 0
        p.owned = self._era

    def _own(self, p: Postings) -> None:
        p.docs = p.docs[:]
        p.tfs = p.tfs[:]
        p.owned = self._era

    # the vocabulary: every term some document holds, sorted and by length
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

    def search_expanded(
        self, terms: Sequence[str], related: Mapping[str, Sequence[tuple[str, float]]] | None = None
    ) -> tuple[dict[str, float], dict[str, list[str]]]:
        """`search_docs` by path: path → similarity, in the same order."""
        (docs, sims), used = self.search_docs(terms, related)
        paths = self._paths
        return dict(zip([paths[d] for d in docs.tolist()], sims.tolist(), strict=True)), used

    def search_sized(
        self, terms: Sequence[str], related: Mapping[str, Sequence[tuple[str, float]]] | None = None
    ) -> tuple[dict[str, float], dict[str, list[str]], np.ndarray]:
        """`search_expanded`, and each match's indexed length (`lengths`), in its order."""
        (docs, sims), used = self.search_docs(terms, related)
        paths = self._paths
        found = dict(zip([paths[d] for d in docs.tolist()], sims.tolist(), strict=True))
        return found, used, self._doc_lengths(docs)

    def lengths(self, paths: Sequence[str]) -> np.ndarray:
        """Each note's indexed length: its field-weighted words (0 for a path not indexed)."""
        doc_of = self._doc_of
        docs = np.fromiter((doc_of.get(p, -1) for p in paths), np.int64, len(paths))
        out = np.zeros(len(paths))
        known = docs >= 0
        out[known] = self._doc_lengths(docs[known])
        return out

    def _doc_lengths(self, docs: np.ndarray) -> np.ndarray:
        # the length norm is K1 · (1 − B + B · length / PIVOT_LENGTH) (document_terms.py)
        norms = np.frombuffer(self._norms, dtype=np.float64)[docs]
        out: np.ndarray = np.maximum(0.0, (norms / K1 - (1 - B)) * (PIVOT_LENGTH / B))
        return out

    def search_docs(
        self, terms: Sequence[str], related: Mapping[str, Sequence[tuple[str, float]]] | None = None
    ) -> tuple[tuple[np.ndarray, np.ndarray], dict[str, list[str]]]:
        """Every live document matching at least one term (document numbers, in the order
        they were met) and its BM25F similarity in [0, 1], and the vocabulary terms each
        query term was matched by.

        Similarity is the BM25 sum divided by the best any document could score for these
        terms, so it compares across queries; a query term that matches nothing still counts
        in that ceiling, so a document matching half the query scores at most about half.

        `related`: for a query term, vocabulary terms of similar meaning with their weights
        (from word vectors). They match like the term itself, weighted; the best any
        document could score stays that of the term's own matches, or of a full-weight
        match of the related term when the term itself matches nothing.

        In a vault of 100 notes or more, a term in more than half of them says almost nothing
        (its weight is near zero) but would make every note a match; beside a more selective
        term it is left out, as full-text engines do with such words.
        """
        n = len(self._doc_of)
        used: dict[str, list[str]] = {}
        if not terms or not n:
            return no_docs(), used
        k1p1 = K1 + 1
        wanted: list[tuple[list[tuple[Postings, float]], bool]] = []
        ceiling = 0.0
        for term in dict.fromkeys(terms):
            expansions = self.expand(term)
            own = len(expansions)
            seen = {c for c, _ in expansions}
            for cand, f in (related or {}).get(term, ()):
                p = self._postings.get(cand)
                if cand not in seen and p is not None and p.df:
                    expansions.append((cand, f))
                    seen.add(cand)
            used[term] = [c for c, _ in expansions]
            if not expansions:
                ceiling += self._idf(0, n) * k1p1
                continue
            weighted = [
                (self._postings[c], self._idf(self._postings[c].df, n) * f) for c, f in expansions
            ]
            if own:
                ceiling += max(w for _, w in weighted[:own]) * k1p1
            else:
                ceiling += max(self._idf(p.df, n) for p, _ in weighted) * k1p1
            common = n >= COMMON_MIN_NOTES and min(p.df for p, _ in weighted) * 2 > n
            wanted.append((weighted, common))
        if any(not common for _, common in wanted):
            wanted = [(weighted, common) for weighted, common in wanted if not common]
        if not wanted or ceiling <= 0:
            return no_docs(), used
        size = len(self._paths)
        merged = [
            [
                (
                    np.frombuffer(p.docs, dtype=np.uint32).astype(np.int64),
                    self._parts(p).astype(np.float64) * idf,
                )
                for p, idf in weighted
            ]
            for weighted, _ in wanted
        ]
        docs, totals = merge_terms(merged, size)
        paths = self._paths
        alive = (
            [] if len(self._doc_of) == len(paths) else [paths[d] is not None for d in docs.tolist()]
        )
        if not all(alive):
            keep = np.array(alive, dtype=bool)
            docs, totals = docs[keep], totals[keep]
        return (docs, np.minimum(1.0, totals * (1.0 / ceiling))), used

    @staticmethod
    def _idf(df: int, n: int) -> float:
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def export(self) -> dict[str, object]:
        """A picklable snapshot, tombstones and all (renumbering is not cheap), without the
        terms no document holds. The posting arrays are handed out as they are, not copied
        (100k notes: 90 MB): the index copies one before it next changes it."""
        found = {
            term: (p.docs, p.tfs, p.df, p.dead) for term, p in self._postings.items() if p.df > 0
        }
        self._era += 1
        return {
            "paths": list(self._paths),
            "norms": self._norms[:],
            "postings": found,
            "terms_of": {doc: list(terms) for doc, terms in self._terms_of.items()},
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> TextIndex:
        """The index `export` gave; with "stored": its "postings" are lists already, checked
        (cache_records.py `read_stored_postings`; a one-call process: terms not interned)."""
        index = cls()
        index._paths = list(data["paths"])
        index._doc_of = {p: i for i, p in enumerate(index._paths) if p is not None}
        index._norms = array("d", data["norms"])
        if len(index._norms) != len(index._paths):
            raise ValueError("document norms and paths disagree")
        if data.get("stored"):
            index._postings = data["postings"]
        for term, (docs, tfs, df, dead) in () if data.get("stored") else data["postings"].items():
            if len(docs) != len(tfs) or len(docs) < df + dead or tfs.typecode not in _WIDTH:
                raise ValueError(f"posting list of {term!r} is damaged")
            if docs and docs[-1] >= len(index._paths):  # ascending: the last is the largest
                raise ValueError(f"posting list of {term!r} names an unknown document")
            if df > 0:
                index._postings[sys.intern(term)] = Postings(docs, tfs, df, dead)
        index._vocab_from_postings()
        for doc, terms in data.get("terms_of", {}).items():
            if 0 <= doc < len(index._paths) and index._paths[doc] is not None:
                index._terms_of[doc] = [sys.intern(t) for t in terms]
        return index
