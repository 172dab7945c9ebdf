"""A memory as every door shows it: its fields, its score and what the rules make of it now."""

from __future__ import annotations

import weakref
from datetime import datetime
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.core.decay import DAY, DecayConfig, age_days, seconds_until_score
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.rules import RuleConfig, promote_reason, review_priority
from cortexgraph_vault.core.times import format_time

if TYPE_CHECKING:  # pydantic models are imported where a view is made, not at every start
    from cortexgraph_vault.models import MemoryView


# id of a memory (and the preview's length) → (a weak reference to it, the fields of its view
# that do not move with the clock). A memory is immutable (a change makes a new one), and a
# list page or a search shows the same memories call after call: 50 views a page, ~2/5 of
# each view's work. Bounded: emptied when it grows past KEPT_MAX (old memories' entries).
KEPT_MAX = 4096
_kept: dict[tuple[int, int], tuple[weakref.ref[Memory], dict[str, Any]]] = {}


def _fields(m: Memory, preview: int) -> dict[str, Any]:
    key = (id(m), preview)
    found = _kept.get(key)
    if found is not None and found[0]() is m:
        return found[1]
    content = m.content
    if preview and len(content) > preview:
        content = content[:preview].rstrip() + "…"
    fields = {
        "id": m.id, "title": m.title, "path": m.path, "status": m.status, "content": content,
        "tags": m.tags, "entities": m.entities, "source": m.source, "context": m.context,
        "created": format_time(m.created), "last_used": format_time(m.last_used),
        "use_count": m.use_count, "use_days": m.use_days, "strength": round(m.strength, 4),
        "content_hash": m.content_hash,
        "promoted_at": format_time(m.promoted_at) if m.promoted_at else None,
        "review_count": m.review_count, "problems": m.problems,
    }  # fmt: skip
    if len(_kept) >= KEPT_MAX:
        _kept.clear()
    _kept[key] = (weakref.ref(m), fields)
    return fields


def memory_view(m: Memory, now: datetime, score: float, decay: DecayConfig, rules: RuleConfig,
                *, preview: int = 0, include_score: bool = True) -> MemoryView:  # fmt: skip
    from cortexgraph_vault.models import MemoryView

    active = m.status == "active"
    reason = until = None
    if active:  # what the rules make of a memory in use; none of it for the others
        reason = promote_reason(m.decay, score, now, rules)
        until = seconds_until_score(
            rules.forget_threshold,
            use_count=m.use_count,
            last_used=m.last_used,
            strength=m.strength,
            now=now,
            cfg=decay,
        )
    # validated from one dict: keywords took 1.6 times as long (a list page makes 50 views);
    # the tuples of tags, entities and problems are made lists by the validation
    return MemoryView.model_validate(
        {
            **_fields(m, preview),
            "score": round(score, 6) if include_score else None,
            "age_days": age_days(m.created, now),
            "review_priority": round(review_priority(score, rules), 4) if active else 0.0,
            "days_until_forgotten": (
                None if until is None or until == float("inf") else round(until / DAY, 3)
            ),
            "promotable": reason is not None,
            "promote_reason": reason,
        }
    )
