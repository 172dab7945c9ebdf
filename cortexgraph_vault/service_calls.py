"""How the service runs one call for a door: under its change lock when it needs it, and timed.

Doors run calls on worker threads (MCP, REST, the scheduler). Calls that change the vault
hold the change lock, one at a time. Reads need no lock while the watcher keeps the catalogue current (it already
changes the catalogue beside every call, under the catalogue's own lock); without a watcher
a read walks and refreshes the catalogue, so it holds the change lock too.

Every call is timed under a name (get_performance_metrics). A call made while another is
running on the same thread (a REST route calling an operation) is the same call: timed once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cortexgraph_vault.ops.call_timing import CallRecorder

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.operations import Operation
    from cortexgraph_vault.service import MemoryService

T = TypeVar("T")
Res = TypeVar("Res", bound="BaseModel")


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
        depth = getattr(self._depth, "value", 0)
        timing = self.metrics.measure(name) if depth == 0 else contextlib.nullcontext()
        self._depth.value = depth + 1
        try:
            with self.call_lock(read_only), timing:
                return fn()
        finally:
            self._depth.value = depth

    def run(self, operation: Operation[Any, Res], request: Any) -> Res:
        """Run one operation of the catalogue with its (validated) request."""
        service = cast("MemoryService", self)  # ServiceCalls is a part of MemoryService
        return self.call(
            operation.name, operation.effect.read_only, lambda: operation.invoke(service, request)
        )
