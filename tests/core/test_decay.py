"""Worked values of REFERENCE §1 for every model: the system we replace ignored the setting."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from cortexgraph_vault.core.decay import (
    DAY,
    DecayConfig,
    decay_factor,
    score,
    scores_at,
    seconds_until_score,
)

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

WORKED = {
    "exponential": {1: 0.7937, 3: 0.5000, 7: 0.1984, 14: 0.0394, 30: 0.0010},
    "power_law": {1: 0.7540, 3: 0.5000, 7: 0.2934, 14: 0.1667, 30: 0.0814},
    "two_component": {0.5: 0.6357, 1: 0.4469, 3: 0.2338, 7: 0.1500, 14: 0.0749},
}
TIME_TO_FORGET_DAYS = {"exponential": 12.97, "power_law": 48.64, "two_component": 18.08}


def model(name: str) -> DecayConfig:
    return replace(DecayConfig(), model=name)


@pytest.mark.parametrize(
    ("name", "days", "expected"),
    [(name, d, v) for name, table in WORKED.items() for d, v in table.items()],
)
def test_decay_factor_matches_worked_values(name: str, days: float, expected: float) -> None:
    assert round(decay_factor(days * DAY, model(name)), 4) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("name", list(WORKED))
def test_models_really_differ(name: str) -> None:
    others = [m for m in WORKED if m != name]
    mine = decay_factor(14 * DAY, model(name))
    assert all(abs(mine - decay_factor(14 * DAY, model(o))) > 0.01 for o in others)


@pytest.mark.parametrize(("name", "days"), list(TIME_TO_FORGET_DAYS.items()))
def test_time_from_one_to_forget_threshold(name: str, days: float) -> None:
    seconds = seconds_until_score(
        0.05, use_count=1, last_used=T0, strength=1.0, now=T0, cfg=model(name)
    )
    assert seconds / DAY == pytest.approx(days, abs=0.01)


def test_time_until_counts_from_now_and_is_zero_once_below() -> None:
    cfg = model("exponential")
    full = seconds_until_score(0.05, use_count=1, last_used=T0, strength=1.0, now=T0, cfg=cfg)
    later = T0 + timedelta(days=5)
    left = seconds_until_score(0.05, use_count=1, last_used=T0, strength=1.0, now=later, cfg=cfg)
    assert left == pytest.approx(full - 5 * DAY)
    gone = T0 + timedelta(days=20)
    assert (
        seconds_until_score(0.05, use_count=1, last_used=T0, strength=1.0, now=gone, cfg=cfg) == 0
    )
    assert math.isinf(
        seconds_until_score(0.0, use_count=1, last_used=T0, strength=1.0, now=T0, cfg=cfg)
    )


def test_score_uses_count_and_strength() -> None:
    cfg = model("power_law")
    s = score(use_count=4, last_used=T0, strength=1.5, now=T0 + timedelta(days=3), cfg=cfg)
    assert s == pytest.approx(4**0.6 * 0.5 * 1.5, rel=1e-9)


def test_future_last_used_counts_as_now() -> None:
    cfg = model("power_law")
    assert score(use_count=1, last_used=T0 + timedelta(days=1), strength=1, now=T0, cfg=cfg) == 1.0


def test_a_fresh_save_scores_one_not_above() -> None:
    # The replaced system's (n+1)^β made a brand-new memory score 1.52.
    assert score(use_count=1, last_used=T0, strength=1.0, now=T0, cfg=DecayConfig()) == 1.0


@pytest.mark.parametrize("name", ["exponential", "power_law", "two_component"])
def test_scores_at_many_rows_equal_one_score_each(name: str) -> None:
    cfg = model(name)
    now = datetime(2026, 12, 1, tzinfo=UTC)
    rows = [(u, now - timedelta(days=d), s) for u in (0, 1, 7) for d in (-2, 0, 0.5, 9, 400)
            for s in (0.2, 1.0, 2.0)]  # fmt: skip
    many = scores_at([(u, t.timestamp(), s) for u, t, s in rows], now.timestamp(), cfg)
    one = [score(use_count=u, last_used=t, strength=s, now=now, cfg=cfg) for u, t, s in rows]
    assert many == pytest.approx(one, rel=1e-12)
    assert len(set(many)) > 20  # the rows really differ
