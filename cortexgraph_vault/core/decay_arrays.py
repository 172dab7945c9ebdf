"""The memory score (core/decay.py) of many memories at one instant, as arrays.

The values are bit for bit those of `score_at`: additions, products and quotients are
exact IEEE operations in numpy as in Python, but numpy's own `exp` and `power` may differ
from the C library's in the last bit (vectorised versions), so those two go through Python's
`math.exp` and `pow` element by element — still in C, with no Python frame per memory.
Pure: no clock, no files.
"""

from __future__ import annotations

import math
from itertools import repeat

import numpy as np

from cortexgraph_vault.core.decay import DecayConfig


def _pow(base: np.ndarray, exponent: float) -> np.ndarray:
    return np.fromiter(map(pow, base.tolist(), repeat(exponent)), np.float64, len(base))


def _exp(x: np.ndarray) -> np.ndarray:
    return np.fromiter(map(math.exp, x.tolist()), np.float64, len(x))


def use_factors(use_bases: np.ndarray, cfg: DecayConfig) -> np.ndarray:
    """`use_factor` of each float(max(1, use count)): an int ** float is float(int) ** float."""
    return _pow(use_bases, cfg.beta)


def decay_factors(dt: np.ndarray, cfg: DecayConfig) -> np.ndarray:
    """`decay_factor` of each elapsed time (seconds; negative counts as 0)."""
    dt = np.maximum(0.0, dt)
    if cfg.model == "exponential":
        return _exp(-cfg.exp_lambda * dt)
    if cfg.model == "power_law":
        return _pow(1.0 + dt / cfg.pl_t0, -cfg.pl_alpha)
    if cfg.model == "two_component":
        w = cfg.tc_weight_fast
        fast = _exp(-cfg.tc_lambda_fast * dt)
        slow = _exp(-cfg.tc_lambda_slow * dt)
        return w * fast + (1 - w) * slow
    raise ValueError(f"unknown decay model {cfg.model!r}")


def scores_of(
    use_bases: np.ndarray,
    last_used_ts: np.ndarray,
    strengths: np.ndarray,
    now_ts: float,
    cfg: DecayConfig,
) -> np.ndarray:
    """`score_at` of each (float(max(1, use count)), last used, strength), in the same order
    of operations."""
    out: np.ndarray = (
        use_factors(use_bases, cfg) * decay_factors(now_ts - last_used_ts, cfg) * strengths
    )
    return out
