"""The service's calls that look after the vault as a whole, not one memory: consolidation
and its pipeline, imports and exports, the graph page, sync and git.

A part of `MemoryService` (its base class), kept in its own module so the facade stays one
readable file; doors call these methods on the service like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred
from cortexgraph_vault.progress import Progress
from cortexgraph_vault.service_calls import ServiceCalls

if TYPE_CHECKING:
    from cortexgraph_vault.models import LastSync, SyncResult
    from cortexgraph_vault.models.consolidation import (
        ClusterResult,
        ConsolidateResult,
        PipelineResult,
    )
    from cortexgraph_vault.models.maintenance import (
        ExportResult,
        GraphPictureResult,
        ImportResult,
    )
    from cortexgraph_vault.ops import consolidate as consolidation
    from cortexgraph_vault.pipeline import runner as pipeline_runner
else:  # imported by the calls that use them (service.py says why)
    consolidation = deferred("cortexgraph_vault.ops.consolidate")
    pipeline_runner = deferred("cortexgraph_vault.pipeline.runner")


class ServiceUpkeep(ServiceCalls):
    # consolidation (issue 8) ---------------------------------------------------------
    def cluster(
        self,
        *,
        strategy: str = "similarity",
        threshold: float | None = None,
        max_cluster_size: int | None = None,
        find_duplicates: bool = False,
        duplicate_threshold: float | None = None,
    ) -> ClusterResult:
        """threshold, max_cluster_size and duplicate_threshold default to the config
        (cluster_link_threshold 0.83, cluster_max_size 12, semantic_hi 0.88)."""
        return consolidation.cluster_memories(
            self.engine, strategy=strategy, threshold=threshold,
            max_cluster_size=max_cluster_size, find_duplicates=find_duplicates,
            duplicate_threshold=duplicate_threshold,
        )  # fmt: skip

    def consolidate(
        self,
        *,
        cluster_id: str | None = None,
        mode: str = "preview",
        auto_detect: bool = False,
        cohesion_threshold: float = 0.75,
    ) -> ConsolidateResult:
        return consolidation.consolidate(
            self.engine, cluster_id=cluster_id, mode=mode, auto_detect=auto_detect,
            cohesion_threshold=cohesion_threshold,
        )  # fmt: skip

    def run_pipeline(
        self,
        *,
        agent: str | None = None,
        dry_run: bool = True,
        plan_out: str | Path | None = None,
        rate_limit: int | None = None,
        stopped: Callable[[], bool] | None = None,
        sleep: Callable[[float], object] | None = None,
    ) -> PipelineResult:
        """Plan the five stages (or one: agent); write the plan; apply it unless dry_run."""
        return pipeline_runner.run_pipeline(
            self.engine, agent=agent, dry_run=dry_run, plan_out=plan_out,
            controls=self._controls(rate_limit, stopped, sleep),
        )  # fmt: skip

    def apply_plan(
        self,
        plan_file: str | Path,
        *,
        rate_limit: int | None = None,
        stopped: Callable[[], bool] | None = None,
        sleep: Callable[[float], object] | None = None,
    ) -> PipelineResult:
        """Apply a reviewed plan file: exactly its items; changed memories are refused."""
        return pipeline_runner.apply_plan_file(
            self.engine, plan_file, self._controls(rate_limit, stopped, sleep)
        )

    def _controls(
        self,
        rate_limit: int | None,
        stopped: Callable[[], bool] | None,
        sleep: Callable[[float], object] | None,
    ) -> pipeline_runner.RunControls:
        return pipeline_runner.RunControls(
            change_lock=lambda: self.change_lock,
            sleep=sleep,
            stopped=stopped or (lambda: False),
            rate_limit=rate_limit,
        )

    # bringing memories in and out, looking after the vault (issue 9) -------------------
    def import_cortexgraph(
        self,
        path: str | Path | None = None,
        *,
        dry_run: bool = False,
        overwrite: bool = False,
        allow_secrets: bool = False,
        progress: Progress | None = None,
    ) -> ImportResult:
        from cortexgraph_vault.ops import memory_import

        return memory_import.import_cortexgraph(
            self.engine, path, dry_run=dry_run, overwrite=overwrite,
            allow_secrets=allow_secrets, progress=progress,
        )  # fmt: skip

    def import_memory_json(
        self,
        file: str | Path,
        *,
        dry_run: bool = False,
        status: str = "promoted",
        allow_secrets: bool = False,
        progress: Progress | None = None,
    ) -> ImportResult:
        from cortexgraph_vault.ops import memory_import

        return memory_import.import_memory_json(
            self.engine, file, dry_run=dry_run, status=status, allow_secrets=allow_secrets,
            progress=progress,
        )  # fmt: skip

    def export_cortexgraph(
        self, folder: str | Path, *, force: bool = False, progress: Progress | None = None
    ) -> ExportResult:
        from cortexgraph_vault.ops import memory_export

        return memory_export.export_cortexgraph(self.engine, folder, force=force, progress=progress)

    def export_json(
        self, file: str | Path, *, force: bool = False, progress: Progress | None = None
    ) -> ExportResult:
        from cortexgraph_vault.ops import memory_export

        return memory_export.export_json(self.engine, file, force=force, progress=progress)

    def graph_html(self, file: str | Path, *, include_notes: bool = True) -> GraphPictureResult:
        from cortexgraph_vault.ops import graph_page

        return graph_page.graph_html(self.engine, file, include_notes=include_notes)

    # git -------------------------------------------------------------------------------
    def sync(
        self, *, remote: str | None = None, progress: Callable[[str], object] | None = None
    ) -> SyncResult:
        """Record pending reinforcements, fetch, merge memory notes field by field, push;
        `progress` hears each step (the CLI prints them on a terminal)."""
        from cortexgraph_vault.ops import sync

        return sync.sync(self.engine, remote, progress)

    def last_sync(self) -> LastSync:
        """The last sync of this vault on this device, by any door or process."""
        from cortexgraph_vault.ops import sync_record

        return sync_record.last_sync(self.engine)

    def init_git(self) -> str:
        from cortexgraph_vault.history import VaultHistory

        was = self.engine.history.available
        VaultHistory.init_repo(self.engine.root)
        self.engine.history = VaultHistory(
            self.engine.root, lock_wait_seconds=self.engine.config.git_lock_wait
        )
        installed = self.engine.history.install_merge_driver(self.engine.memory_folders())
        said = "already a git repository" if was else f"initialised git in {self.engine.root}"
        return said + (f"; installed {' and '.join(installed)}" if installed else "")
