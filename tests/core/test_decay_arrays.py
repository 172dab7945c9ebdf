"""The memory score of many memories at once equals `score_at` of each, bit for bit, for
every decay model — including future last-used times, huge use counts and zero strength."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cortexgraph_vault.core.decay import DECAY_MODELS, DecayConfig, score_at
from cortexgraph_vault.core.decay_arrays import scores_of

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
