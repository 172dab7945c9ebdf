"""Posting lists as compact arrays, and blocks of them built where notes are parsed.

A posting list is two arrays — document numbers, and the term's weighted frequency in each,
a whole number kept in the smallest integer type that holds the list's (one byte, nearly
always) — so 100k notes cost about five bytes a posting, not the hundreds a dict per posting
would. A parse worker hands its notes' postings over as one flat block (`PostingBlock`).
"""

from __future__ import annotations

from array import array
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from cortexgraph_vault.index.text.document_terms import TermStats, indexed_weights


@dataclass(frozen=True)
class PostingBlock:
    """The postings of a run of documents, built where they were parsed (a worker process).

    Flat, so it crosses a pipe as a few arrays: term i's postings are `docs[ends[i-1]:ends[i]]`
    and `tfs[...]`, document numbers being positions in `paths` (and `norms`). Joining an
    index renumbers them with one addition each.
    """

    paths: list[str]
    terms: list[str]
    ends: array[int]
    docs: array[int]
    tfs: array[Any]
    norms: array[float]

    def postings(self) -> Iterator[tuple[str, array[int], array[Any]]]:
        start = 0
        for term, end in zip(self.terms, self.ends, strict=True):
            yield term, self.docs[start:end], self.tfs[start:end]
            start = end

    def only(self, keep: Container[str]) -> PostingBlock:
        """The block without the documents not in `keep`."""
        kept_at = [i for i, path in enumerate(self.paths) if path in keep]
        new_of = {old: new for new, old in enumerate(kept_at)}
        kept = []
        for term, docs, tfs in self.postings():
            pairs = [(new_of[d], tf) for d, tf in zip(docs, tfs, strict=True) if d in new_of]
            if pairs:
                kept.append((term, [d for d, _ in pairs], [tf for _, tf in pairs]))
        return _flat([self.paths[i] for i in kept_at], [self.norms[i] for i in kept_at], kept)


def posting_block(docs: Iterable[tuple[str, TermStats]]) -> PostingBlock:
    """The postings of `docs`, terms in the order they first occur, each term's documents in
    the order given. Grouped by one stable sort of term numbers, not a list append per
    posting (a parse worker's 5,000 notes hold 450k postings: a tenth of its time)."""
    paths: list[str] = []
    norms: list[float] = []
    counts: list[int] = []
    found: list[str] = []  # every posting's term, document after document
    weights: list[float] = []
    for path, stats in docs:
        indexed = indexed_weights(stats)
        paths.append(path)
        norms.append(stats.norm)
        counts.append(len(indexed))
        found.extend(indexed)
        weights.extend(indexed.values())
    terms = list(dict.fromkeys(found))
    number = {term: i for i, term in enumerate(terms)}
    # numpy sorts 16-bit numbers stably by radix, in a tenth of the time of wider ones
    kind = np.uint16 if len(terms) <= 0x10000 else np.intp
    ids = np.fromiter(map(number.__getitem__, found), dtype=kind, count=len(found))
    order = np.argsort(ids, kind="stable")
    docs_of = np.repeat(np.arange(len(paths), dtype=np.uintc), counts)[order]
    ends = np.cumsum(np.bincount(ids, minlength=len(terms)), dtype=np.uintc)
    tfs = np.asarray(weights, dtype=np.float64)[order]
    code = _tf_type(tfs)
    return PostingBlock(
        paths,
        terms,
        _array("I", ends),
        _array("I", docs_of),
        _array(code, tfs.astype(_NUMPY[code])),
        array("d", norms),
    )


def _array(code: str, values: np.ndarray) -> array[Any]:
    out = array(code)
    out.frombytes(values.tobytes())
    return out


def _flat(
    paths: list[str], norms: list[float], by_term: Iterable[tuple[str, list[int], list[float]]]
) -> PostingBlock:
    terms: list[str] = []
    ends, docs, tfs = array("I"), array("I"), array("d")
    for term, term_docs, term_tfs in by_term:
        terms.append(term)
        docs.extend(term_docs)
        tfs.extend(term_tfs)
        ends.append(len(docs))
    return PostingBlock(paths, terms, ends, docs, _smallest(tfs), array("d", norms))


# Term frequencies are weighted sums of counts by whole-number field weights: whole numbers,
# mostly below 256. Each list keeps them in the smallest of these types that holds them all.
_TF_TYPES = (("B", 0xFF), ("H", 0xFFFF), ("I", 0xFFFFFFFF))
_WIDTH = {"B": 0, "H": 1, "I": 2, "d": 3}
_LIMIT = dict(_TF_TYPES)
_NUMPY = {"B": np.uint8, "H": np.uint16, "I": np.uint32, "d": np.float64}


def _tf_type(values: array[Any] | list[float] | np.ndarray, at_least: str = "B") -> str:
    """The smallest type holding `values` and at least as wide as `at_least`; "d" (as they
    are) when one is not a whole number."""
    if at_least == "d" or not len(values):
        return at_least
    found = np.asarray(values, dtype=np.float64)
    if not np.array_equal(found, np.floor(found)) or found.min() < 0:
        return "d"
    top = found.max()
    for code, limit in _TF_TYPES:
        if _WIDTH[code] >= _WIDTH[at_least] and top <= limit:
            return code
    return "d"


def _smallest(tfs: array[Any]) -> array[Any]:
    code = _tf_type(tfs)
    if code == tfs.typecode:
        return tfs
    return _array(code, np.asarray(tfs, dtype=np.float64).astype(_NUMPY[code]))


class Postings:
    __slots__ = ("dead", "df", "docs", "owned", "tfs")

    def __init__(
        self, docs: array[int], tfs: array[Any], df: int = 0, dead: int = 0, owned: int = -1
    ) -> None:
        self.docs = docs
        self.tfs = tfs  # weighted term frequencies, by document (typecode: _tf_type)
        self.df = df  # live postings
        self.dead = dead  # tombstones still in the arrays
        # The index's `era` in which these arrays were its own; an older one: they may be
        # held by a cache writer (or came from a cache), and are copied before a change.
        self.owned = owned


class StoredPostings(Postings):
    """A list restored from the index cache whose arrays are made from the file's bytes when
    first used: a one-call search reads a few lists of the twelve thousand a 10k vault holds
    (making them all was a tenth of the command). `stored`: the bytes of the lists' part,
    where this list's begin, its length and its two typecodes."""

    __slots__ = ("stored",)

    def __init__(self, stored: tuple[memoryview, int, int, str, str], df: int, dead: int) -> None:
        # docs and tfs are left unset: reading either is `__getattr__`, which sets both
        self.stored = stored
        self.df = df
        self.dead = dead
        self.owned = -1

    def __getattr__(self, name: str) -> Any:
        if name not in ("docs", "tfs"):
            raise AttributeError(name)
        data, at, n, docs_code, tfs_code = self.stored
        docs, tfs = array(docs_code), array(tfs_code)
        end = at + n * docs.itemsize
        docs.frombytes(data[at:end])
        tfs.frombytes(data[end : end + n * tfs.itemsize])
        self.docs, self.tfs = docs, tfs
        return docs if name == "docs" else tfs
