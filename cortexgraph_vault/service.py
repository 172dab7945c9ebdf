"""MemoryService: the one facade every door (MCP, REST, CLI) calls.

It owns the engine (clock, config, vault, index, history). Each method is one operation;
the logic lives in `ops/`, grouped by what it does to memories. A door runs an operation of
the catalogue with `run(operation, request)` (or any call with `call(name, read_only, fn)`),
which takes the lock the call needs (the change lock, or none for a read) and times it
(service_calls.py). The calls that look after the vault as a whole (consolidation, imports and
exports, the graph page, sync, git) are its base class `ServiceUpkeep` (service_upkeep.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.config import Config, describe
from cortexgraph_vault.deferred_import import deferred
from cortexgraph_vault.engine import Clock, VaultEngine
from cortexgraph_vault.models.limits import GRAPH_MAX_CHARS
from cortexgraph_vault.progress import ProgressFactory, no_progress
from cortexgraph_vault.service_upkeep import ServiceUpkeep

if TYPE_CHECKING:
    from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
    from cortexgraph_vault.models import (
        AutoRecallResult,
        DeleteResult,
        ForgottenList,
        GcResult,
        HistoryResult,
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
        SupersedeResult,
        TouchResult,
        UpdateResult,
        VersionResult,
    )
    from cortexgraph_vault.models.graph import (
        GraphResult,
        NeighbourhoodResult,
        ReindexResult,
        VaultStatus,
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
        supersession,
        uncommitted,
        writes,
    )
else:  # a call imports the module it runs (and its result models), not every other one
    browse = deferred("cortexgraph_vault.ops.browse")
    graph = deferred("cortexgraph_vault.ops.graph")
    intelligence = deferred("cortexgraph_vault.ops.intelligence")
    lifecycle = deferred("cortexgraph_vault.ops.lifecycle")
    memory_history = deferred("cortexgraph_vault.ops.memory_history")
    notes = deferred("cortexgraph_vault.ops.notes")
    reads = deferred("cortexgraph_vault.ops.reads")
    search = deferred("cortexgraph_vault.ops.search")
    supersession = deferred("cortexgraph_vault.ops.supersession")
    uncommitted = deferred("cortexgraph_vault.ops.uncommitted")
    writes = deferred("cortexgraph_vault.ops.writes")


class MemoryService(ServiceUpkeep):
    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        progress: ProgressFactory | None = None,
        on_catalog: Callable[[VaultCatalog], None] | None = None,
        one_call: bool = False,
    ) -> None:
        """`one_call`: the process makes one call now and ends (a CLI command)."""
        super().__init__()  # the change lock and the timing of each call (service_calls)
        self.engine = VaultEngine(
            config, clock=clock, on_catalog=on_catalog, one_call=one_call,
            before_vectors=uncommitted.record_uncommitted, progress=progress or no_progress,
        )  # fmt: skip
        if one_call:
            self.engine.trust_start_walk()

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
        supersedes: Sequence[str] | None = None,
    ) -> SaveResult:
        return writes.save(
            self.engine, content, title=title, tags=tags, entities=entities, source=source,
            context=context, meta=meta, strength=strength, force=force, supersedes=supersedes,
        )  # fmt: skip

    def touch(self, memory_id: str, *, boost: bool = False) -> TouchResult:
        with self.disk_waits_let_go():
            result = writes.touch(self.engine, memory_id, boost=boost)
        lifecycle.maybe_snapshot(self.engine)
        return result

    def observe(
        self, memory_ids: Sequence[str], context_tags: Sequence[str] | None = None
    ) -> ObserveResult:
        with self.disk_waits_let_go():
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
        supersedes: Sequence[str] | None = None,
    ) -> UpdateResult:
        return writes.update(
            self.engine, memory_id, content=content, tags=tags, entities=entities,
            strength=strength, expected_hash=expected_hash, force=force, supersedes=supersedes,
        )  # fmt: skip

    def supersede(self, new_id: str, old_ids: Sequence[str]) -> SupersedeResult:
        """`new_id` replaces the memories `old_ids` name: recorded in both notes
        (`supersedes`, `superseded_by`, `valid_until`), the new one taking over their standing;
        one commit. The same as `relate(new_id, old_id, "supersedes")` for each old one."""
        return supersession.supersede(self.engine, new_id, old_ids)

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
        include_superseded: bool = False,
    ) -> SearchResult:
        return reads.search_memory(
            self.engine, query, tags=tags, status=status, top_k=top_k,
            window_days=window_days, min_score=min_score, page=page, page_size=page_size,
            preview_length=preview_length, include_review_candidates=include_review_candidates,
            explain=explain, cursor=cursor, max_chars=max_chars,
            include_superseded=include_superseded,
        )  # fmt: skip

    def stats(self) -> StatsResult:
        from cortexgraph_vault.ops import vault_stats

        return vault_stats.stats(self.engine)

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
        include_superseded: bool = False,
    ) -> SearchResult:
        return search.search_unified(
            self.engine, query, tags=tags, status=status, folder=folder, limit=limit,
            stm_weight=stm_weight, ltm_weight=ltm_weight, window_days=window_days,
            min_score=min_score, page=page, page_size=page_size, preview_length=preview_length,
            include_review_candidates=include_review_candidates, explain=explain,
            cursor=cursor, max_chars=max_chars, include_superseded=include_superseded,
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
