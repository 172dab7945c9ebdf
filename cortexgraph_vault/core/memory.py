"""The memory record: what a memory note's frontmatter and body say, read leniently.

Missing decay fields default from the file's own times (a note a person writes by hand in
`_stm/` is a memory too); a wrong-typed field is reported, not fatal.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cortexgraph_vault.core.relation_types import RELATION_TYPES
from cortexgraph_vault.core.rules import DecayFields, default_use_days
from cortexgraph_vault.core.times import parse_time

SUPERSEDES = "supersedes"  # the relation a new memory names the ones it replaces by
# The other side of `supersedes`, written on the memory that was replaced: not a relation one
# creates (`supersedes` on the new memory writes it), but a link property read like one.
SUPERSEDED_BY = "superseded_by"
# When a superseded memory stopped being current.
VALID_UNTIL = "valid_until"
LINK_PROPERTIES = (*RELATION_TYPES, SUPERSEDED_BY)
STATUSES = ("active", "promoted", "archived")


@dataclass(frozen=True)
class Memory:
    path: str
    title: str
    id: str | None
    created: datetime
    last_used: datetime
    use_count: int
    strength: float
    status: str
    body: str
    content_hash: str
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    source: str | None = None
    context: str | None = None
    promoted_at: datetime | None = None
    review_count: int = 0
    last_review_at: datetime | None = None
    cross_domain_count: int = 0
    use_days: int = 1
    relations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    valid_until: datetime | None = None

    @property
    def superseded_by(self) -> tuple[str, ...]:
        """The link values naming the memories that replaced this one (empty: it is current)."""
        return self.relations.get(SUPERSEDED_BY, ())

    @property
    def superseded(self) -> bool:
        return bool(self.superseded_by)

    @property
    def decay(self) -> DecayFields:
        return DecayFields(
            self.created, self.last_used, self.use_count, self.strength, self.use_days
        )

    @property
    def content(self) -> str:
        return self.body.strip()


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(p.strip() for p in value.replace(",", " ").split() if p.strip())
    if isinstance(value, list | tuple):
        return tuple(str(v).strip() for v in value if v is not None and str(v).strip())
    return (str(value),)


def _links(value: Any) -> tuple[str, ...]:
    """A link property's values; one written by hand as a plain string of wikilinks keeps each
    link whole (`"[[Moved to Berlin]]"` is one value, not two words)."""
    if isinstance(value, str) and "[[" in value:
        return tuple(re.findall(r"!?\[\[[^\]]*\]\]", value))
    return _strings(value)


def _int(value: Any, default: int, name: str, problems: list[str], low: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        problems.append(f"{name} is not a number ({value!r}); using {default}")
        return default
    try:
        number = int(float(value))
    except (ValueError, OverflowError):  # not a number, or infinite / beyond a float
        problems.append(f"{name} is not a finite number ({value!r}); using {default}")
        return default
    return max(low, number)


def _float(value: Any, default: float, name: str, problems: list[str]) -> float:
    if value is None:
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        problems.append(f"{name} is not a number ({value!r}); using {default}")
        return default
    if isinstance(value, bool) or not math.isfinite(number):
        problems.append(f"{name} is not a finite number ({value!r}); using {default}")
        return default
    return min(2.0, max(0.0, number))


def memory_from_fields(
    *,
    path: str,
    title: str,
    frontmatter: Mapping[str, Any],
    body: str,
    content_hash: str,
    file_created: datetime,
    file_modified: datetime,
    folder_status: str,
) -> Memory:
    fm = frontmatter
    problems: list[str] = []

    def time_field(name: str, default: datetime | None) -> datetime | None:
        raw = fm.get(name)
        if raw is None:
            return default
        parsed = parse_time(raw)
        if parsed is None:
            problems.append(f"{name} is not a time ({raw!r}); using the file's time")
            return default
        return parsed

    created = time_field("created", file_created) or file_created
    last_used = time_field("last_used", file_modified) or file_modified
    if last_used < created:
        last_used = created
    status = fm.get("status")
    if status not in STATUSES:
        if status is not None:
            problems.append(
                f"status {status!r} is unknown; using {folder_status!r} from its folder"
            )
        status = folder_status
    if fm.get("merge_conflict"):
        # Set by the merge of two devices' versions (core/note_merge.py) until a person resolves it.
        problems.append(f"merged with conflicting edits: {fm['merge_conflict']}")
    raw_id = fm.get("id")
    relations = {kind: _links(fm.get(kind)) for kind in LINK_PROPERTIES if fm.get(kind) is not None}
    use_count = _int(fm.get("use_count"), 1, "use_count", problems, 1)
    derived_days = default_use_days(created, last_used, use_count)
    return Memory(
        path=path,
        title=title,
        id=str(raw_id).strip() if raw_id not in (None, "") else None,
        created=created,
        last_used=last_used,
        use_count=use_count,
        strength=_float(fm.get("strength"), 1.0, "strength", problems),
        status=str(status),
        body=body,
        content_hash=content_hash,
        tags=_strings(fm.get("tags", fm.get("tag"))),
        entities=_strings(fm.get("entities"))
        if not isinstance(fm.get("entities"), str)
        else (str(fm["entities"]),),
        source=str(fm["source"]) if fm.get("source") is not None else None,
        context=str(fm["context"]) if fm.get("context") is not None else None,
        promoted_at=time_field("promoted_at", None),
        review_count=_int(fm.get("review_count"), 0, "review_count", problems, 0),
        last_review_at=time_field("last_review_at", None),
        cross_domain_count=_int(fm.get("cross_domain_count"), 0, "cross_domain_count", problems, 0),
        # Never more days than uses: a hand edit cannot make one use look spread out.
        use_days=min(use_count, _int(fm.get("use_days"), derived_days, "use_days", problems, 1)),
        relations=relations,
        valid_until=time_field(VALID_UNTIL, None),
        problems=tuple(problems),
    )
