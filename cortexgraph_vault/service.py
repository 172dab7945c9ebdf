"""MemoryService: the one facade every door (MCP, REST, CLI) calls.

It owns the engine (clock, config, vault, index, history). Each method is one operation;
the logic lives in `ops/`, grouped by what it does to memories. A door runs an operation of
the catalogue with `run(operation, request)` (or any call with `call(name, read_only, fn)`),
which takes the lock the call needs (the change lock, or none for a read) and times it (service_calls.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cortexgraph_vault.config import Config, describe
from cortexgraph_vault.engine import Clock, VaultEngine
from cortexgraph_vault.index.catalog import VaultCatalog
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
    GRAPH_MAX_CHARS,
    GraphResult,
    NeighbourhoodResult,
    ReindexResult,
    VaultStatus,
)
from cortexgraph_vault.models.maintenance import (
    ExportResult,
    GraphPictureResult,
    ImportResult,
)
from cortexgraph_vault.ops import (
    browse,
    graph,
    intelligence,
    lifecycle,
    memory_history,
    notes,
    reads,
    search,
    writes,
)
from cortexgraph_vault.ops import consolidate as consolidation
from cortexgraph_vault.pipeline import runner as pipeline_runner
from cortexgraph_vault.progress import Progress, ProgressFactory
from cortexgraph_vault.service_calls import ServiceCalls


class MemoryService(ServiceCalls):
    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        progress: ProgressFactory | None = None,
        on_catalog: Callable[[VaultCatalog], None] | None = None,
    ) -> None:
        super().__init__()  # the change lock and the timing of each call (service_calls)
        self.engine = VaultEngine(config, clock=clock, on_catalog=on_catalog)
        lifecycle.record_uncommitted(self.engine)
        if progress is not None:  # long operations report how far they got (the CLI's bars)
            self.engine.report_progress(progress)

    @property
    def config(self) -> Config:
        return self.engine.config

    # writes ----------------------------------------------------------------------
    def save(
        self,
        content: str,
        *,
        title: str | None = None,
        tags: Sequence[str] | None = None,
        entities: Sequence[str] | None = None,
        source: str | None = None,
        context: str | None = None,
        meta: Mapping[str, Any] | None = None,
        strength: float | None = None,
        force: bool = False,
    ) -> SaveResult:
        return writes.save(
            self.engine, content, title=title, tags=tags, entities=entities, source=source,
            context=context, meta=meta, strength=strength, force=force,
        )  # fmt: skip

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

    def update(
        self,
        memory_id: str,
        *,
        content: str | None = None,
        tags: Sequence[str] | None = None,
        entities: Sequence[str] | None = None,
        strength: float | None = None,
        expected_hash: str | None = None,
        force: bool = False,
    ) -> UpdateResult:
        return writes.update(
            self.engine, memory_id, content=content, tags=tags, entities=entities,
            strength=strength, expected_hash=expected_hash, force=force,
        )  # fmt: skip

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
    def open(
        self,
        memory_ids: Sequence[str],
        *,
        include_relations: bool = True,
        include_scores: bool = True,
        cursor: str | None = None,
        max_chars: int | None = None,
    ) -> OpenResult:
        return reads.open_memories(
            self.engine, memory_ids, include_relations=include_relations,
            include_scores=include_scores, cursor=cursor, max_chars=max_chars,
        )  # fmt: skip

    def search(
        self,
        query: str | None = None,
        *,
        tags: Sequence[str] | None = None,
        status: str | Sequence[str] | None = None,
        top_k: int = 10,
        window_days: float | None = None,
        min_score: float | None = None,
        page: int | None = None,
        page_size: int | None = None,
        preview_length: int = 300,
        include_review_candidates: bool = True,
        explain: bool = False,
        cursor: str | None = None,
        max_chars: int | None = None,
    ) -> SearchResult:
        return reads.search_memory(
            self.engine, query, tags=tags, status=status, top_k=top_k,
            window_days=window_days, min_score=min_score, page=page, page_size=page_size,
            preview_length=preview_length, include_review_candidates=include_review_candidates,
            explain=explain, cursor=cursor, max_chars=max_chars,
        )  # fmt: skip

    def stats(self) -> StatsResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.stats(self.engine)

    def list_memories(
        self,
        *,
        status: str = "active",
        sort: str = "score",
        tag: str | None = None,
        page: int = 1,
        page_size: int = 50,
    ) -> MemoryList:
        return browse.list_memories(
            self.engine, status=status, sort=sort, tag=tag, page=page, page_size=page_size
        )

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
    def gc(
        self,
        *,
        dry_run: bool = True,
        archive_instead: bool = False,
        limit: int | None = None,
        skip_paths: Iterable[str] = (),
    ) -> GcResult:
        return lifecycle.gc(
            self.engine, dry_run=dry_run, archive_instead=archive_instead, limit=limit,
            skip_paths=skip_paths,
        )  # fmt: skip

    def promote(
        self,
        memory_id: str | None = None,
        *,
        auto_detect: bool = False,
        dry_run: bool = False,
        force: bool = False,
    ) -> PromoteResult:
        return lifecycle.promote(
            self.engine, memory_id, auto_detect=auto_detect, dry_run=dry_run, force=force
        )

    def snapshot(self) -> SnapshotResult:
        return lifecycle.snapshot(self.engine)

    # memory history --------------------------------------------------------------
    def history(self, memory_id: str, *, limit: int = 50) -> HistoryResult:
        return memory_history.history(self.engine, memory_id, limit=limit)

    def version(self, memory_id: str, commit: str) -> VersionResult:
        return memory_history.version(self.engine, memory_id, commit)

    def restore(self, memory_id: str, *, commit: str | None = None) -> RestoreResult:
        return memory_history.restore(self.engine, memory_id, commit=commit)

    def forgotten(self, *, limit: int = 100) -> ForgottenList:
        return memory_history.forgotten(self.engine, limit=limit)

    # index and graph ---------------------------------------------------------------
    def search_unified(
        self,
        query: str,
        *,
        tags: Sequence[str] | None = None,
        status: str | Sequence[str] | None = None,
        folder: str | None = None,
        limit: int = 10,
        stm_weight: float | None = None,
        ltm_weight: float | None = None,
        window_days: float | None = None,
        min_score: float | None = None,
        page: int | None = None,
        page_size: int | None = None,
        preview_length: int = 300,
        include_review_candidates: bool = True,
        explain: bool = False,
        cursor: str | None = None,
        max_chars: int | None = None,
    ) -> SearchResult:
        return search.search_unified(
            self.engine, query, tags=tags, status=status, folder=folder, limit=limit,
            stm_weight=stm_weight, ltm_weight=ltm_weight, window_days=window_days,
            min_score=min_score, page=page, page_size=page_size, preview_length=preview_length,
            include_review_candidates=include_review_candidates, explain=explain,
            cursor=cursor, max_chars=max_chars,
        )  # fmt: skip

    def related_to_note(self, path: str, limit: int = 10) -> SearchResult:
        """The memories and notes most related to the note at `path` (not the note itself)."""
        from cortexgraph_vault.ops import related

        return related.related_to_note(self.engine, path, limit)

    def read_graph(
        self,
        *,
        status: str = "active",
        include_scores: bool = True,
        limit: int = 100,
        page: int | None = None,
        page_size: int | None = None,
        cursor: str | None = None,
        max_chars: int = GRAPH_MAX_CHARS,
    ) -> GraphResult:
        return graph.read_graph(
            self.engine, status=status, include_scores=include_scores, limit=limit, page=page,
            page_size=page_size, cursor=cursor, max_chars=max_chars,
        )  # fmt: skip

    def vault_status(self) -> VaultStatus:
        return graph.vault_status(self.engine)

    def graph_neighbourhood(
        self, ref: str, *, hops: int = 1, max_nodes: int = 200, include_scores: bool = True
    ) -> NeighbourhoodResult:
        return graph.neighbourhood(
            self.engine, ref, hops=hops, max_nodes=max_nodes, include_scores=include_scores
        )

    neighbourhood = graph_neighbourhood

    def reindex(self) -> ReindexResult:
        return graph.reindex(self.engine)

    # intelligence (issue 7) ----------------------------------------------------------
    def analyze_message(self, message: str) -> MessageAnalysis:
        return intelligence.analyze_message(self.engine, message)

    def analyze_for_recall(self, message: str) -> RecallAnalysis:
        return intelligence.analyze_for_recall(self.engine, message)

    def auto_recall(self, message: str, *, mode: str | None = None) -> AutoRecallResult:
        return intelligence.auto_recall(self.engine, message, mode=mode)

    def review(self, limit: int = 20) -> ReviewResult:
        return intelligence.review(self.engine, limit=limit)

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
        from cortexgraph_vault.ops import maintenance

        return maintenance.import_cortexgraph(
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
        from cortexgraph_vault.ops import maintenance

        return maintenance.import_memory_json(
            self.engine, file, dry_run=dry_run, status=status, allow_secrets=allow_secrets,
            progress=progress,
        )  # fmt: skip

    def export_cortexgraph(
        self, folder: str | Path, *, force: bool = False, progress: Progress | None = None
    ) -> ExportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.export_cortexgraph(self.engine, folder, force=force, progress=progress)

    def export_json(
        self, file: str | Path, *, force: bool = False, progress: Progress | None = None
    ) -> ExportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.export_json(self.engine, file, force=force, progress=progress)

    def graph_html(self, file: str | Path, *, include_notes: bool = True) -> GraphPictureResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.graph_html(self.engine, file, include_notes=include_notes)

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
