from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cortexgraph_vault.core.decay import DecayConfig
from cortexgraph_vault.core.rules import (
    DecayFields,
    RuleConfig,
    day_of,
    default_use_days,
    is_cross_domain,
    memory_score,
    promote_reason,
    promote_window_left,
    review_priority,
    should_forget,
    use_days_after_use,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
RULES = RuleConfig()


def a_memory(
    *,
    use_count: int = 1,
    age_days: float = 0,
    idle_days: float = 0,
    strength: float = 1.0,
    use_days: int | None = None,
) -> DecayFields:
    """use_days, unless given, as a note without the field is read."""
    created, last_used = NOW - timedelta(days=age_days), NOW - timedelta(days=idle_days)
    days = default_use_days(created, last_used, use_count) if use_days is None else use_days
    return DecayFields(created, last_used, use_count, strength, days)


def reason(m: DecayFields) -> str | None:
    return promote_reason(m, memory_score(m, NOW, DecayConfig()), NOW, RULES)


def test_a_fresh_save_is_never_a_promotion_candidate() -> None:
    assert reason(a_memory(use_count=1, strength=2.0)) is None


def test_promote_on_score_after_a_second_use() -> None:
    assert "score" in (reason(a_memory(use_count=2, age_days=1)) or "")


def test_promote_on_five_uses_within_window_but_not_after_it() -> None:
    assert "5 times" in (reason(a_memory(use_count=5, age_days=10, idle_days=9)) or "")
    assert reason(a_memory(use_count=5, age_days=30, idle_days=29)) is None


def test_forget_below_threshold_only() -> None:
    assert should_forget(0.049, RULES)
    assert not should_forget(0.05, RULES)


@pytest.mark.parametrize(
    ("score", "expected"),
    [(0.10, 0.0), (0.15, 0.0), (0.20, 0.75), (0.25, 1.0), (0.30, 0.75), (0.35, 0.0), (0.5, 0.0)],
)
def test_review_priority(score: float, expected: float) -> None:
    assert review_priority(score, RULES) == pytest.approx(expected, abs=1e-9)


def test_cross_domain() -> None:
    assert is_cross_domain({"python", "work"}, {"cooking", "family"}, RULES)
    assert not is_cross_domain({"python", "work"}, {"python", "work"}, RULES)
    assert not is_cross_domain(set(), {"x"}, RULES)


def test_cross_domain_threshold_is_a_rule() -> None:
    memory, context = {"python", "work", "tools"}, {"python", "cooking", "family"}  # Jaccard 0.2
    assert is_cross_domain(memory, context, RuleConfig(cross_domain_threshold=0.3))
    assert not is_cross_domain(memory, context, RuleConfig(cross_domain_threshold=0.2))


def test_uses_on_the_day_of_the_save_never_promote() -> None:
    # A touch minutes after the save, or five uses in one afternoon: all on day 0.
    assert reason(a_memory(use_count=2, age_days=0.01, use_days=1)) is None
    assert reason(a_memory(use_count=5, age_days=0.5, use_days=1)) is None


def test_a_use_a_day_after_the_save_earns_promotion_on_score() -> None:
    m = a_memory(use_count=2, age_days=1.5, idle_days=0, use_days=2)
    assert reason(m) == f"score {memory_score(m, NOW, DecayConfig()):.3f} ≥ 0.65, used on 2 days"


def test_five_uses_on_two_days_within_the_window_promote_even_with_a_low_score() -> None:
    m = a_memory(use_count=5, age_days=10, idle_days=9, strength=0.2, use_days=2)
    assert reason(m) == "used 5 times on 2 days within 14 days (≥ 5)"


def test_uses_on_five_separate_days_promote_at_any_age_whatever_the_score() -> None:
    """Saved on day 15, used on days 18, 23, 30 and 37, looked at by maintenance on day 59:
    its score has fallen under the bar and the window is long past, but five days of use are
    spaced repetition's plainest sign. Four days are not enough on that account."""
    m = a_memory(use_count=5, age_days=44, idle_days=22, use_days=5)
    assert memory_score(m, NOW, DecayConfig()) < RULES.promote_threshold
    assert reason(m) == "used on 5 days (≥ 5)"
    assert reason(a_memory(use_count=5, age_days=44, idle_days=22, use_days=4)) is None
    faded = a_memory(use_count=5, age_days=400, idle_days=380, use_days=5)
    assert memory_score(faded, NOW, DecayConfig()) < RULES.forget_threshold
    assert reason(faded) is None  # gc's to forget, not promotion's to keep
    fewer = RuleConfig(promote_spaced_days=4)
    four = a_memory(use_count=4, age_days=44, idle_days=22, use_days=4)
    assert promote_reason(four, memory_score(four, NOW, DecayConfig()), NOW, fewer) is not None


def test_the_number_of_days_is_a_setting() -> None:
    m = a_memory(use_count=3, age_days=3, use_days=2)
    assert reason(m) is not None
    strict = RuleConfig(promote_use_days=3)
    assert promote_reason(m, memory_score(m, NOW, DecayConfig()), NOW, strict) is None


def test_days_are_counted_from_the_save_not_by_the_calendar() -> None:
    saved = datetime(2026, 11, 29, 23, 59, tzinfo=UTC)
    assert day_of(saved, saved + timedelta(minutes=2)) == 0  # 00:01 the next calendar day
    assert day_of(saved, saved + timedelta(hours=24)) == 1
    assert day_of(saved, saved - timedelta(hours=1)) == 0  # a clock skew is no earlier day


def test_a_use_adds_a_day_only_on_a_later_day_than_the_last_use() -> None:
    saved = a_memory(use_count=1, age_days=0)
    minutes_later = NOW + timedelta(minutes=5)
    assert use_days_after_use(saved, minutes_later) == 1
    next_day = NOW + timedelta(hours=30)
    assert use_days_after_use(saved, next_day) == 2
    used_again = DecayFields(saved.created, next_day, 2, 1.0, 2)
    assert use_days_after_use(used_again, next_day + timedelta(hours=1)) == 2
    assert use_days_after_use(used_again, next_day + timedelta(hours=20)) == 3


def test_a_note_without_use_days_counts_a_later_reuse_as_a_second_day() -> None:
    created = NOW - timedelta(days=3)
    assert default_use_days(created, created, 1) == 1
    assert default_use_days(created, created + timedelta(hours=2), 4) == 1
    assert default_use_days(created, created + timedelta(days=2), 2) == 2


def test_the_use_count_window_closes_at_its_length() -> None:
    assert promote_window_left(a_memory(age_days=4), NOW, RULES) == 10.0
    assert promote_window_left(a_memory(age_days=14), NOW, RULES) == 0.0
    assert promote_window_left(a_memory(age_days=15), NOW, RULES) is None
