"""How the service runs one call for a door: under its change lock when it needs it, and timed.

Doors run calls on worker threads (MCP, REST, the scheduler). Calls that change the vault
hold the change lock, one at a time. Reads need no lock while the watcher keeps the catalogue current (it already
changes the catalogue beside every call, under the catalogue's own lock); without a watcher
a read walks and refreshes the catalogue, so it holds the change lock too.

Every call is timed under a name (get_performance_metrics). A call made while another is
running on the same thread (a REST route calling an operation) is the same call: timed once.

What a change leaves to be done after its lock (a save's git commit, made with the saves around
it: engine/commits.py; the folder fsync after a write: vault/durability.py) is waited for once
the lock is let go, before the call answers: `begin` runs the part under the lock and returns
the rest, which the REST door runs on another thread while the next change goes ahead.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from cortexgraph_vault.ops.call_timing import CallRecorder
from cortexgraph_vault.vault import disk_wait
from cortexgraph_vault.vault.durability import DURABILITY, Pending

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.engine.commits import CommitTicket
    from cortexgraph_vault.operations import Operation
    from cortexgraph_vault.service import MemoryService

T = TypeVar("T")
Res = TypeVar("Res", bound="BaseModel")


class CallEnd(Generic[T]):
    """The rest of a call begun under its lock: calling it gives the result."""

    def __init__(
        self, result: T, finish: Callable[[], T], tickets: Sequence[CommitTicket | Pending]
    ) -> None:
        self.unfinished = result  # as the call left its lock (a save's commit not in it yet)
        self._finish = finish
        self._tickets = tickets

    @property
    def waits(self) -> bool:
        """Whether finishing waits for a commit still to be made."""
        return any(not t.done for t in self._tickets)

    def __call__(self) -> T:
        return self._finish()


class ServiceCalls:
    engine: VaultEngine

    def __init__(self) -> None:
        self.metrics = CallRecorder()
        self.change_lock = threading.RLock()
        self._depth = threading.local()

    def call_lock(self, read_only: bool) -> contextlib.AbstractContextManager[object]:
        """What one call holds: nothing for a read on a watched vault, else the change lock."""
        if read_only and self.engine.watching:
            return contextlib.nullcontext()
        return self.change_lock

    def call(self, name: str, read_only: bool, fn: Callable[[], T]) -> T:
        """Run `fn` as the call `name`, under the lock it needs and timed (once, however nested)."""
        outer = getattr(self._depth, "value", 0) == 0
        end = self.begin(name, read_only, fn)
        door: list[CallEnd[Any]] | None = getattr(self._depth, "door_finishes", None)
        if outer and door is not None:
            door.append(end)
            return end.unfinished
        return end()

    @contextlib.contextmanager
    def finished_by_door(self) -> Iterator[list[CallEnd[Any]]]:
        """Calls made on this thread in the block return as they leave their lock; the door
        finishes each (the list) elsewhere, as it does the calls it begins itself."""
        ends: list[CallEnd[Any]] = []
        self._depth.door_finishes = ends
        try:
            yield ends
        finally:
            self._depth.door_finishes = None

    def begin(self, name: str, read_only: bool, fn: Callable[[], T]) -> CallEnd[T]:
        """Run `fn` under the lock it needs; what it returns finishes the call: it waits,
        without the lock, for the group commits `fn` asked for (engine/commits.py), puts the
        commit in the result, and gives the result. A door may finish on another thread,
        so the next change starts meanwhile. The call is timed from start to finish."""
        depth = getattr(self._depth, "value", 0)
        if depth > 0:  # a call within a call: part of the outer one (its lock, its timing)
            self._depth.value = depth + 1
            try:
                with self.call_lock(read_only):
                    result = fn()
            finally:
                self._depth.value = depth
            return CallEnd(result, lambda: result, [])
        started = self.metrics.clock()
        self._depth.value = 1
        try:
            lock = self.call_lock(read_only)
            with (
                lock,
                disk_wait.holding(lock) if lock is self.change_lock else contextlib.nullcontext(),
                self.engine.group_commits.deferred() as tickets,
                DURABILITY.deferred() as syncs,
            ):
                result = fn()
        except BaseException:
            self.metrics.record(name, self.metrics.clock() - started, ok=False)
            raise
        finally:
            self._depth.value = 0

        def finish() -> T:
            try:
                for sync in syncs:
                    sync.wait()
                for ticket in tickets:
                    ticket.wait()
                return _with_commit(result, tickets)
            finally:
                self.metrics.record(name, self.metrics.clock() - started)

        return CallEnd(result, finish, [*tickets, *syncs])

    def disk_waits_let_go(self) -> contextlib.AbstractContextManager[object]:
        """Around a rewrite of one note made as a call of its own (a touch): its wait for the
        disk lets go of the change lock, so the next change runs meanwhile (vault/disk_wait.py).
        Only when the call holds the change lock and no other lock of ours: a call made within
        another (which may count on holding its locks throughout) keeps them."""
        if getattr(self._depth, "value", 0) == 1 and disk_wait.registered() == [self.change_lock]:
            return disk_wait.allowed()
        return contextlib.nullcontext()

    def run(self, operation: Operation[Any, Res], request: Any) -> Res:
        """Run one operation of the catalogue with its (validated) request."""
        service = cast("MemoryService", self)  # ServiceCalls is a part of MemoryService
        return self.call(
            operation.name, operation.effect.read_only, lambda: operation.invoke(service, request)
        )


def _with_commit(result: T, tickets: Sequence[CommitTicket]) -> T:
    """The result of a call whose one commit was made after it: with that commit in its
    `commit` field (a save's result; a call that asked for several reports none of them), and
    in its `warning`, when the commit was not made, why."""
    if len(tickets) != 1:
        return result
    from pydantic import BaseModel  # a call with a commit returns a model: pydantic is loaded

    if not isinstance(result, BaseModel) or "commit" not in type(result).model_fields:
        return result
    ticket = tickets[0]
    update: dict[str, object] = {}
    if getattr(result, "commit", None) is None:
        update["commit"] = ticket.sha
    if ticket.failure is not None and "warning" in type(result).model_fields:
        update["warning"] = commit_warning(ticket.failure, getattr(result, "warning", None))
    return cast("T", result.model_copy(update=update)) if update else result


def commit_warning(failure: str, other: str | None) -> str:
    """A save's warning when its commit was not made: the reason, and when it will be."""
    from cortexgraph_vault.core import wording

    said = wording.commit_not_made(failure)
    return f"{said}; {other}" if other else said
