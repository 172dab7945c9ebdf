"""How many uses until promotion."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cortexgraph_vault.core.decay import DecayConfig
from cortexgraph_vault.core.outlook import uses_to_promote
from cortexgraph_vault.core.rules import DecayFields, RuleConfig, default_use_days

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
DECAY = DecayConfig()
RULES = RuleConfig()


def a_memory(
    *,
    use_count: int = 1,
    age_days: float = 1,
    unused_days: float = 0,
    strength: float = 1.0,
    use_days: int | None = None,
) -> DecayFields:
    """use_days, unless given, as a note without the field is read."""
    created, last_used = NOW - timedelta(days=age_days), NOW - timedelta(days=unused_days)
    days = default_use_days(created, last_used, use_count) if use_days is None else use_days
    return DecayFields(created, last_used, use_count, strength, days)


def test_a_fresh_memory_needs_one_more_use_to_qualify_on_score() -> None:
    # Saved just now: score 1.0 ≥ 0.65 but a save alone never promotes; one use does.
    assert uses_to_promote(a_memory(), NOW, DECAY, RULES) == 1


def test_already_promotable_needs_none() -> None:
    assert uses_to_promote(a_memory(use_count=5, age_days=3, unused_days=2), NOW, DECAY, RULES) == 0


def test_a_weak_memory_needs_enough_uses_to_lift_its_score() -> None:
    # Used just now, score = n^0.6 · 0.3: 3 uses → 0.580, 4 uses → 0.689 ≥ 0.65. The 14-day
    # use-count window is over, so only the score rule can promote it: 3 more uses.
    weak = a_memory(use_count=1, age_days=30, strength=0.3)
    assert uses_to_promote(weak, NOW, DECAY, RULES) == 3


def test_strength_zero_is_out_of_reach() -> None:
    assert uses_to_promote(a_memory(age_days=30, strength=0.0), NOW, DECAY, RULES) is None
