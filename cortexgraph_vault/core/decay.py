"""Decay models and the memory score.

score = n^β · D(Δt) · s with n = use_count (a save is the first use, so n ≥ 1),
Δt = max(0, now − last_used) in seconds and s = strength; D is the model the settings name.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

DAY = 86400.0

DecayModelName = Literal["exponential", "power_law", "two_component"]
DECAY_MODELS: tuple[DecayModelName, ...] = ("exponential", "power_law", "two_component")


@dataclass(frozen=True)
class DecayConfig:
    model: DecayModelName = "power_law"
    beta: float = 0.6
    # exponential: λ = ln 2 / half-life (3 days)
    exp_lambda: float = math.log(2) / (3 * DAY)
    # power law: D = (1 + Δt/t0)^(−α), t0 chosen so D(half-life) = 0.5
    pl_alpha: float = 1.1
    pl_halflife_days: float = 3.0
    # two components: a fast and a slow exponential, mixed by w
    tc_lambda_fast: float = 1.603e-5
    tc_lambda_slow: float = 1.147e-6
    tc_weight_fast: float = 0.7

    @property
    def pl_t0(self) -> float:
        return self.pl_halflife_days * DAY / (2 ** (1 / self.pl_alpha) - 1)


def decay_factor(dt_seconds: float, cfg: DecayConfig) -> float:
    """D(Δt) in (0, 1]; negative Δt (a clock skew, a future last_used) counts as 0."""
    dt = max(0.0, dt_seconds)
    if cfg.model == "exponential":
        return math.exp(-cfg.exp_lambda * dt)
    if cfg.model == "power_law":
        # float ** float is typed Any (a negative base gives a complex); the base is ≥ 1 here
        factor: float = (1.0 + dt / cfg.pl_t0) ** (-cfg.pl_alpha)
        return factor
    if cfg.model == "two_component":
        w = cfg.tc_weight_fast
        return w * math.exp(-cfg.tc_lambda_fast * dt) + (1 - w) * math.exp(-cfg.tc_lambda_slow * dt)
    raise ValueError(f"unknown decay model {cfg.model!r}")


def use_factor(use_count: int, cfg: DecayConfig) -> float:
    factor: float = max(1, use_count) ** cfg.beta
    return factor


def score(
    *, use_count: int, last_used: datetime, strength: float, now: datetime, cfg: DecayConfig
) -> float:
    return score_at(use_count, last_used.timestamp(), strength, now.timestamp(), cfg)


def score_at(
    use_count: int, last_used_ts: float, strength: float, now_ts: float, cfg: DecayConfig
) -> float:
    """`score` with the times as POSIX seconds: ranking thousands of memories at one `now`
    converts it once."""
    return use_factor(use_count, cfg) * decay_factor(now_ts - last_used_ts, cfg) * strength


def scores_at(
    rows: Iterable[tuple[int, float, float]], now_ts: float, cfg: DecayConfig
) -> list[float]:
    """`score_at` of many (use_count, last_used_ts, strength) rows at one `now`: one formula
    per model, with no call per row (a sorted page of 10k memories scores them all)."""
    beta, exp = cfg.beta, math.exp
    if cfg.model == "exponential":
        lam = cfg.exp_lambda
        return [max(1, u) ** beta * exp(-lam * max(0.0, now_ts - t)) * s for u, t, s in rows]
    if cfg.model == "power_law":
        t0, alpha = cfg.pl_t0, cfg.pl_alpha
        return [
            max(1, u) ** beta * (1.0 + max(0.0, now_ts - t) / t0) ** (-alpha) * s
            for u, t, s in rows
        ]
    if cfg.model == "two_component":
        w, fast, slow = cfg.tc_weight_fast, cfg.tc_lambda_fast, cfg.tc_lambda_slow
        return [
            max(1, u) ** beta
            * (w * exp(-fast * max(0.0, now_ts - t)) + (1 - w) * exp(-slow * max(0.0, now_ts - t)))
            * s
            for u, t, s in rows
        ]
    raise ValueError(f"unknown decay model {cfg.model!r}")


def _elapsed_for_factor(target: float, cfg: DecayConfig) -> float:
    """Δt at which D(Δt) falls to `target` (0 < target < 1)."""
    if cfg.model == "exponential":
        return -math.log(target) / cfg.exp_lambda
    if cfg.model == "power_law":
        elapsed: float = cfg.pl_t0 * (target ** (-1 / cfg.pl_alpha) - 1)
        return elapsed
    # two_component has no closed form; D is strictly decreasing, so bisect.
    lo, hi = 0.0, DAY
    while decay_factor(hi, cfg) > target:
        hi *= 2
        if hi > 1e6 * DAY:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2
        if decay_factor(mid, cfg) > target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-3:
            break
    return hi


def seconds_until_score(
    threshold: float,
    *,
    use_count: int,
    last_used: datetime,
    strength: float,
    now: datetime,
    cfg: DecayConfig,
) -> float:
    """Seconds from `now` until the score falls below `threshold`.

    0 when it already has; inf when it never will (zero threshold). Reinforcement is not
    foreseen: this is the time if the memory is left alone.
    """
    peak = use_factor(use_count, cfg) * strength
    if threshold <= 0:
        return math.inf
    if peak <= threshold:
        return 0.0
    total = _elapsed_for_factor(threshold / peak, cfg)
    elapsed = max(0.0, (now - last_used).total_seconds())
    return max(0.0, total - elapsed)


def age_days(created: datetime, now: datetime) -> float:
    """How old something created at `created` is at `now`, in days (3 decimals): the
    `age_days` every answer shows."""
    return round((now - created).total_seconds() / DAY, 3)
