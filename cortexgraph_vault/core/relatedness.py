"""Which memories are related because they name the same things or link the same notes (pure).

Each memory has features: its entities and the notes it links to. A shared feature counts by
how rare it is — shared only by these two, it counts 1; shared by many (the person's own
name, a daily note), it counts little: w = 1 / (1 + ln(df / 2)). Confidence is the weighted
count of shared features over the smaller memory's feature count, at most 1: two memories
that both name only "Project Atlas" are related; two that both mention a name every memory
mentions are not.

Pairs are found through the features themselves (a memory is compared only with memories
sharing one of its features), never by comparing all pairs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_SHARERS = 200  # a feature this common links too much to say anything on its own


@dataclass(frozen=True)
class RelationFeatures:
    key: str
    entities: tuple[str, ...] = ()  # as written
    links: tuple[str, ...] = ()  # linked note titles (or paths), as shown in a reason


@dataclass(frozen=True)
class RelatedPair:
    a: str
    b: str
    confidence: float
    shared_entities: tuple[str, ...]
    shared_links: tuple[str, ...]

    @property
    def reason(self) -> str:
        parts = []
        if self.shared_entities:
            parts.append("both name " + ", ".join(self.shared_entities))
        if self.shared_links:
            parts.append("both link to " + ", ".join(f"[[{t}]]" for t in self.shared_links))
        return " and ".join(parts)


def _features(m: RelationFeatures) -> dict[str, str]:
    """Feature key → how it is shown; entities compare case-insensitively."""
    out = {"e:" + " ".join(e.casefold().split()): e for e in m.entities if e.strip()}
    out.update({"l:" + link.casefold(): link for link in m.links if link.strip()})
    return out


def rarity(sharers: int) -> float:
    return 1.0 / (1.0 + math.log(max(sharers, 2) / 2))


def related_pairs(
    memories: Sequence[RelationFeatures],
    min_confidence: float,
    *,
    exclude: Mapping[str, set[str]] | None = None,
) -> list[RelatedPair]:
    """Pairs at or above `min_confidence`, strongest first; `exclude[a]` holds keys a is
    already related to (either direction), which are never proposed again."""
    feats = [_features(m) for m in memories]
    sharers: dict[str, list[int]] = {}
    for i, fs in enumerate(feats):
        for f in fs:
            sharers.setdefault(f, []).append(i)
    candidates: set[tuple[int, int]] = set()
    for members in sharers.values():
        if 2 <= len(members) <= MAX_SHARERS:
            for x, i in enumerate(members):
                candidates.update((i, j) for j in members[x + 1 :])
    exclude = exclude or {}
    found = []
    for i, j in candidates:
        a, b = memories[i], memories[j]
        if b.key in exclude.get(a.key, ()) or a.key in exclude.get(b.key, ()):
            continue
        shared = sorted(set(feats[i]) & set(feats[j]))
        weight = sum(rarity(len(sharers[f])) for f in shared)
        confidence = min(1.0, weight / min(len(feats[i]), len(feats[j])))
        if confidence + 1e-9 < min_confidence:
            continue
        first, second = (a, b) if a.key < b.key else (b, a)
        found.append(
            RelatedPair(
                first.key,
                second.key,
                round(confidence, 4),
                tuple(feats[i][f] for f in shared if f.startswith("e:")),
                tuple(feats[i][f] for f in shared if f.startswith("l:")),
            )
        )
    found.sort(key=lambda p: (-p.confidence, p.a, p.b))
    return found
