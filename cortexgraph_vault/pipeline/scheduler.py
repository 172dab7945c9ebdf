"""Run the consolidation pipeline every N hours on a background thread.

The daemon (or `consolidate --scheduled`) makes one over the service's engine:
`Scheduler(engine, interval_hours)`, then `start()` and, on shutdown, `stop()`. Each run plans,
writes the plan to the user's cache folder (the audit copy), and applies it (unless dry_run). A
run holds the engine's change lock one item at a time, so MCP and REST calls interleave with
it; `stop()` ends a rate-limit wait at once and leaves the rest of the plan deferred to the next
run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.models import PipelineResult
from cortexgraph_vault.pipeline.runner import RunControls, run_pipeline
from cortexgraph_vault.requests.lifecycle import RunPipelineRequest

log = logging.getLogger(__name__)
HOUR = 3600.0


class Scheduler:
    def __init__(
        self,
        engine: VaultEngine,
        interval_hours: float,
        *,
        dry_run: bool = False,
        agent: str | None = None,
        run_at_start: bool = True,
        on_result: Callable[[PipelineResult], None] | None = None,
    ) -> None:
        if not interval_hours > 0:
            raise ValueError("interval_hours must be more than 0")
        self.engine = engine
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
            engine = self.engine
            controls = RunControls(
                change_lock=lambda: engine.change_lock,
                sleep=self._stop.wait,
                stopped=self._stop.is_set,
            )
            asked = RunPipelineRequest(agent=self.agent, dry_run=self.dry_run)
            result = run_pipeline(engine, asked, controls)
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
