"""An inverted index over every note: BM25F relevance, prefix and typo-tolerant term matching.

Each note is a document with five fields (title, aliases, tags, entities, content), weighted
into one term frequency per term (BM25F). A posting list is two compact arrays — document
numbers, and the term's weighted frequency in each, a whole number kept in the smallest
integer type that holds the list's (one byte, nearly always) — so 100k notes cost about
five bytes a posting, not the hundreds a dict per posting would. A query works out the
saturated, length-normalised frequencies of the lists it reads from those and each
document's length norm, in numpy: the same float32 values a stored copy would hold.

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
"hiking" finds "hiked"; prefixes and typos are matched on stems too. Typos are matched
against the vocabulary, never per document: rapidfuzz compares an unknown query term with
the known terms of similar length.
"""

from __future__ import annotations

import heapq
import math
import re
import sys
import threading
from array import array
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, cast

import numpy as np
from rapidfuzz import fuzz, process
from Stemmer import Stemmer

from cortexgraph_vault.index.document_words import fast_words, remembered_stems
from cortexgraph_vault.index.term_merge import merge_terms, no_docs

FIELDS = ("title", "aliases", "tags", "entities", "content")
FIELD_WEIGHTS = (3.0, 3.0, 2.0, 2.0, 1.0)
K1 = 1.2
B = 0.75
PIVOT_LENGTH = 300.0  # weighted tokens of a typical note
PREFIX_WEIGHT = 0.8
FUZZY_WEIGHT = 0.6
FUZZY_CUTOFF = 84.0
MIN_EXPAND_LEN = 4
MAX_EXPANSIONS = 8
SHORT_POSTINGS = 64
COMMON_MIN_NOTES = 100

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """Lower-cased words (letters and digits) of any script."""
    return _WORD.findall(text.lower())


_stemmers = threading.local()  # a Snowball stemmer object is not safe to share across threads


# Words stemmed per call: one call holds the interpreter lock throughout (200k words: half a
# second in which no other thread of the daemon, /health included, could answer).
STEM_CHUNK = 4096


def stems(found: list[str]) -> list[str]:
    """Each word's Snowball English stem (words of other scripts come back unchanged)."""
    stemmer: Stemmer | None = getattr(_stemmers, "english", None)
    if stemmer is None:
        stemmer = _stemmers.english = Stemmer("english")
    if len(found) <= STEM_CHUNK:
        return stemmer.stemWords(found)
    out: list[str] = []
    for start in range(0, len(found), STEM_CHUNK):
        out += stemmer.stemWords(found[start : start + STEM_CHUNK])
    return out


def text_tokens(text: str) -> list[str]:
    """The terms of a text, the same for documents and queries: stems of its words."""
    return stems(words(text))


@dataclass(frozen=True)
class DocumentText:
    """The searchable text of one note, by field."""

    title: str
    aliases: Sequence[str] = ()
    tags: Sequence[str] = ()
    entities: Sequence[str] = ()
    content: str = ""

    def field_tokens(self) -> tuple[list[str], ...]:
        return (
            _document_tokens(self.title),
            _document_tokens(" ".join(self.aliases)),
            # a nested tag `project/atlas` is found by `project` and by `atlas`
            _document_tokens(" ".join(self.tags)),
            _document_tokens(" ".join(self.entities)),
            _document_tokens(self.content),
        )


def _document_tokens(text: str) -> list[str]:
    """`text_tokens(text)`, the cheap way (index/document_words.py)."""
    return remembered_stems(fast_words(text, _WORD), stems)


@dataclass(frozen=True)
class TermStats:
    """What one document contributes: field-weighted term frequencies and its length norm."""

    weights: dict[str, float]
    norm: float

    @property
    def terms(self) -> list[str]:
        return list(self.weights)


def echoes_content(title: list[str], content: list[str]) -> bool:
    """A title made from the note's first words (as a save without a title makes it, maybe
    with a number to keep the name unique) says nothing the text does not."""
    if title and content[: len(title)] != title and len(title) > 1 and title[-1].isdigit():
        title = title[:-1]
    return bool(title) and content[: len(title)] == title


def term_stats(doc: DocumentText) -> TermStats:
    fields = doc.field_tokens()
    content = fields[-1]
    # Counted as ints, then the other fields add float weights to the same dict.
    weighted = cast("dict[str, float]", Counter(content))
    length = float(len(content))
    # A title (or the title kept as written, as an alias) made of the first words would
    # count them thrice for being said first.
    fields = tuple([] if i < 2 and echoes_content(f, content) else f for i, f in enumerate(fields))
    for tokens, weight in zip(fields[:-1], FIELD_WEIGHTS[:-1], strict=True):
        length += weight * len(tokens)
        for tok in tokens:
            weighted[tok] = weighted.get(tok, 0.0) + weight
    return TermStats(weighted, K1 * (1 - B + B * length / PIVOT_LENGTH))


