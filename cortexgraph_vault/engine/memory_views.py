"""A memory as every door shows it: its fields, its score and what the rules make of it now."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict, TypeVar

from cortexgraph_vault.core.decay import DAY, DecayConfig, age_days
from cortexgraph_vault.core.english import word_set
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.rules import RuleConfig, promote_reason, review_priority
from cortexgraph_vault.core.times import format_time

if TYPE_CHECKING:  # pydantic models are imported where a view is made, not at every start
    from pydantic import BaseModel

    from cortexgraph_vault.models import MemoryView

M = TypeVar("M", bound="BaseModel")

_new = object.__new__
_put = object.__setattr__


def unchecked(cls: type[M], values: dict[str, object], given: frozenset[str]) -> M:
    """An instance of `cls` holding `values` as they are, as `model_construct` makes one but
    without validating them (a list page makes 50 views, a search ten hits). Only for values already of their fields' types (a float field given a float, a
    list field a list of its own), every field present, in the model's order: the encoders
    write the fields in the order they are held. `given`: the fields counted as set, those
    the validation would have been given."""
    made = _new(cls)
    _put(made, "__dict__", values)
    _put(made, "__pydantic_fields_set__", set(given))  # its own: setting a field adds to it
    _put(made, "__pydantic_extra__", None)
    _put(made, "__pydantic_private__", None)
    return made


class ShownHead(TypedDict):
    """A view's fields before its score (tags and entities as the memory's tuples)."""

    id: str | None
    title: str
    path: str
    status: str
    content: str
    tags: tuple[str, ...]
    entities: tuple[str, ...]
    source: str | None
    context: str | None
    created: str
    last_used: str
    use_count: int
    use_days: int
    strength: float


_GIVEN = word_set(
    "id title path status content tags entities source context created last_used use_count "
    "use_days strength score age_days review_priority days_until_forgotten promotable "
    "promote_reason content_hash promoted_at review_count problems"
)


def shown_fields(m: Memory, preview: int) -> ShownHead:
    """The fields of `m`'s view before its score (id … strength), that do not move with the
    clock. Its tags and entities are tuples here."""
    content = m.content
    if preview and len(content) > preview:
        content = content[:preview].rstrip() + "…"
    return {
        "id": m.id,
        "title": m.title,
        "path": m.path,
        "status": m.status,
        "content": content,
        "tags": m.tags,
        "entities": m.entities,
        "source": m.source,
        "context": m.context,
        "created": format_time(m.created),
        "last_used": format_time(m.last_used),
        "use_count": m.use_count,
        "use_days": m.use_days,
        "strength": float(round(m.strength, 4)),
    }


@functools.cache
def _view_model() -> type[MemoryView]:
    from cortexgraph_vault.models import MemoryView

    return MemoryView


def memory_view(
    m: Memory,
    now: datetime,
    score: float,
    decay: DecayConfig,
    rules: RuleConfig,
    *,
    preview: int = 0,
    include_score: bool = True,
) -> MemoryView:
    active = m.status == "active"
    reason = None
    until = 0.0
    if active:  # what the rules make of a memory in use; none of it for the others
        fields = m.decay
        # the first thing promote_reason asks; what is no longer true is never promoted
        if m.use_days >= rules.promote_use_days and not m.superseded:
            reason = promote_reason(fields, score, now, rules)
        # at its last use, less the time since
        after = fields.seconds_until(rules.forget_threshold, m.last_used, decay)
        until = max(0.0, after - max(0.0, (now - m.last_used).total_seconds()))
    values: dict[str, object] = {
        **shown_fields(m, preview),
        "score": float(round(score, 6)) if include_score else None,
        "age_days": age_days(m.created, now),
        "review_priority": float(round(review_priority(score, rules), 4)) if active else 0.0,
        "days_until_forgotten": (
            None if not active or until == float("inf") else round(until / DAY, 3)
        ),
        "promotable": reason is not None,
        "promote_reason": reason,
        "content_hash": m.content_hash,
        "promoted_at": format_time(m.promoted_at) if m.promoted_at else None,
        "review_count": m.review_count,
        "problems": m.problems,
        "relations": None,
    }
    # lists of their own, as validating the tuples would make them
    values["tags"] = list(m.tags)
    values["entities"] = list(m.entities)
    values["problems"] = list(m.problems)
    return unchecked(_view_model(), values, _GIVEN)
