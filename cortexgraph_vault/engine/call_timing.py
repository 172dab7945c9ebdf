"""How long service calls take, per operation: counts, errors, p50/p95 over recent calls.

Memory stays bounded: only the most recent `window` durations of each operation are kept.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # built when asked for: every call is timed, few ask for the figures
    from cortexgraph_vault.models.metrics import PerformanceMetrics


def percentile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (0 for none)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class _Operation:
    durations: deque[float]
    count: int = 0
    errors: int = 0
    total: float = field(default=0.0)


class CallRecorder:
    def __init__(
        self, *, window: int = 1000, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.window = window
        self.clock = clock
        self.started = clock()
        self._ops: dict[str, _Operation] = {}
        self._lock = threading.Lock()

    def record(self, operation: str, seconds: float, *, ok: bool = True) -> None:
        with self._lock:
            op = self._ops.get(operation)
            if op is None:
                op = self._ops[operation] = _Operation(deque(maxlen=self.window))
            op.durations.append(seconds)
            op.count += 1
            op.total += seconds
            op.errors += not ok

    def snapshot(self) -> PerformanceMetrics:
        from cortexgraph_vault.models.metrics import OperationTiming, PerformanceMetrics

        with self._lock:
            rows = [
                (name, op.count, op.errors, op.total, sorted(op.durations))
                for name, op in self._ops.items()
            ]
        timings = [
            OperationTiming(
                operation=name,
                count=count,
                errors=errors,
                p50_ms=_ms(percentile(ordered, 50)),
                p95_ms=_ms(percentile(ordered, 95)),
                max_ms=_ms(ordered[-1]),
                mean_ms=_ms(total / count),
                sampled=len(ordered),
            )
            for name, count, errors, total, ordered in rows
        ]
        timings.sort(key=lambda t: (-t.count, t.operation))
        return PerformanceMetrics(
            uptime_seconds=round(self.clock() - self.started, 3),
            total_calls=sum(t.count for t in timings),
            total_errors=sum(t.errors for t in timings),
            operations=timings,
        )


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)
