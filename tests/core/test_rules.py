from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cortexgraph_vault.core.decay import DecayConfig
from cortexgraph_vault.core.rules import (
    DecayFields,
    RuleConfig,
    is_cross_domain,
    memory_score,
    promote_reason,
    review_priority,
    should_forget,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
RULES = RuleConfig()


def a_memory(
    *, use_count: int = 1, age_days: float = 0, idle_days: float = 0, strength: float = 1.0
) -> DecayFields:
    return DecayFields(
        created=NOW - timedelta(days=age_days),
        last_used=NOW - timedelta(days=idle_days),
        use_count=use_count,
        strength=strength,
    )


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
