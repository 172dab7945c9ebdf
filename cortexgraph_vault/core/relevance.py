"""Text relevance of a note to a query: token matches by field, tolerant of typos.

Pure and small on purpose: the index scores only the documents its inverted lists (or a
scan) hand it. A query that matches nothing scores 0, and 0 means "not a result".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
STOP_WORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "but", "by", "do", "does", "did", "for", "from", "had", "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your", "about", "did", "say", "said"]
)
FIELD_WEIGHTS: Mapping[str, float] = {
    "title": 2.0,
    "aliases": 2.0,
    "tags": 1.5,
    "entities": 1.5,
    "content": 1.0,
}
FUZZY_CUTOFF = 84.0


def tokens(text: str) -> list[str]:
    return [t for t in (m.group(0).lower() for m in _WORD.finditer(text))]


def query_terms(query: str) -> list[str]:
    words = tokens(query)
    meaningful = [w for w in words if w not in STOP_WORDS]
    return list(dict.fromkeys(meaningful or words))


@dataclass(frozen=True)
class Relevance:
    similarity: float
    matched: tuple[str, ...]


def relevance(terms: Sequence[str], fields: Mapping[str, Sequence[str]]) -> Relevance:
    """`fields` maps a field name to its tokens. Similarity is in [0, 1]."""
    if not terms:
        return Relevance(0.0, ())
    top = max(FIELD_WEIGHTS.values())
    sets = {name: set(toks) for name, toks in fields.items()}
    total = 0.0
    matched: set[str] = set()
    for term in terms:
        best = 0.0
        for name, toks in sets.items():
            weight = FIELD_WEIGHTS.get(name, 1.0)
            if weight <= best:
                continue
            if term in toks:
                best, hit = weight, name
                matched.add(hit)
                continue
            if len(term) >= 4 and toks:
                # prefix ("deploy" ~ "deployment") or a typo ("postgers" ~ "postgres")
                if any(t.startswith(term) for t in toks if len(t) > len(term)):
                    best = max(best, 0.8 * weight)
                    matched.add(name)
                    continue
                found = process.extractOne(term, toks, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
                if found is not None:
                    best = max(best, 0.6 * weight)
                    matched.add(name)
        total += best
    similarity = total / (len(terms) * top)
    return Relevance(round(min(1.0, similarity), 6), tuple(sorted(matched)))