def _part(tf: float, norm: float) -> float:
    """A term's saturated, length-normalised frequency in one document (BM25's tf part)."""
    return tf * (K1 + 1) / (tf + norm)


MAX_TERMS_PER_NOTE = 20_000
# A document with this many distinct terms keeps its list in the index: removing it then
# needs no re-tokenising of its old text (seconds, for a note of megabytes).
KEEP_TERMS_FROM = 1_000
SMALL_VOCAB_CHANGE = 64  # up to this many terms come and go one at a time; more, in one pass


def indexed_weights(stats: TermStats) -> dict[str, float]:
    """The terms of a document the index holds, with their weights: all of them, or the
    MAX_TERMS_PER_NOTE most weighty (title and tags first; ties in order of appearance)."""
    weights = stats.weights
    if len(weights) <= MAX_TERMS_PER_NOTE:
        return weights
    return dict(heapq.nlargest(MAX_TERMS_PER_NOTE, weights.items(), key=itemgetter(1)))


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
        new_of: dict[int, int] = {}
        for i, path in enumerate(self.paths):
            if path in keep:
                new_of[i] = len(new_of)
        kept = []
        for term, docs, tfs in self.postings():
            pairs = [(new_of[d], tf) for d, tf in zip(docs, tfs, strict=True) if d in new_of]
            if pairs:
                kept.append((term, [d for d, _ in pairs], [tf for _, tf in pairs]))
        norms = [n for path, n in zip(self.paths, self.norms, strict=True) if path in keep]
        return _flat([p for p in self.paths if p in keep], norms, kept)


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
        paths, terms, _array("I", ends), _array("I", docs_of), _array(code, tfs.astype(_NUMPY[code])),
        array("d", norms),
    )  # fmt: skip


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
    out = array(code)
    out.frombytes(np.asarray(tfs, dtype=np.float64).astype(_NUMPY[code]).tobytes())
    return out


class _Postings:
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


