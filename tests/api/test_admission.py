"""The REST door's gate: a change runs without new reads beside it; neither side waits past its
bound. Calls are held open by events the test sets, so what is asserted is who may start while
whom runs, never how fast."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import anyio
import pytest

from cortexgraph_vault.api.admission import ChangeFirstGate, ChangeLane

pytestmark = pytest.mark.anyio
LONG = 60.0  # a bound no test reaches: only events end these waits


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Calls:
    """Reads and changes through one gate, each held open until the test lets it go."""

    def __init__(self, gate: ChangeFirstGate, tg: anyio.abc.TaskGroup) -> None:
        self.gate, self.tg = gate, tg
        self.started: list[str] = []
        self.finished: list[str] = []
        self.release: dict[str, anyio.Event] = {}

    def start(self, name: str) -> None:
        enter: Callable[[], object] = self.gate.read if name.startswith("r") else self.gate.change
        self.release[name] = anyio.Event()

        async def call() -> None:
            async with enter():  # type: ignore[attr-defined]
                self.started.append(name)
                await self.release[name].wait()
            self.finished.append(name)

        self.tg.start_soon(call)

    async def settle(self) -> None:
        for _ in range(20):
            await anyio.sleep(0)


async def test_a_change_waits_for_the_reads_at_work_and_holds_new_reads_back_until_done() -> None:
    gate = ChangeFirstGate(4, read_hold=LONG, change_hold=LONG)
    async with anyio.create_task_group() as tg:
        calls = Calls(gate, tg)
        calls.start("r1")
        calls.start("r2")
        await calls.settle()
        calls.start("c1")
        calls.start("r3")  # arrives after the change: waits for it
        await calls.settle()
        assert calls.started == ["r1", "r2"]
        calls.release["r1"].set()
        calls.release["r2"].set()
        await calls.settle()
        assert calls.started == ["r1", "r2", "c1"]  # alone now
        calls.release["c1"].set()
        await calls.settle()
        assert calls.started == ["r1", "r2", "c1", "r3"]
        calls.release["r3"].set()
    assert gate.reads_running == 0 and gate.changes_running == 0


async def test_changes_queued_together_all_go_before_the_read_held_between_them() -> None:
    gate = ChangeFirstGate(4, read_hold=LONG, change_hold=LONG)
    async with anyio.create_task_group() as tg:
        calls = Calls(gate, tg)
        for name in ("c1", "r1", "c2", "c3"):
            calls.start(name)
        await calls.settle()
        assert calls.started == ["c1", "c2", "c3"]  # to the lane, which runs them in turn
        for name in ("c1", "c2"):
            calls.release[name].set()
            await calls.settle()
        assert "r1" not in calls.started
        calls.release["c3"].set()
        await calls.settle()
        assert calls.started == ["c1", "c2", "c3", "r1"]
        calls.release["r1"].set()


async def test_a_read_held_back_past_its_bound_starts_beside_a_long_change() -> None:
    gate = ChangeFirstGate(4, read_hold=0.05, change_hold=LONG)
    async with anyio.create_task_group() as tg:
        calls = Calls(gate, tg)
        calls.start("c1")  # a long gc, say
        await calls.settle()
        calls.start("r1")
        await calls.settle()
        assert calls.started == ["c1"]
        with anyio.fail_after(LONG):
            while "r1" not in calls.finished:
                if "r1" in calls.started:
                    calls.release["r1"].set()
                await anyio.sleep(0.01)
        assert "c1" not in calls.finished  # answered while the change still runs
        assert gate.reads_let_through == 1
        calls.release["c1"].set()


async def test_a_change_kept_waiting_by_reads_past_its_bound_starts_beside_them() -> None:
    gate = ChangeFirstGate(4, read_hold=LONG, change_hold=0.05)
    async with anyio.create_task_group() as tg:
        calls = Calls(gate, tg)
        calls.start("r1")  # a read that does not end
        await calls.settle()
        calls.start("c1")
        with anyio.fail_after(LONG):
            while "c1" not in calls.started:
                await anyio.sleep(0.01)
        assert calls.finished == []
        assert gate.changes_let_through == 1
        calls.release["c1"].set()
        calls.release["r1"].set()


async def test_no_more_reads_than_threads_run_at_once() -> None:
    gate = ChangeFirstGate(2, read_hold=LONG, change_hold=LONG)
    async with anyio.create_task_group() as tg:
        calls = Calls(gate, tg)
        for name in ("r1", "r2", "r3"):
            calls.start(name)
        await calls.settle()
        assert calls.started == ["r1", "r2"]
        calls.release["r1"].set()
        await calls.settle()
        assert calls.started == ["r1", "r2", "r3"]
        calls.release["r2"].set()
        calls.release["r3"].set()


async def test_a_waiting_call_that_is_cancelled_leaves_the_gate_as_it_was() -> None:
    gate = ChangeFirstGate(4, read_hold=LONG, change_hold=LONG)
    async with anyio.create_task_group() as tg:
        calls = Calls(gate, tg)
        calls.start("r1")
        await calls.settle()
        with anyio.CancelScope() as scope:
            scope.cancel()  # the client went away while its change waited
            async with gate.change():
                pytest.fail("a cancelled change ran")
        calls.start("r2")  # no change waits any more: not held back
        await calls.settle()
        assert calls.started == ["r1", "r2"]
        calls.release["r1"].set()
        calls.release["r2"].set()
    assert gate.reads_running == 0 and gate.changes_running == 0


async def test_a_lane_of_one_thread_runs_its_calls_one_at_a_time_in_order() -> None:
    lane = ChangeLane(threads=1)
    running: list[int] = []
    seen: list[tuple[int, int, int]] = []  # (call, calls running beside it, thread)

    def change(n: int) -> int:
        running.append(n)
        seen.append((n, len(running), threading.get_ident()))
        time.sleep(0.01)
        running.remove(n)
        if n == 3:
            raise ValueError("a refused change")
        return n * 10

    results: dict[int, object] = {}

    async def call(n: int) -> None:
        try:
            results[n] = await lane.run(lambda: change(n))
        except ValueError as exc:
            results[n] = str(exc)

    async with anyio.create_task_group() as tg:
        for n in range(5):
            tg.start_soon(call, n)
            await anyio.sleep(0)
    assert [n for n, _, _ in seen] == [0, 1, 2, 3, 4]
    assert all(beside == 1 for _, beside, _ in seen)
    assert len({thread for _, _, thread in seen}) == 1
    assert results == {0: 0, 1: 10, 2: 20, 3: "a refused change", 4: 40}


async def test_a_change_waiting_without_its_locks_lets_the_next_change_run() -> None:
    # a change that waits holds a lane thread, not the lane
    lane = ChangeLane(threads=2)
    other_ran = threading.Event()

    def waiting() -> str:
        return "done" if other_ran.wait(timeout=10) else "the next change never ran"

    def next_change() -> str:
        other_ran.set()
        return "ran"

    results: list[str] = []

    async def call(fn: Callable[[], str]) -> None:
        results.append(await lane.run(fn))

    async with anyio.create_task_group() as tg:
        tg.start_soon(call, waiting)
        await anyio.sleep(0.01)
        tg.start_soon(call, next_change)
    assert results == ["ran", "done"]


async def test_a_call_handed_to_the_lane_is_waited_for_when_its_caller_is_cancelled() -> None:
    lane = ChangeLane()
    started, release = threading.Event(), threading.Event()
    finished: list[str] = []

    def change() -> str:
        started.set()
        assert release.wait(LONG)
        finished.append("change")
        return "done"

    outcome: list[str] = []
    scope = anyio.CancelScope()

    async def caller() -> None:
        with scope:
            try:
                await lane.run(change)
            except BaseException:
                outcome.append("cancelled after " + ",".join(finished))
                raise
        outcome.append("left")

    async with anyio.create_task_group() as tg:
        tg.start_soon(caller)
        while not started.is_set():
            await anyio.sleep(0.001)
        scope.cancel()
        await anyio.sleep(0.02)
        assert outcome == []  # still waiting for the call it handed over
        release.set()
    assert outcome == ["cancelled after change", "left"]
