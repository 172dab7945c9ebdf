"""The memory score of many memories at once equals `score_at` of each, bit for bit, for
every decay model — including future last-used times, huge use counts and zero strength."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cortexgraph_vault.core.decay import DECAY_MODELS, DecayConfig, score_at
from cortexgraph_vault.core.decay_arrays import highest, scores_of

NOW_TS = 1_796_126_400.0


@pytest.mark.parametrize("model", DECAY_MODELS)
def test_scores_of_equal_score_at_bit_for_bit(model: str) -> None:
    cfg = DecayConfig(model=model)  # type: ignore[arg-type]
    rng = random.Random(model)
    rows = [
        (rng.choice([0, 1, 2, 7, 10**6]), NOW_TS - rng.uniform(-5e5, 4e7), rng.choice([0.0, 0.3, 1.0, 2.0]))
        for _ in range(3000)
    ]  # fmt: skip
    want = [score_at(u, t, s, NOW_TS, cfg) for u, t, s in rows]
    got = scores_of(
        np.array([float(max(1, u)) for u, _, _ in rows]),
        np.array([t for _, t, _ in rows]),
        np.array([s for _, _, s in rows]),
        NOW_TS,
        cfg,
    )
    assert got.tolist() == want


def test_an_unknown_model_is_named() -> None:
    cfg = DecayConfig(model="linear")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="linear"):
        scores_of(np.ones(1), np.zeros(1), np.ones(1), NOW_TS, cfg)


@pytest.mark.parametrize("model", DECAY_MODELS)
@pytest.mark.parametrize("end", [1, 7, 50, 250, 2999, 3000, 5000])
def test_highest_holds_every_row_of_the_first_scores_with_its_exact_score(
    model: str, end: int
) -> None:
    """A page by score takes the rows `highest` gives: every row scoring as high as the
    end-th (ties included) must be among them, scored exactly as `scores_of` scores it."""
    cfg = DecayConfig(model=model)  # type: ignore[arg-type]
    rng = random.Random(f"{model}-{end}")
    n = 3000
    # few distinct values: many rows score exactly alike; some future last uses, zero strength
    uses = np.array([float(rng.choice([1, 2, 5, 10**6])) for _ in range(n)])
    last = np.array([NOW_TS - rng.choice([-3e5, 0.0, 3600.0, 86400.0, 9e6, 4e7]) for _ in range(n)])
    strengths = np.array([rng.choice([0.0, 0.5, 1.0, 2.0]) for _ in range(n)])
    rows, exact = highest(uses, last, strengths, NOW_TS, cfg, end)
    every = scores_of(uses, last, strengths, NOW_TS, cfg)
    assert exact.tolist() == every[rows].tolist()
    kth = np.sort(every)[::-1][min(end, n) - 1]
    assert set(np.flatnonzero(every >= kth).tolist()) <= set(rows.tolist())
    if end <= 250:  # a page's worth: the others were not scored exactly
        assert len(rows) < n


def test_highest_of_scores_all_zero_or_tiny() -> None:
    cfg = DecayConfig(model="exponential")
    n = 600
    zero = highest(np.ones(n), np.full(n, NOW_TS), np.zeros(n), NOW_TS, cfg, 10)
    assert zero[0].tolist() == list(range(n))  # all tie at 0: all may be first
    # decayed to subnormal numbers: each row still scored exactly, the highest among them
    last = NOW_TS - np.linspace(2.66e8, 2.79e8, n)  # exp(-708) to exp(-746)
    rows, exact = highest(np.ones(n), last, np.ones(n), NOW_TS, cfg, 10)
    every = scores_of(np.ones(n), last, np.ones(n), NOW_TS, cfg)
    assert exact.tolist() == every[rows].tolist()
    assert set(np.argsort(-every, kind="stable")[:10].tolist()) <= set(rows.tolist())
