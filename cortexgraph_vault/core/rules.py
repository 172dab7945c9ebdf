"""Forget, promote and review rules: pure functions of a memory's decay fields and the time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cortexgraph_vault.core.decay import DAY, DecayConfig, score, seconds_until_score
from cortexgraph_vault.core.wording import count


@dataclass(frozen=True)
class RuleConfig:
    forget_threshold: float = 0.05
    promote_threshold: float = 0.65
    promote_use_count: int = 5
    promote_time_window_days: float = 14.0
    promote_use_days: int = 2
    promote_spaced_days: int = 5
    danger_zone_min: float = 0.15
    danger_zone_max: float = 0.35
    cross_domain_threshold: float = 0.3


@dataclass(frozen=True)
class DecayFields:
    created: datetime
    last_used: datetime
    use_count: int
    strength: float
    use_days: int = 1

    def seconds_until(self, threshold: float, now: datetime, cfg: DecayConfig) -> float:
        """`seconds_until_score` of a memory with these fields, left alone from `now`."""
        return seconds_until_score(
            threshold,
            use_count=self.use_count,
            last_used=self.last_used,
            strength=self.strength,
            now=now,
            cfg=cfg,
        )


def day_of(created: datetime, moment: datetime) -> int:
    """Which day of a memory's life `moment` falls on: 0 the first 24 hours after the save,
    1 the next 24, ... Counted from the save, not by the calendar, so a use at 00:01 of a save
    made at 23:59 is the same day, whatever the time zone."""
    return max(0, int((moment - created).total_seconds() // DAY))


def use_days_after_use(m: DecayFields, now: datetime) -> int:
    """`use_days` once a use at `now` is added: one more when it falls on a later day of the
    memory's life than its last use. Only real uses (save, touch, observe, recall) call this;
    a restore does not, so bringing a memory back never counts toward its promotion."""
    return m.use_days + 1 if day_of(m.created, now) > day_of(m.created, m.last_used) else m.use_days


def default_use_days(created: datetime, last_used: datetime, use_count: int) -> int:
    """For a note without `use_days` (older notes, hand-made or imported ones): its first and
    last use are on two days when it was used again at least a day after it was saved."""
    return 2 if use_count >= 2 and day_of(created, last_used) >= 1 else 1


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

    Long-term memory is earned by use spread over time (spaced repetition): uses on at least
    `promote_use_days` distinct days of its life (the save's day counts; by default that means
    a use at least a day after the save). Then either its score is high, or it was used often
    within the window, or it was used on `promote_spaced_days` distinct days at any age while
    it has not faded out: the strongest sign of all, which must not hang on whether maintenance
    ran soon after the last use. Uses on one afternoon, or a restore after gc, never promote.
    """
    if m.use_days < rules.promote_use_days:
        return None
    # the wording only for a memory that is promoted (a list page asks of 50 memories)
    if current_score >= rules.promote_threshold and m.use_count >= 2:
        days = f"on {count(m.use_days, 'day')}"
        return f"score {current_score:.3f} ≥ {rules.promote_threshold:g}, used {days}"
    age_days = (now - m.created).total_seconds() / DAY
    if m.use_count >= rules.promote_use_count and age_days <= rules.promote_time_window_days:
        days = f"on {count(m.use_days, 'day')}"
        return (
            f"used {count(m.use_count, 'time')} {days} within "
            f"{rules.promote_time_window_days:g} days (≥ {rules.promote_use_count})"
        )
    if m.use_days >= rules.promote_spaced_days and not should_forget(current_score, rules):
        return f"used on {count(m.use_days, 'day')} (≥ {rules.promote_spaced_days})"
    return None


def promote_window_left(m: DecayFields, now: datetime, rules: RuleConfig) -> float | None:
    """Days left in which reaching the use-count rule still promotes; None once it has closed."""
    left = rules.promote_time_window_days - (now - m.created).total_seconds() / DAY
    return round(left, 3) if left >= 0 else None


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