class TextIndex:
    """Not thread-safe by itself: the catalogue serialises changes and searches."""

    def __init__(self) -> None:
        self._postings: dict[str, _Postings] = {}  # only terms some document holds
        self._vocab: list[str] = []  # sorted
        self._by_length: dict[int, dict[str, None]] = {}  # ordered sets, for typo matching
        self._doc_of: dict[str, int] = {}
        self._paths: list[str | None] = []
        self._norms = array("d")  # each document's length norm, by document number
        self._terms_of: dict[int, list[str]] = {}  # of documents with many terms
        self._era = 0  # bumped by each export: arrays exported before are not changed in place

    # size ------------------------------------------------------------------------------
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

    def _parts(self, p: _Postings) -> np.ndarray:
        """The list's saturated, length-normalised term frequencies (BM25's tf part, as
        `_part` has it) as float32, in order."""
        docs = np.frombuffer(p.docs, dtype=np.uint32)
        tfs = np.asarray(p.tfs, dtype=np.float64)
        norms = np.frombuffer(self._norms, dtype=np.float64)[docs]
        parts: np.ndarray = (tfs * (K1 + 1) / (tfs + norms)).astype(np.float32)
        return parts

    def document_frequency(self, term: str) -> int:
        """How many live documents hold `term` exactly (no prefix or typo matching)."""
        p = self._postings.get(term)
        return p.df if p is not None else 0

    def signature(self) -> dict[str, dict[str, float]]:
        """Every live term with its postings: equal for two indexes of the same notes."""
        found = {term: self.postings_of(term) for term, p in self._postings.items() if p.df}
        return {term: postings for term, postings in found.items() if postings}

    # changes ---------------------------------------------------------------------------
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
                p = postings[term] = _Postings(array("I"), array("B"), owned=era)
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
                p = postings[term] = _Postings(array("I"), array(tfs.typecode), owned=era)
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

    def _add_terms(self, new: list[str]) -> None:
        """New terms join the sorted vocabulary: a few by bisection, many in one merge."""
        if not new:
            return
        if len(new) <= SMALL_VOCAB_CHANGE:
            for term in new:
                insort(self._vocab, term)
        else:
            # two sorted runs: the sort merges them in C (heapq.merge steps in Python)
            self._vocab = sorted(self._vocab + new)
        by_length = self._by_length
        for term in new:
            by_length.setdefault(len(term), {})[term] = None

    def _drop_terms(self, gone: list[str]) -> None:
        """Terms no document holds any more leave the vocabulary."""
        if not gone:
            return
        vocab = self._vocab
        if len(gone) <= SMALL_VOCAB_CHANGE:
            for term in gone:
                i = bisect_left(vocab, term)
                if i < len(vocab) and vocab[i] == term:
                    del vocab[i]
        else:
            postings = self._postings
            self._vocab = [t for t in vocab if t in postings]
        by_length = self._by_length
        for term in gone:
            bucket = by_length.get(len(term))
            if bucket is not None:
                bucket.pop(term, None)
                if not bucket:
                    del by_length[len(term)]

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

    def _compact(self, p: _Postings) -> None:
        paths = self._paths
        keep = [i for i, d in enumerate(p.docs) if paths[d] is not None]
        p.docs = array("I", [p.docs[i] for i in keep])
        p.tfs = array(p.tfs.typecode, [p.tfs[i] for i in keep])
        p.dead = 0
        p.owned = self._era

    def _own(self, p: _Postings) -> None:
        p.docs = p.docs[:]
        p.tfs = p.tfs[:]
        p.owned = self._era

    # queries ---------------------------------------------------------------------------
    def expand(self, term: str) -> list[tuple[str, float]]:
        """The vocabulary terms a query term stands for, each with its weight."""
        postings = self._postings
        out: list[tuple[str, float]] = []
        exact = postings.get(term)
        if exact is not None and exact.df:
            out.append((term, 1.0))
        if len(term) < MIN_EXPAND_LEN:
            return out
        # prefix: "deploy" finds "deployment"
        prefixed: list[str] = []
        vocab = self._vocab
        i = bisect_left(vocab, term)
        while i < len(vocab) and vocab[i].startswith(term):
            if vocab[i] != term and postings[vocab[i]].df:
                prefixed.append(vocab[i])
            i += 1
        prefixed.sort(key=lambda t: -postings[t].df)
        out.extend((t, PREFIX_WEIGHT) for t in prefixed[:MAX_EXPANSIONS])
        if out:
            return out
        # a typo: "postgers" finds "postgres" (only when the term itself is unknown)
        near: list[str] = []
        for size in range(len(term) - 2, len(term) + 3):
            near.extend(self._by_length.get(size, {}))
        found = process.extract(
            term, near, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=MAX_EXPANSIONS * 4
        )
        for cand, _score, _ in found:
            if cand in postings and len(out) < MAX_EXPANSIONS:
                out.append((cand, FUZZY_WEIGHT))
        return out

    def search(self, terms: Sequence[str]) -> dict[str, float]:
        return self.search_expanded(terms)[0]

    def search_expanded(
        self,
        terms: Sequence[str],
        related: Mapping[str, Sequence[tuple[str, float]]] | None = None,
    ) -> tuple[dict[str, float], dict[str, list[str]]]:
        """`search_docs` by path: path → similarity, in the same order."""
        (docs, sims), used = self.search_docs(terms, related)
        paths = self._paths
        return dict(zip([paths[d] for d in docs.tolist()], sims.tolist(), strict=True)), used

    def path_of(self, doc: int) -> str | None:
        return self._paths[doc]

    def search_docs(
        self,
        terms: Sequence[str],
        related: Mapping[str, Sequence[tuple[str, float]]] | None = None,
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
        wanted: list[tuple[list[tuple[_Postings, float]], bool]] = []
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
            weighted = [(self._postings[c], self._idf(self._postings[c].df, n) * f)
                        for c, f in expansions]  # fmt: skip
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
        merged = [[(np.frombuffer(p.docs, dtype=np.uint32).astype(np.int64),
                    self._parts(p).astype(np.float64) * idf) for p, idf in weighted]
                  for weighted, _ in wanted]  # fmt: skip
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

    # persistence -----------------------------------------------------------------------
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
        index = cls()
        index._paths = list(data["paths"])
        index._doc_of = {p: i for i, p in enumerate(index._paths) if p is not None}
        index._norms = array("d", data["norms"])
        if len(index._norms) != len(index._paths):
            raise ValueError("document norms and paths disagree")
        for term, (docs, tfs, df, dead) in data["postings"].items():
            if len(docs) != len(tfs) or len(docs) < df + dead or tfs.typecode not in _WIDTH:
                raise ValueError(f"posting list of {term!r} is damaged")
            if docs and docs[-1] >= len(index._paths):  # ascending: the last is the largest
                raise ValueError(f"posting list of {term!r} names an unknown document")
            if df > 0:
                index._postings[sys.intern(term)] = _Postings(docs, tfs, df, dead)
        index._vocab = sorted(index._postings)
        for term in index._vocab:
            index._by_length.setdefault(len(term), {})[term] = None
        for doc, terms in data.get("terms_of", {}).items():
            if 0 <= doc < len(index._paths) and index._paths[doc] is not None:
                index._terms_of[doc] = [sys.intern(t) for t in terms]
        return index
