"""A memory as every door shows it: its fields, its score and what the rules make of it now."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from cortexgraph_vault.core.decay import DAY, DecayConfig, age_days, seconds_until_score
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.rules import RuleConfig, promote_reason, review_priority
from cortexgraph_vault.core.times import format_time

if TYPE_CHECKING:  # pydantic models are imported where a view is made, not at every start
    from cortexgraph_vault.models import MemoryView


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
    content = m.content
    if preview and len(content) > preview:
        content = content[:preview].rstrip() + "…"
    # validated from one dict: keywords took 1.6 times as long (a list page makes 50 views)
    return MemoryView.model_validate(
        {
            "id": m.id,
            "title": m.title,
            "path": m.path,
            "status": m.status,
            "content": content,
            "tags": list(m.tags),
            "entities": list(m.entities),
            "source": m.source,
            "context": m.context,
            "created": format_time(m.created),
            "last_used": format_time(m.last_used),
            "use_count": m.use_count,
            "use_days": m.use_days,
            "strength": round(m.strength, 4),
            "score": round(score, 6) if include_score else None,
            "age_days": age_days(m.created, now),
            "review_priority": round(review_priority(score, rules), 4) if active else 0.0,
            "days_until_forgotten": (
                None if until is None or until == float("inf") else round(until / DAY, 3)
            ),
            "promotable": reason is not None,
            "promote_reason": reason,
            "content_hash": m.content_hash,
            "promoted_at": format_time(m.promoted_at) if m.promoted_at else None,
            "review_count": m.review_count,
            "problems": list(m.problems),
        }
    )
