"""What lies ahead for a memory: how many uses until it is promoted. Pure; time is passed in.

How long the use-count window stays open is the rule's own answer (`rules.promote_window_left`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from cortexgraph_vault.core.decay import DecayConfig
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
