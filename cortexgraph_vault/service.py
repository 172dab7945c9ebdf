"""MemoryService: the one facade every door (MCP, REST, CLI) calls.

It owns the engine (clock, config, vault, index, history). Each method is one operation;
the logic lives in `ops/`, grouped by what it does to memories.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cortexgraph_vault.config import Config, describe
from cortexgraph_vault.engine import Clock, VaultEngine
from cortexgraph_vault.errors import NotAvailableYet
from cortexgraph_vault.models import (
    DeleteResult,
    ForgottenView,
    GcResult,
    HistoryResult,
    ObserveResult,
    OpenResult,
    PromoteResult,
    RelationResult,
    RestoreResult,
    SaveResult,
    SearchResult,
    SnapshotResult,
    StatsResult,
    TouchResult,
    UpdateResult,
    VersionResult,
)
from cortexgraph_vault.ops import lifecycle, past, reads, writes


class MemoryService:
    def __init__(self, config: Config, *, clock: Clock | None = None) -> None:
        self.engine = VaultEngine(config, clock=clock)

    @property
    def config(self) -> Config:
        return self.engine.config

    # writes ----------------------------------------------------------------------
    def save(self, content: str, **kwargs: Any) -> SaveResult:
        return writes.save(self.engine, content, **kwargs)

    def touch(self, memory_id: str, *, boost: bool = False) -> TouchResult:
        return writes.touch(self.engine, memory_id, boost=boost)

    def observe(
        self, memory_ids: Sequence[str], context_tags: Sequence[str] | None = None
    ) -> ObserveResult:
        return writes.observe(self.engine, memory_ids, context_tags)

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
    ) -> RelationResult:
        return writes.relate(
            self.engine,
            from_memory_id,
            to_memory_id,
            relation_type,
            strength=strength,
            metadata=metadata,
        )

    # reads -----------------------------------------------------------------------
    def open(self, memory_ids: Sequence[str], **kwargs: Any) -> OpenResult:
        return reads.open_memories(self.engine, memory_ids, **kwargs)

    def search(self, query: str | None = None, **kwargs: Any) -> SearchResult:
        return reads.search_memory(self.engine, query, **kwargs)

    def stats(self) -> StatsResult:
        return reads.stats(self.engine)

    def effective_config(self) -> list[dict[str, Any]]:
        return describe(self.engine.config)

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

    def forgotten(self, *, limit: int = 100) -> list[ForgottenView]:
        return past.forgotten(self.engine, limit=limit)

    # index and graph (issue 3) -----------------------------------------------------
    def search_unified(self, query: str, **kwargs: Any) -> Any:
        raise NotAvailableYet("search_unified arrives with the live index (issue 3)")

    def read_graph(self, **kwargs: Any) -> Any:
        raise NotAvailableYet("read_graph arrives with the live index (issue 3)")

    def vault_status(self) -> Any:
        raise NotAvailableYet("vault_status arrives with the live index (issue 3)")

    # intelligence (issue 7) ----------------------------------------------------------
    def analyze_message(self, message: str) -> Any:
        raise NotAvailableYet("analyze_message arrives with memory intelligence (issue 7)")

    def analyze_for_recall(self, message: str) -> Any:
        raise NotAvailableYet("analyze_for_recall arrives with memory intelligence (issue 7)")

    def auto_recall(self, message: str, **kwargs: Any) -> Any:
        raise NotAvailableYet("auto_recall arrives with memory intelligence (issue 7)")

    # consolidation (issue 8) ---------------------------------------------------------
    def cluster(self, **kwargs: Any) -> Any:
        raise NotAvailableYet("cluster_memories arrives with consolidation (issue 8)")

    def consolidate(self, **kwargs: Any) -> Any:
        raise NotAvailableYet("consolidate_memories arrives with consolidation (issue 8)")

    # git -------------------------------------------------------------------------------
    def init_git(self) -> str:
        from cortexgraph_vault.history import VaultHistory

        was = self.engine.history.available
        VaultHistory.init_repo(self.engine.root)
        self.engine.history = VaultHistory(
            self.engine.root, lock_wait_seconds=self.config.git_lock_wait
        )
        return "already a git repository" if was else f"initialised git in {self.engine.root}"
