"""When a REST call may start: changes first, reads beside them only past a bound.

Python runs one thread at a time. A change (a touch: a few ms of work, some forty system calls)
that shares the interpreter with CPU-bound reads waits after each of its system calls for a
reader to let go, taking many times as long as alone, and every change queued behind it
longer still. So a change that arrives holds new reads back, in the event loop
(where waiting costs no thread), until the reads at work are done; it then goes to the change
lane (`ChangeLane`: one thread that runs the changes handed to it one after another, with no
trip through the event loop between two of them), and reads start again once the lane is
empty. Neither side can starve:

- a read held back longer than `read_hold` starts anyway, beside the changes;
- a change kept waiting by reads longer than `change_hold` starts anyway, beside them.

So a long change (a gc of thousands) holds reads back for `read_hold` at most, and under
overload the gate is no worse than no gate at all. Waiters are served first come, first served.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

READ_HOLD = 0.01  # seconds a read may be held back by changes (p50 of reads under load)
CHANGE_HOLD = 0.03  # seconds a change may wait for the reads at work
T = TypeVar("T")


@dataclass
class _Waiter:
    arrived: float
    granted: asyncio.Future[None]
    expired: bool = False  # its hold is over: its bound lets it through once a slot is free


class ChangeFirstGate:
    """Admission of reads (up to `reads` at once) and changes (into the lane, which runs them
    one at a time).

    Made and used in the event loop that serves the app; nothing here blocks a thread. Plain
    asyncio (a future per waiter, a timer per hold): every request passes here, and anyio's
    events and clocks look up the running library on each use.
    """

    def __init__(
        self, reads: int, *, read_hold: float = READ_HOLD, change_hold: float = CHANGE_HOLD
    ) -> None:
        self.reads = reads
        self.read_hold = read_hold
        self.change_hold = change_hold
        self.reads_running = 0
        self.changes_running = 0  # admitted to the lane, not yet done
        self._reads_waiting: deque[_Waiter] = deque()
        self._changes_waiting: deque[_Waiter] = deque()
        # figures for tests and the bench: how often each bound let a call through
        self.reads_let_through = 0
        self.changes_let_through = 0

    @asynccontextmanager
    async def read(self) -> AsyncIterator[None]:
        await self._enter(self._reads_waiting, self.read_hold)
        try:
            yield
        finally:
            self.reads_running -= 1
            self._dispatch()

    @asynccontextmanager
    async def change(self) -> AsyncIterator[None]:
        await self._enter(self._changes_waiting, self.change_hold)
        try:
            yield
        finally:
            self.changes_running -= 1
            self._dispatch()

    async def _enter(self, queue: deque[_Waiter], hold: float) -> None:
        loop = asyncio.get_running_loop()
        waiter = _Waiter(loop.time(), loop.create_future())
        queue.append(waiter)
        self._dispatch()
        if waiter.granted.done():
            return
        # Past its hold the waiter asks again: its bound lets it through once a slot is free.
        timer = loop.call_later(hold, self._expire, waiter)
        try:
            await waiter.granted
        except BaseException:
            # Cancelled (the client went away): give back what was granted meanwhile.
            if waiter.granted.done() and not waiter.granted.cancelled():
                if queue is self._reads_waiting:
                    self.reads_running -= 1
                else:
                    self.changes_running -= 1
            elif waiter in queue:
                queue.remove(waiter)
            self._dispatch()
            raise
        finally:
            timer.cancel()

    def _expire(self, waiter: _Waiter) -> None:
        waiter.expired = True
        self._dispatch()

    def _dispatch(self) -> None:
        """Start whatever may start now, changes first."""
        now = asyncio.get_running_loop().time()
        changes = self._changes_waiting

        def over(w: _Waiter, hold: float) -> bool:
            return w.expired or now - w.arrived >= hold

        # Changes queued together all go to the lane, which runs them back to back.
        while changes and (self.reads_running == 0 or over(changes[0], self.change_hold)):
            if self.reads_running:
                self.changes_let_through += 1
            self.changes_running += 1
            self._grant(changes.popleft())
        reads = self._reads_waiting
        while reads and self.reads_running < self.reads:
            head = reads[0]
            held_back = self.changes_running > 0 or bool(changes)
            if held_back and not over(head, self.read_hold):
                break
            if held_back:
                self.reads_let_through += 1
            self.reads_running += 1
            self._grant(reads.popleft())

    @staticmethod
    def _grant(waiter: _Waiter) -> None:
        if not waiter.granted.done():
            waiter.granted.set_result(None)


class ChangeLane:
    """Threads that take the changes handed to them in order, each going straight on to the
    next. Through the event loop (`to_thread`) each change waited for the loop to notice the
    one before it had ended: a third of the lane's time went in those gaps under load.

    One thread by default: each hand-over of the change lock between threads is a wait for
    the interpreter, and with the interpreter busy (50 clients on 2 cores) lanes of 2 and 8
    threads answered 15-25 % fewer requests than one."""

    THREADS = 1

    def __init__(self, threads: int = THREADS, *, name: str = "cgv-changes") -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]]] = (
            queue.SimpleQueue()
        )
        self._size = threads
        self._name = name
        self._threads: list[threading.Thread] = []
        self._start = threading.Lock()

    async def run(self, fn: Callable[[], T]) -> T:
        """`fn()` on a thread of the lane. As `to_thread` does, a call handed over is waited
        for even if its caller is cancelled (its client left); the cancel is raised after."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._jobs.put((fn, done))
        if len(self._threads) < self._size:  # the threads never end: made once
            with self._start:
                while len(self._threads) < self._size:
                    thread = threading.Thread(target=self._work, name=self._name, daemon=True)
                    thread.start()
                    self._threads.append(thread)
        cancel: asyncio.CancelledError | None = None
        while not done.done():
            try:
                await asyncio.shield(done)
            except asyncio.CancelledError as exc:
                if done.cancelled():
                    raise
                cancel = exc
        if cancel is not None:
            raise cancel
        return done.result()

    def _work(self) -> None:
        while True:
            fn, done = self._jobs.get()
            loop = done.get_loop()
            try:
                result = fn()
            except BaseException as exc:  # the caller's error, raised where it awaits
                loop.call_soon_threadsafe(_settle, done, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, done, result, None)


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
