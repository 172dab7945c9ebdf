"""What a note says to the word index: its terms by field, weighted into one frequency each.

Each note is a document with five fields (title, aliases, tags, entities, content), weighted
into one term frequency per term (BM25F), with a length norm against a fixed pivot (the
index then depends only on the notes it holds, never on the order they arrived in). Words are
indexed by their Snowball (English) stem, so "allergy" finds "allergies" and "hiking" finds
"hiked"; a query's words become terms the same way. A document adds at most
MAX_TERMS_PER_NOTE distinct terms (its most weighty ones).

No numpy here: a parse that only needs a note's terms does not load it.
"""

from __future__ import annotations

import heapq
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import cast

from Stemmer import Stemmer

from cortexgraph_vault.index.text.document_words import fast_words, remembered_stems

FIELDS = ("title", "aliases", "tags", "entities", "content")
FIELD_WEIGHTS = (3.0, 3.0, 2.0, 2.0, 1.0)
K1 = 1.6
B = 0.9
PIVOT_LENGTH = 300.0  # weighted tokens of a typical note

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

    def field_texts(self) -> tuple[str, ...]:
        """The text of each field, in FIELDS' order, as it is split into terms."""
        return (
            self.title,
            " ".join(self.aliases),
            # a nested tag `project/atlas` is found by `project` and by `atlas`
            " ".join(self.tags),
            " ".join(self.entities),
            self.content,
        )

    def field_tokens(self) -> tuple[list[str], ...]:
        return tuple(document_tokens(text) for text in self.field_texts())


def document_tokens(text: str) -> list[str]:
    """`text_tokens(text)`, the cheap way (index/text/document_words.py)."""
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


MAX_TERMS_PER_NOTE = 20_000
# A document with this many distinct terms keeps its list in the index: removing it then
# needs no re-tokenising of its old text (seconds, for a note of megabytes).
KEEP_TERMS_FROM = 1_000


def indexed_weights(stats: TermStats) -> dict[str, float]:
    """The terms of a document the index holds, with their weights: all of them, or the
    MAX_TERMS_PER_NOTE most weighty (title and tags first; ties in order of appearance)."""
    weights = stats.weights
    if len(weights) <= MAX_TERMS_PER_NOTE:
        return weights
    return dict(heapq.nlargest(MAX_TERMS_PER_NOTE, weights.items(), key=itemgetter(1)))
