"""MemoryService: the one facade every door (MCP, REST, CLI) calls.

It owns the engine (clock, config, vault, index, history) and runs the operations of the
catalogue: `run(operation, request)` takes the lock the call needs, times it, and runs the
operation's logic (`handlers/`) on the request. Each operation is also an attribute named for
what it does (`service.search("coffee", top_k=5)`): its arguments fill the request, in the
order the request declares them and by name.

Calls that change the vault hold the engine's change lock, one at a time; reads hold none while
the watcher keeps the catalogue current (without one, a read refreshes it under the change lock
too). A call made within another on the same thread is part of it, timed once. What a change
leaves for after its lock (a save's group commit, engine/commits.py; the folder fsync,
vault/durability.py) is waited for before it answers: `begin` runs the part under the lock and
returns the rest, which the REST door finishes on another thread while the next change runs.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from cortexgraph_vault.config import Config
from cortexgraph_vault.deferred_import import deferred
from cortexgraph_vault.engine import Clock, VaultEngine
from cortexgraph_vault.progress import ProgressFactory, no_progress
from cortexgraph_vault.vault.durability import DURABILITY, Pending

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cortexgraph_vault.engine.call_timing import CallRecorder
    from cortexgraph_vault.engine.commits import CommitTicket
    from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle_ops
    from cortexgraph_vault.handlers.lifecycle import uncommitted
    from cortexgraph_vault.index.catalog.early_walk import EarlyWalk
    from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
    from cortexgraph_vault.operations import (
        browse,
        intelligence,
        lifecycle,
        maintenance,
        memories,
        memory_history,
        vault,
    )
    from cortexgraph_vault.operations.operation import Operation
    from cortexgraph_vault.requests import Request
else:  # a call imports its operation's area (and its models), not every other one
    browse = deferred("cortexgraph_vault.operations.browse")
    intelligence = deferred("cortexgraph_vault.operations.intelligence")
    lifecycle = deferred("cortexgraph_vault.operations.lifecycle")
    maintenance = deferred("cortexgraph_vault.operations.maintenance")
    memories = deferred("cortexgraph_vault.operations.memories")
    memory_history = deferred("cortexgraph_vault.operations.memory_history")
    vault = deferred("cortexgraph_vault.operations.vault")
    lifecycle_ops = deferred("cortexgraph_vault.handlers.lifecycle.gc_and_promotion")
    uncommitted = deferred("cortexgraph_vault.handlers.lifecycle.uncommitted")

T = TypeVar("T")
Req = TypeVar("Req", bound="Request")
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

    def when_ready(self, callback: Callable[[], None]) -> None:
        """`callback()` once finishing no longer waits: on the thread that ends the last wait
        (a commit's, a folder fsync's), or at once when none is left. It must not block. A
        door that waits for this in its event loop finishes the call there, with no thread
        of its own blocked meanwhile."""
        left = [t for t in self._tickets if not t.done]
        if not left:
            callback()
            return
        count = [len(left)]
        lock = threading.Lock()

        def one_done() -> None:
            with lock:
                count[0] -= 1
                last = count[0] == 0
            if last:
                callback()

        for ticket in left:
            ticket.when_done(one_done)

    def __call__(self) -> T:
        return self._finish()


class Entry(Generic[Res]):
    """An operation of the catalogue as an attribute of the service: `service.search(...)`
    fills the request of search_memory with its arguments and runs it (`run`)."""

    def __init__(self, operation: Callable[[], Operation[Any, Res]]) -> None:
        self._operation = operation  # looked up at the first call: its area loads then

    @overload
    def __get__(self, service: None, owner: type[MemoryService]) -> Entry[Res]: ...

    @overload
    def __get__(self, service: MemoryService, owner: type[MemoryService]) -> Callable[..., Res]: ...

    def __get__(
        self, service: MemoryService | None, owner: type[MemoryService]
    ) -> Entry[Res] | Callable[..., Res]:
        if service is None:
            return self
        operation = self._operation()

        def call(*args: object, **fields: object) -> Res:
            return service.run(operation, operation.request_of(args, fields))

        call.__name__ = operation.name
        call.__doc__ = operation.description
        return call


class MemoryService:
    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        progress: ProgressFactory | None = None,
        on_catalog: Callable[[VaultCatalog], None] | None = None,
        one_call: bool = False,
        early_walk: EarlyWalk | None = None,
    ) -> None:
        """`one_call`: the process makes one call now and ends (a CLI command);
        `early_walk`: the vault's walk it began before importing the service."""
        self.engine = VaultEngine(
            config,
            clock=clock,
            on_catalog=on_catalog,
            one_call=one_call,
            early_walk=early_walk,
            before_vectors=uncommitted.record_uncommitted,
            progress=progress or no_progress,
        )
        self._depth = threading.local()
        if one_call:
            self.engine.trust_start_walk()

    @property
    def config(self) -> Config:
        return self.engine.config

    @property
    def change_lock(self) -> threading.RLock:
        return self.engine.change_lock

    @property
    def metrics(self) -> CallRecorder:
        return self.engine.metrics

    def run(self, operation: Operation[Req, Res], request: Req) -> Res:
        """Run one operation of the catalogue with its (validated) request: under the lock it
        needs, timed."""
        engine = self.engine
        if operation.locks_per_item:  # it takes the change lock for each item itself
            return operation.invoke(engine, request)

        def invoke() -> Res:
            result = operation.invoke(engine, request)
            if operation.counts_uses:
                lifecycle_ops.maybe_snapshot(engine)
            return result

        return self.call(operation.name, operation.effect.read_only, invoke)

    def call_lock(self, read_only: bool) -> contextlib.AbstractContextManager[object]:
        """What one call holds: nothing for a read on a watched vault, else the change lock."""
        if read_only and self.engine.watching:
            return contextlib.nullcontext()
        return self.engine.change_lock

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
        metrics = self.engine.metrics
        depth = getattr(self._depth, "value", 0)
        if depth > 0:  # a call within a call: part of the outer one (its lock, its timing)
            self._depth.value = depth + 1
            try:
                with self.call_lock(read_only):
                    result = fn()
            finally:
                self._depth.value = depth
            return CallEnd(result, lambda: result, [])
        started = metrics.clock()
        self._depth.value = 1
        try:
            with (
                self.call_lock(read_only),
                self.engine.group_commits.deferred() as tickets,
                DURABILITY.deferred() as syncs,
            ):
                result = fn()
        except BaseException:
            metrics.record(name, metrics.clock() - started, ok=False)
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
                metrics.record(name, metrics.clock() - started)

        return CallEnd(result, finish, [*tickets, *syncs])

    save = Entry(lambda: memories.save_memory)
    search = Entry(lambda: memories.search_memory)
    open = Entry(lambda: memories.open_memories)
    touch = Entry(lambda: memories.touch_memory)
    observe = Entry(lambda: memories.observe_memory_usage)
    update = Entry(lambda: memories.update_memory)
    delete = Entry(lambda: memories.delete_memory)
    relate = Entry(lambda: memories.create_relation)
    supersede = Entry(lambda: memories.supersede_memories)
    gc = Entry(lambda: lifecycle.gc)
    promote = Entry(lambda: lifecycle.promote_memory)
    cluster = Entry(lambda: lifecycle.cluster_memories)
    consolidate = Entry(lambda: lifecycle.consolidate_memories)
    run_pipeline = Entry(lambda: lifecycle.run_pipeline)
    apply_plan = Entry(lambda: lifecycle.apply_plan)
    snapshot = Entry(lambda: lifecycle.snapshot)
    history = Entry(lambda: memory_history.memory_history)
    version = Entry(lambda: memory_history.memory_version)
    forgotten = Entry(lambda: memory_history.forgotten_memories)
    restore = Entry(lambda: memory_history.restore_memory)
    search_unified = Entry(lambda: vault.search_unified)
    read_note = Entry(lambda: vault.read_note)
    read_graph = Entry(lambda: vault.read_graph)
    vault_status = Entry(lambda: vault.vault_status)
    stats = Entry(lambda: vault.vault_stats)
    performance_metrics = Entry(lambda: vault.get_performance_metrics)
    sync = Entry(lambda: vault.sync_vault)
    last_sync = Entry(lambda: vault.last_sync)
    analyze_message = Entry(lambda: intelligence.analyze_message)
    analyze_for_recall = Entry(lambda: intelligence.analyze_for_recall)
    auto_recall = Entry(lambda: intelligence.auto_recall_process_message)
    review = Entry(lambda: intelligence.review_memories)
    list_memories = Entry(lambda: browse.list_memories)
    memory_detail = Entry(lambda: browse.memory_detail)
    memory_at_path = Entry(lambda: browse.memory_at_path)
    related_to_note = Entry(lambda: browse.related_to_note)
    graph_neighbourhood = Entry(lambda: browse.graph_neighbourhood)
    neighbourhood = graph_neighbourhood
    import_cortexgraph = Entry(lambda: maintenance.import_cortexgraph)
    import_memory_json = Entry(lambda: maintenance.import_memory_json)
    export_cortexgraph = Entry(lambda: maintenance.export_cortexgraph)
    export_json = Entry(lambda: maintenance.export_json)
    graph_html = Entry(lambda: maintenance.graph_html)
    reindex = Entry(lambda: maintenance.reindex)
    init_git = Entry(lambda: maintenance.init_git)
    effective_config = Entry(lambda: maintenance.effective_config)


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
        from cortexgraph_vault.core import wording

        said, other = wording.commit_not_made(ticket.failure), getattr(result, "warning", None)
        update["warning"] = f"{said}; {other}" if other else said
    return cast("T", result.model_copy(update=update)) if update else result
