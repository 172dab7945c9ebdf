"""How a cluster of memories becomes one (pure).

The rules (CortexGraph's, kept because they lose nothing):
- content: the longest text when every other one is contained in it; otherwise the distinct
  texts, oldest first, joined by blank lines (a text contained in a kept one is dropped);
- tags and entities: the union, first spelling kept;
- created: the earliest; last_used: the latest; use_count: the sum;
- strength: min(2, max(s_i) + min(0.5, 0.1 · cohesion · N)) — a fact said N times matters more.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

MAX_STRENGTH = 2.0
MAX_BONUS = 0.5

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class MergeSource:
    content: str
    tags: tuple[str, ...]
    entities: tuple[str, ...]
    created: datetime
    last_used: datetime
    use_count: int
    strength: float


@dataclass(frozen=True)
class Merged(MergeSource):
    kept: tuple[int, ...]  # which sources' texts the content holds (indexes, oldest first)


def comparable(text: str) -> str:
    """Text as containment sees it: case, spacing and closing punctuation do not count."""
    return _SPACE.sub(" ", text.casefold()).strip().rstrip(".!;")


def distinct_contents(contents: Sequence[str]) -> list[int]:
    """Indexes of the texts to keep: none equal to or contained in another kept text."""
    forms = [comparable(c) for c in contents]
    # Longest first decides containment; among equal forms the fuller spelling, then the older.
    by_length = sorted(
        range(len(contents)),
        key=lambda i: (-len(forms[i]), -len(" ".join(contents[i].split())), i),
    )
    kept: list[int] = []
    for i in by_length:
        if not forms[i]:
            continue
        if any(forms[i] in forms[k] for k in kept):
            continue
        kept.append(i)
    return sorted(kept)


def merged_strength(strengths: Sequence[float], cohesion: float) -> float:
    bonus = min(MAX_BONUS, 0.1 * cohesion * len(strengths))
    return round(min(MAX_STRENGTH, max(strengths) + bonus), 4)


def union(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Every value once (case-insensitively), in first-seen order."""
    seen: dict[str, str] = {}
    for group in groups:
        for value in group:
            seen.setdefault(value.casefold(), value)
    return tuple(seen.values())


def merge(sources: Sequence[MergeSource], cohesion: float) -> Merged:
    """Sources are merged oldest first whatever order they are given in."""
    if len(sources) < 2:
        raise ValueError("a merge needs at least two memories")
    order = sorted(range(len(sources)), key=lambda i: sources[i].created)
    ordered = [sources[i] for i in order]
    kept = distinct_contents([s.content.strip() for s in ordered])
    content = "\n\n".join(ordered[i].content.strip() for i in kept)
    return Merged(
        content=content,
        tags=union(s.tags for s in ordered),
        entities=union(s.entities for s in ordered),
        created=min(s.created for s in ordered),
        last_used=max(s.last_used for s in ordered),
        use_count=sum(s.use_count for s in ordered),
        strength=merged_strength([s.strength for s in ordered], cohesion),
        kept=tuple(order[i] for i in kept),
    )


def memory_hash(content: str, tags: Iterable[str], entities: Iterable[str]) -> str:
    """What a plan or a cluster pins: the memory's text, tags and entities.

    Reinforcement (use_count, last_used) does not change it, so a recall between planning
    and applying does not spoil a reviewed plan; an edit of the text or tags does.
    """
    canonical = "\x1f".join(
        [content.strip(), "\x1e".join(sorted(tags)), "\x1e".join(sorted(entities))]
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
