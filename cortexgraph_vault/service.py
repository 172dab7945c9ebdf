"""MemoryService: the one facade every door (MCP, REST, CLI) calls.

It owns the engine (clock, config, vault, index, history). Each method is one operation;
the logic lives in `ops/`, grouped by what it does to memories.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cortexgraph_vault.config import Config, describe
from cortexgraph_vault.engine import Clock, VaultEngine
from cortexgraph_vault.index.catalog import VaultCatalog
from cortexgraph_vault.metrics import CallRecorder
from cortexgraph_vault.models import (
    AutoRecallResult,
    DeleteResult,
    ForgottenList,
    GcResult,
    HistoryResult,
    LastSync,
    MemoryDetail,
    MemoryList,
    MessageAnalysis,
    NoteRead,
    ObserveResult,
    OpenResult,
    PerformanceMetrics,
    PromoteResult,
    RecallAnalysis,
    RelationResult,
    RestoreResult,
    ReviewResult,
    SaveResult,
    SearchResult,
    SnapshotResult,
    StatsResult,
    SyncResult,
    TouchResult,
    UpdateResult,
    VersionResult,
)
from cortexgraph_vault.models.consolidation import (
    ClusterResult,
    ConsolidateResult,
    PipelineResult,
)
from cortexgraph_vault.models.graph import (
    GraphResult,
    NeighbourhoodResult,
    ReindexResult,
    VaultStatus,
)
from cortexgraph_vault.models.maintenance import (
    DoctorResult,
    ExportResult,
    GraphPictureResult,
    ImportResult,
)
from cortexgraph_vault.ops import (
    browse,
    graph,
    intel,
    lifecycle,
    notes,
    past,
    reads,
    search,
    writes,
)
from cortexgraph_vault.ops import consolidate as consolidation
from cortexgraph_vault.pipeline import runner as pipeline_runner
from cortexgraph_vault.progress import ProgressFactory


class MemoryService:
    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        progress: ProgressFactory | None = None,
        on_catalog: Callable[[VaultCatalog], None] | None = None,
    ) -> None:
        self.engine = VaultEngine(config, clock=clock, on_catalog=on_catalog)
        lifecycle.record_uncommitted(self.engine)
        if progress is not None:  # long operations report how far they got (the CLI's bars)
            self.engine.report_progress(progress)
        # Doors time their calls here (get_performance_metrics).
        self.metrics = CallRecorder()
        # Doors run calls on worker threads: calls that change the vault take turns. Reads
        # need no turn while the watcher keeps the catalogue current (it already changes the
        # catalogue beside every call, under the catalogue's own lock); without a watcher a
        # read walks and refreshes the catalogue, so it takes its turn too.
        self.turn = threading.RLock()

    def call_turn(self, read_only: bool) -> contextlib.AbstractContextManager[object]:
        """What a door holds around one call: nothing for a read on a watched vault."""
        if read_only and self.engine.watching:
            return contextlib.nullcontext()
        return self.turn

    @property
    def config(self) -> Config:
        return self.engine.config

    # writes ----------------------------------------------------------------------
    def save(self, content: str, **kwargs: Any) -> SaveResult:
        return writes.save(self.engine, content, **kwargs)

    def touch(self, memory_id: str, *, boost: bool = False) -> TouchResult:
        result = writes.touch(self.engine, memory_id, boost=boost)
        lifecycle.maybe_snapshot(self.engine)
        return result

    def observe(
        self, memory_ids: Sequence[str], context_tags: Sequence[str] | None = None
    ) -> ObserveResult:
        result = writes.observe(self.engine, memory_ids, context_tags)
        lifecycle.maybe_snapshot(self.engine)
        return result

    def update(self, memory_id: str, **kwargs: Any) -> UpdateResult:
        return writes.update(self.engine, memory_id, **kwargs)

    def delete(
        self, memory_id: str, *, mode: str = "archive", expected_hash: str | None = None
    ) -> DeleteResult:
        return writes.delete(self.engine, memory_id, mode=mode, expected_hash=expected_hash)

    def relate(
        self,
        from_memory_id: str,
        to_memory_id: str,
        relation_type: str,
        *,
        strength: float = 1.0,
        metadata: Mapping[str, Any] | None = None,
        force: bool = False,
    ) -> RelationResult:
        return writes.relate(
            self.engine,
            from_memory_id,
            to_memory_id,
            relation_type,
            strength=strength,
            metadata=metadata,
            force=force,
        )

    # reads -----------------------------------------------------------------------
    def open(self, memory_ids: Sequence[str], **kwargs: Any) -> OpenResult:
        return reads.open_memories(self.engine, memory_ids, **kwargs)

    def search(self, query: str | None = None, **kwargs: Any) -> SearchResult:
        return reads.search_memory(self.engine, query, **kwargs)

    def stats(self) -> StatsResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.stats(self.engine)

    def list_memories(self, **kwargs: Any) -> MemoryList:
        return browse.list_memories(self.engine, **kwargs)

    def memory_detail(self, ref: str) -> MemoryDetail:
        return browse.memory_detail(self.engine, ref)

    def memory_at_path(self, path: str) -> MemoryDetail:
        return browse.memory_at_path(self.engine, path)

    def read_note(
        self, ref: str, *, cursor: str | None = None, max_chars: int = 10_000
    ) -> NoteRead:
        """Any note of the vault by path, title, alias or memory id, a page at a time."""
        return notes.read_note(self.engine, ref, cursor=cursor, max_chars=max_chars)

    def effective_config(self) -> list[dict[str, Any]]:
        return describe(self.engine.config)

    def performance_metrics(self) -> PerformanceMetrics:
        return self.metrics.snapshot()

    # lifecycle -------------------------------------------------------------------
    def gc(self, **kwargs: Any) -> GcResult:
        return lifecycle.gc(self.engine, **kwargs)

    def promote(self, memory_id: str | None = None, **kwargs: Any) -> PromoteResult:
        return lifecycle.promote(self.engine, memory_id, **kwargs)

    def snapshot(self) -> SnapshotResult:
        return lifecycle.snapshot(self.engine)

    # the past --------------------------------------------------------------------
    def history(self, memory_id: str, *, limit: int = 50) -> HistoryResult:
        return past.history(self.engine, memory_id, limit=limit)

    def version(self, memory_id: str, commit: str) -> VersionResult:
        return past.version(self.engine, memory_id, commit)

    def restore(self, memory_id: str, *, commit: str | None = None) -> RestoreResult:
        return past.restore(self.engine, memory_id, commit=commit)

    def forgotten(self, *, limit: int = 100) -> ForgottenList:
        return past.forgotten(self.engine, limit=limit)

    # index and graph ---------------------------------------------------------------
    def search_unified(self, query: str, **kwargs: Any) -> SearchResult:
        return search.search_unified(self.engine, query, **kwargs)

    def related_to_note(self, path: str, limit: int = 10) -> SearchResult:
        """The memories and notes most related to the note at `path` (not the note itself)."""
        from cortexgraph_vault.ops import related

        return related.related_to_note(self.engine, path, limit)

    def read_graph(self, **kwargs: Any) -> GraphResult:
        return graph.read_graph(self.engine, **kwargs)

    def vault_status(self) -> VaultStatus:
        return graph.vault_status(self.engine)

    def graph_neighbourhood(self, ref: str, *, hops: int = 1, **kwargs: Any) -> NeighbourhoodResult:
        return graph.neighbourhood(self.engine, ref, hops=hops, **kwargs)

    neighbourhood = graph_neighbourhood

    def reindex(self) -> ReindexResult:
        return graph.reindex(self.engine)

    # intelligence (issue 7) ----------------------------------------------------------
    def analyze_message(self, message: str) -> MessageAnalysis:
        return intel.analyze_message(self.engine, message)

    def analyze_for_recall(self, message: str) -> RecallAnalysis:
        return intel.analyze_for_recall(self.engine, message)

    def auto_recall(self, message: str, *, mode: str | None = None) -> AutoRecallResult:
        return intel.auto_recall(self.engine, message, mode=mode)

    def review(self, limit: int = 20) -> ReviewResult:
        return intel.review(self.engine, limit=limit)

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
            turn=lambda: self.turn,
            sleep=sleep,
            stopped=stopped or (lambda: False),
            rate_limit=rate_limit,
        )

    # bringing memories in and out, looking after the vault (issue 9) -------------------
    def import_cortexgraph(self, path: str | None = None, **kwargs: Any) -> ImportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.import_cortexgraph(self.engine, path, **kwargs)

    def import_memory_json(self, file: str, **kwargs: Any) -> ImportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.import_memory_json(self.engine, file, **kwargs)

    def export_cortexgraph(self, folder: str, **kwargs: Any) -> ExportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.export_cortexgraph(self.engine, folder, **kwargs)

    def export_json(self, file: str, **kwargs: Any) -> ExportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.export_json(self.engine, file, **kwargs)

    def graph_html(self, file: str, **kwargs: Any) -> GraphPictureResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.graph_html(self.engine, file, **kwargs)

    def doctor(self, *, fix: bool = False) -> DoctorResult:
        from cortexgraph_vault.ops import doctor

        return doctor.diagnose(self.config, self.engine, fix=fix)

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
            self.engine.root, lock_wait_seconds=self.config.git_lock_wait
        )
        installed = self.engine.history.install_merge_driver(self.engine.memory_folders())
        said = "already a git repository" if was else f"initialised git in {self.engine.root}"
        return said + (f"; installed {' and '.join(installed)}" if installed else "")
