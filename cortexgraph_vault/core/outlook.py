"""What lies ahead for a memory: how many uses until it is promoted. Pure; time is passed in."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from cortexgraph_vault.core.decay import DAY, DecayConfig
from cortexgraph_vault.core.rules import DecayFields, RuleConfig, memory_score, promote_reason

MAX_USES_LOOKED_AT = 1000


def uses_to_promote(
    m: DecayFields, now: datetime, decay: DecayConfig, rules: RuleConfig
) -> int | None:
    """Uses after which `m` qualifies for promotion, each on a day of its own (promotion asks
    for use spread over days), scored as if made now.

    0 when it qualifies already; None when no reachable number of uses would do (a strength
    of 0, say).
    """
    for extra in range(MAX_USES_LOOKED_AT + 1):
        fields = (
            m
            if extra == 0
            else replace(
                m,
                use_count=m.use_count + extra,
                last_used=max(now, m.last_used),
                use_days=m.use_days + extra,
            )
        )
        if promote_reason(fields, memory_score(fields, now, decay), now, rules) is not None:
            return extra
    return None


def promote_window_days_left(m: DecayFields, now: datetime, rules: RuleConfig) -> float | None:
    """Days left in which reaching the use-count rule still promotes; None once it has closed."""
    left = rules.promote_time_window_days - (now - m.created).total_seconds() / DAY
    return round(left, 3) if left >= 0 else None
