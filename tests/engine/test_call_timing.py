"""CallRecorder: counts, errors and nearest-rank percentiles per operation, in bounded memory."""

from __future__ import annotations

import pytest

from cortexgraph_vault.engine.call_timing import CallRecorder, percentile


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) == 0.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_record_keeps_durations_and_errors() -> None:
    clock = FakeClock()
    recorder = CallRecorder(clock=clock)
    for ms in (10, 20, 30, 40):
        recorder.record("search", ms / 1000)
    recorder.record("save", 0.005, ok=False)
    clock.now += 0.105
    snap = recorder.snapshot()
    search, save = snap.operations
    assert (search.operation, search.count, search.errors) == ("search", 4, 0)
    assert (search.p50_ms, search.p95_ms, search.max_ms, search.mean_ms) == pytest.approx(
        (20, 40, 40, 25)
    )
    assert (save.operation, save.count, save.errors, save.p50_ms) == (
        "save",
        1,
        1,
        pytest.approx(5),
    )
    assert (snap.total_calls, snap.total_errors) == (5, 1)
    assert snap.uptime_seconds == pytest.approx(0.105)


def test_only_the_most_recent_calls_are_kept() -> None:
    recorder = CallRecorder(window=10)
    for n in range(1000):
        recorder.record("touch", n / 1000)
    op = recorder.snapshot().operations[0]
    assert (op.count, op.sampled) == (1000, 10)
    assert op.p50_ms == pytest.approx(994.0) and op.max_ms == pytest.approx(999.0)
