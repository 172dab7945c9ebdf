"""Forget, promote and review rules: pure functions of a memory's decay fields and the time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cortexgraph_vault.core.decay import DAY, DecayConfig, score


@dataclass(frozen=True)
class RuleConfig:
    forget_threshold: float = 0.05
    promote_threshold: float = 0.65
    promote_use_count: int = 5
    promote_time_window_days: float = 14.0
    danger_zone_min: float = 0.15
    danger_zone_max: float = 0.35
    cross_domain_threshold: float = 0.3


@dataclass(frozen=True)
class DecayFields:
    created: datetime
    last_used: datetime
    use_count: int
    strength: float


def memory_score(m: DecayFields, now: datetime, cfg: DecayConfig) -> float:
    return score(
        use_count=m.use_count, last_used=m.last_used, strength=m.strength, now=now, cfg=cfg
    )


def should_forget(current_score: float, rules: RuleConfig) -> bool:
    return current_score < rules.forget_threshold


def promote_reason(
    m: DecayFields, current_score: float, now: datetime, rules: RuleConfig
) -> str | None:
    """Why `m` deserves promotion, or None.

    A save is the first use, so a memory nobody has come back to (use_count 1) never
    qualifies on score alone: the system we replace made every new memory a candidate.
    """
    if current_score >= rules.promote_threshold and m.use_count >= 2:
        return f"score {current_score:.3f} ≥ {rules.promote_threshold} after {m.use_count} uses"
    age_days = (now - m.created).total_seconds() / DAY
    if m.use_count >= rules.promote_use_count and age_days <= rules.promote_time_window_days:
        return (
            f"used {m.use_count} times within {rules.promote_time_window_days:g} days "
            f"(≥ {rules.promote_use_count})"
        )
    return None


def in_danger_zone(current_score: float, rules: RuleConfig) -> bool:
    return rules.danger_zone_min <= current_score <= rules.danger_zone_max


def review_priority(current_score: float, rules: RuleConfig) -> float:
    """1 at the middle of the danger zone, falling to 0 at its edges, 0 outside it."""
    if not in_danger_zone(current_score, rules):
        return 0.0
    mid = (rules.danger_zone_min + rules.danger_zone_max) / 2
    half = (rules.danger_zone_max - rules.danger_zone_min) / 2
    if half <= 0:
        return 1.0
    return min(1.0, max(0.0, 1 - ((current_score - mid) / half) ** 2))


def is_cross_domain(memory_tags: set[str], context_tags: set[str], rules: RuleConfig) -> bool:
    """Used in a context whose tags barely overlap the memory's own (Jaccard below
    `rules.cross_domain_threshold`)."""
    if not memory_tags or not context_tags:
        return False
    jaccard = len(memory_tags & context_tags) / len(memory_tags | context_tags)
    return jaccard < rules.cross_domain_threshold
