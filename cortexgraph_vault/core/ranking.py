"""Cue-first ranking: how well a memory matches decides first; its decay score only orders
memories that match about equally well.

    relevance  = (1 − w_v) · lexical + w_v · max(0, cosine)            (each in [0, 1])
                 (w_v from vector_weight for a short text to long_vector_weight for a
                 long one — page_vector_weight for a long page — by the note's indexed
                 length)
    context    = c · Σ_k 0.5^(k−1) · max(0, relevance(neighbour at k) − relevance)
                 (k = 1..reach; between notes that both match, lent by those matched by
                 words: a better-matching neighbour pulls a memory up, equals do not)
    reply      = the memory saved right after a matching question in its episode ranks at
                 least at r · that question's relevance (`reply_credit`)
    label      = + l · relevance when the query names the label a memory opens with
                 (`Name: …`; `label_credit`)
    prior      = f + (1 − f) · min(1, memory score)                   (in [f, 1])
    rank score = (relevance + context) · prior · folder weight

`lexical` is the word index's BM25F similarity, `cosine` the vector similarity of query and
note. A memory says one thing in a sentence or two: the question's words in it are a precise
cue. A page of notes speaks of many things, and a few of the question's words somewhere in
it say little of what it is about; its vector (its title and opening) says more. Yet a page
that is not a memory (a help page, a project note) often answers further down than the
opening its sentence vector was read from, where only its words reach: its vector may have
a smaller share than a long memory's. Neighbours are the memories saved just before and after a memory within one episode
(consecutive saves less than `context_gap` apart): what was said around a fact helps find
it, as a person recalls the conversation where they heard it. With the default floor
f = 0.9, a memory that has faded to nothing keeps 90 % of its relevance: a memory that
matches a question better than a fresh one by a tenth or more still comes first, and two
that match alike are ordered by use and recency. Pure: no clock, no files.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RankingConfig:
    prior_floor: float = 0.9
    vector_weight: float = 0.3  # of a short text
    long_vector_weight: float = 0.5  # of a long one
    page_vector_weight: float | None = None  # of a long page (not a memory); None: as above
    short_text: float = 60.0  # indexed (field-weighted) words up to which a text is short
    long_text: float = 240.0  # and from which it is long; the share is linear between
    vector_min: float = 0.3  # least cosine for a note found by meaning alone
    vector_candidates: int = 50
    context_weight: float = 0.3
    context_reach: int = 2
    context_gap: float = 1800.0  # seconds between two saves of one episode
    # each better hit of a memory's episode multiplies its rank score by (1 − this)
    episode_discount: float = 0.0
    episode_discount_top: int = 200  # the best hits the discount looks at
    # a memory saved right after a matching question ranks at least at this share of it
    reply_weight: float = 0.0
    reply_lenders: int = 30  # the best word matches looked at for questions
    # a memory whose label the question names gains this share of its relevance
    label_weight: float = 0.0
    label_top: int = 50  # the best matches looked at for labels


def long_share(cfg: RankingConfig, page: bool) -> float:
    """The vector's share of a long memory, or of a long page (a note that is not one)."""
    return (
        cfg.page_vector_weight
        if page and cfg.page_vector_weight is not None
        else (cfg.long_vector_weight)
    )


def vector_share(length: float, cfg: RankingConfig, page: bool = False) -> float:
    """The share of relevance a note's vector has, by the note's indexed length and kind."""
    span = cfg.long_text - cfg.short_text
    t = min(1.0, max(0.0, (length - cfg.short_text) / span)) if span > 0 else 1.0
    return cfg.vector_weight + t * (long_share(cfg, page) - cfg.vector_weight)


@dataclass
class Relevance:
    lexical: float = 0.0
    vector: float = 0.0  # cosine; counts only when positive
    context: float = 0.0
    length: float = 0.0  # the note's indexed (field-weighted) words
    page: bool = False  # a note that is not a memory

    def own(self, cfg: RankingConfig) -> float:
        w = vector_share(self.length, cfg, self.page)
        return (1 - w) * self.lexical + w * max(0.0, self.vector)

    def total(self, cfg: RankingConfig) -> float:
        return self.own(cfg) + self.context


