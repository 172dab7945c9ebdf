"""Run the consolidation pipeline every N hours on a background thread.

The daemon (or `consolidate --scheduled`) makes one: `Scheduler(service, interval_hours)`,
then `start()` and, on shutdown, `stop()`. Each run plans, writes the plan to the user's cache
folder (the audit copy), and applies it (unless dry_run). A run holds the service's change lock
one item at a time, so MCP and REST calls interleave with it; `stop()` ends a rate-limit wait at
once and leaves the rest of the plan deferred to the next run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

from cortexgraph_vault.models import PipelineResult

log = logging.getLogger(__name__)
HOUR = 3600.0


class RunsPipeline(Protocol):
    """What the scheduler needs of the service (MemoryService is one); the pipeline sits below
    the service, so it names the one method it calls instead of importing the facade."""

    def run_pipeline(
        self,
        *,
        agent: str | None = None,
        dry_run: bool = True,
        stopped: Callable[[], bool] | None = None,
        sleep: Callable[[float], object] | None = None,
    ) -> PipelineResult: ...


class Scheduler:
    def __init__(
        self,
        service: RunsPipeline,
        interval_hours: float,
        *,
        dry_run: bool = False,
        agent: str | None = None,
        run_at_start: bool = True,
        on_result: Callable[[PipelineResult], None] | None = None,
    ) -> None:
        if not interval_hours > 0:
            raise ValueError("interval_hours must be more than 0")
        self.service = service
        self.interval = interval_hours * HOUR
        self.dry_run = dry_run
        self.agent = agent
        self.run_at_start = run_at_start
        self.on_result = on_result
        self.runs = 0
        self.last_result: PipelineResult | None = None
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._loop, name="cortexgraph-consolidation", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def wait(self, timeout: float | None = None) -> bool:
        """Block until stop() is called (the CLI's foreground mode); True when stopped."""
        return self._stop.wait(timeout)

    def run_once(self) -> PipelineResult | None:
        try:
            result = self.service.run_pipeline(
                agent=self.agent, dry_run=self.dry_run,
                stopped=self._stop.is_set, sleep=self._stop.wait,
            )  # fmt: skip
        except Exception as exc:  # a failed run must not end the schedule
            self.last_error = f"{type(exc).__name__}: {exc}"
            log.warning("scheduled consolidation failed: %s", self.last_error)
            return None
        self.runs += 1
        self.last_result, self.last_error = result, None
        log.info("scheduled consolidation: %s", result.message)
        if self.on_result is not None:
            self.on_result(result)
        return result

    def _loop(self) -> None:
        if self.run_at_start and not self._stop.is_set():
            self.run_once()
        while not self._stop.wait(self.interval):
            self.run_once()
