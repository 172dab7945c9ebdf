"""The daemon runs the consolidation pipeline on an interval only when configured to."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.api.app import consolidation_scheduler
from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService


def test_scheduler_runs_only_when_an_interval_is_set(git_vault: Path) -> None:
    off = MemoryService(load_config({"vault": str(git_vault)}))
    assert consolidation_scheduler(off) is None
    on = MemoryService(load_config({"vault": str(git_vault), "consolidate_interval_hours": "6"}))
    scheduler = consolidation_scheduler(on)
    assert scheduler is not None and scheduler.running
    scheduler.stop()
    assert not scheduler.running