def prior(memory_score: float, floor: float) -> float:
    """The bounded weight of a memory's decay score, in [floor, 1]."""
    return floor + (1.0 - floor) * min(1.0, max(0.0, memory_score))


@dataclass(frozen=True)
class Episodes:
    """Memories in the order they were saved, with their save times (seconds)."""

    paths: Sequence[str]
    times: Sequence[float]

    def changed(self, gone: set[str], added: list[tuple[float, str]]) -> Episodes:
        """These episodes without the memories at `gone` (empty: none of them is here), with
        `added` (save time, path) in their places: in the order of a fresh sort by time, then
        path. A save adds one memory, most often at the end: the rest is copied, not sorted."""
        paths, times = list(self.paths), list(self.times)
        if gone:
            kept = [i for i, path in enumerate(paths) if path not in gone]
            paths, times = [paths[i] for i in kept], [times[i] for i in kept]
        for created, path in added:
            i = bisect_left(times, created)
            while i < len(times) and times[i] == created and paths[i] < path:
                i += 1
            paths.insert(i, path)
            times.insert(i, created)
        return Episodes(paths, times)


def discount_episodes(
    score: Sequence[float], episode: Sequence[int], discount: float
) -> list[float]:
    """Rank scores with each hit discounted by `(1 − discount)^k`, k being the number of
    hits of its episode that score higher (ties: the earlier one): the best hit of an
    episode keeps its score, and the turns said around it no longer fill the first places
    that a match from another conversation should have. An episode of -1 is none (a plain
    note): never discounted."""
    if discount <= 0:
        return list(score)
    keep = 1.0 - discount
    order = sorted(range(len(score)), key=lambda i: -score[i])
    seen: dict[int, int] = {}
    out = list(score)
    for i in order:
        ep = episode[i]
        if ep < 0:
            continue
        k = seen.get(ep, 0)
        if k:
            out[i] = score[i] * keep**k
        seen[ep] = k + 1
    return out


# One to three capitalised words and a colon opening a text: "Caroline: I went…",
# "Project Atlas: launch moved to May". Not a time ("10:30") nor a lower-case lead-in.
_LABEL = re.compile(r"\s*([A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,2}):\s")


def leading_label(text: str) -> str | None:
    """The label a memory's text opens with (`Name: …`): who said it, or what it is about."""
    found = _LABEL.match(text)
    return found.group(1) if found else None


def label_credit(
    relevance: float, label_terms: frozenset[str], query_terms: frozenset[str], weight: float
) -> float:
    """Context a memory gains when the question names its label: a fraction `weight` of its
    relevance. The label says whose or what the memory is, as a title does; a name said by
    half a conversation's turns is too common for the word index to weigh (it is left out
    of the query beside rarer words), yet "what did Melanie paint" asks for what Melanie
    said, not for what was said to her."""
    if weight <= 0 or relevance <= 0 or not label_terms & query_terms:
        return 0.0
    return weight * relevance


def asks(text: str) -> bool:
    """Whether a memory's text asks something (its reply may hold the answer)."""
    return "?" in text


def reply_credit(
    questions: Sequence[tuple[str, float]],
    reply_of: Mapping[str, str],
    relevance_of: Mapping[str, float],
    weight: float,
) -> dict[str, float]:
    """Context each reply gains: the memory saved right after a question that matches
    (`questions`: path, own relevance) in the same episode ranks at least at `weight` times
    the question's relevance. In a conversation a question's words name what its answer
    does not repeat ("how often do you see sunsets like that?" — "at least once a week"), so
    the reply is found through the question even when it shares no word with the query.
    `relevance_of`: the reply's relevance so far (0 when it did not match); the gain lifts
    it to that floor and no further, the best of its questions counting."""
    gained: dict[str, float] = {}
    if weight <= 0:
        return gained
    for path, own in questions:
        reply = reply_of.get(path)
        if reply is None or own <= 0:
            continue
        gain = weight * own - relevance_of.get(reply, 0.0)
        if gain > gained.get(reply, 0.0):
            gained[reply] = gain
    return gained
