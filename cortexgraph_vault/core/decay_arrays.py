"""The memory score (core/decay.py) of many memories at one instant, as arrays.

The values are bit for bit those of `score_at`: additions, products and quotients are
exact IEEE operations in numpy as in Python, but numpy's own `exp` and `power` may differ
from the C library's in the last bit (vectorised versions), so those two go through Python's
`math.exp` and `pow` element by element — still in C, with no Python frame per memory.
Pure: no clock, no files.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import repeat

import numpy as np

from cortexgraph_vault.core.decay import DecayConfig


def _pow(base: np.ndarray, exponent: float) -> np.ndarray:
    return np.fromiter(map(pow, base.tolist(), repeat(exponent)), np.float64, len(base))


def _exp(x: np.ndarray) -> np.ndarray:
    return np.fromiter(map(math.exp, x.tolist()), np.float64, len(x))


def _decay(
    dt: np.ndarray,
    cfg: DecayConfig,
    exp: Callable[[np.ndarray], np.ndarray],
    power: Callable[[np.ndarray, float], np.ndarray],
) -> np.ndarray:
    dt = np.maximum(0.0, dt)
    if cfg.model == "exponential":
        return exp(-cfg.exp_lambda * dt)
    if cfg.model == "power_law":
        return power(1.0 + dt / cfg.pl_t0, -cfg.pl_alpha)
    if cfg.model == "two_component":
        w = cfg.tc_weight_fast
        return w * exp(-cfg.tc_lambda_fast * dt) + (1 - w) * exp(-cfg.tc_lambda_slow * dt)
    raise ValueError(f"unknown decay model {cfg.model!r}")


def scores_of(
    use_bases: np.ndarray,
    last_used_ts: np.ndarray,
    strengths: np.ndarray,
    now_ts: float,
    cfg: DecayConfig,
) -> np.ndarray:
    """`score_at` of each (float(max(1, use count)), last used, strength), in the same order
    of operations (an int ** float is float(int) ** float)."""
    decay = _decay(now_ts - last_used_ts, cfg, _exp, _pow)  # negative elapsed counts as 0
    out: np.ndarray = _pow(use_bases, cfg.beta) * decay * strengths
    return out


# numpy's `power` and `exp` are within a few units in the last place of the C library's
# (~1e-16 relative): this margin is millions of times wider
APPROX_MARGIN = 1e-9


def highest(
    use_bases: np.ndarray,
    last_used_ts: np.ndarray,
    strengths: np.ndarray,
    now_ts: float,
    cfg: DecayConfig,
    end: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The rows that may be among the `end` highest scores (every row scoring as high as the
    end-th, ties included, and maybe a few more), and their exact scores (`scores_of`).

    A list page of 3,000 memories scored every one exactly, two Python `pow` calls each. Here
    all are scored the quick way (numpy's own `power` and `exp`, no Python call per row, each
    within APPROX_MARGIN of the exact score), and only the rows within twice the margin
    of the quick end-th are scored exactly: every row whose exact score is as high as the
    exact end-th is among them (each quick score is within the margin of its exact one, and
    so is the quick end-th of the exact end-th)."""
    n = len(use_bases)
    rows = np.arange(n)
    if 0 < end < n:
        decay = _decay(now_ts - last_used_ts, cfg, np.exp, np.power)
        quick = np.power(use_bases, cfg.beta) * decay * strengths
        if np.isfinite(quick).all():
            kth = np.partition(quick, n - end)[n - end]  # the end-th highest
            # the margin is relative to the largest score, with a floor far above the
            # rounding of the smallest (subnormal) numbers
            margin = APPROX_MARGIN * float(np.abs(quick).max()) + 1e-290
            rows = np.flatnonzero(quick >= kth - 2 * margin)
    exact = scores_of(use_bases[rows], last_used_ts[rows], strengths[rows], now_ts, cfg)
    return rows, exact
