"""Tools over the whole vault: unified search, the graph, status and performance."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.mcp.params import (
    Explain,
    MinScore,
    Page,
    PageSize,
    PreviewLength,
    ReviewCandidates,
    TagFilter,
    WindowDays,
)
from cortexgraph_vault.mcp.tool_calls import READ_ONLY, WRITES
from cortexgraph_vault.models import (
    GraphResult,
    PerformanceMetrics,
    SearchResult,
    SyncResult,
    VaultStatus,
)

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry

NoteStatus = Literal["active", "promoted", "archived", "note", "all"]
Weight = Annotated[float | None, Field(ge=0, le=2)]


def register(tool: ToolRegistry) -> None:
    service = tool.service

    @tool(READ_ONLY, title="Search memories and notes")
    def search_unified(
        query: Annotated[
            str, Field(min_length=1, max_length=2000, description="words to look for")
        ],
        tags: TagFilter = None,
        status: Annotated[
            NoteStatus | list[NoteStatus] | None,
            Field(
                description="active, promoted, archived (memories), note (any other note) or all; default: active, promoted and notes"
            ),
        ] = None,
        folder: Annotated[
            str | None, Field(max_length=500, description="only notes inside this vault folder")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="how many results at most")] = 10,
        stm_weight: Annotated[
            Weight, Field(description="weight of short-term memories (default 1.0, configurable)")
        ] = None,
        ltm_weight: Annotated[
            Weight,
            Field(description="weight of promoted memories and notes (default 0.7, configurable)"),
        ] = None,
        window_days: WindowDays = None,
        min_score: MinScore = None,
        page: Page = None,
        page_size: PageSize = None,
        preview_length: PreviewLength = 300,
        include_review_candidates: ReviewCandidates = True,
        explain: Explain = False,
    ) -> SearchResult:
        """Search short-term memories, promoted memories and every other note in the vault at once.

        Each result says where it lives (source: stm, ltm or note), its path, id, score and the
        fields that matched. A query that matches nothing returns nothing.
        """
        return service.search_unified(
            query, tags=tags, status=status, folder=folder, limit=limit, stm_weight=stm_weight,
            ltm_weight=ltm_weight, window_days=window_days, min_score=min_score, page=page,
            page_size=page_size, preview_length=preview_length,
            include_review_candidates=include_review_candidates, explain=explain,
        )  # fmt: skip

    @tool(READ_ONLY, title="Read the memory graph")
    def read_graph(
        status: Annotated[
            NoteStatus,
            Field(
                description="which notes: active, promoted, archived memories, other notes, or all"
            ),
        ] = "active",
        include_scores: Annotated[bool, Field(description="live decay scores")] = True,
        limit: Annotated[int, Field(ge=1, le=1000, description="notes at most")] = 100,
        page: Page = None,
        page_size: Annotated[int | None, Field(ge=1, le=1000, description="notes per page")] = None,
    ) -> GraphResult:
        """Notes with the links and typed relations between them, and whole-vault graph statistics,
        a page at a time."""
        return service.read_graph(
            status=status, include_scores=include_scores, limit=limit, page=page,
            page_size=page_size,
        )  # fmt: skip

    @tool(READ_ONLY, title="Vault status")
    def vault_status() -> VaultStatus:
        """The index's health: watcher heartbeat, counts, cache, and every file it could not read, with why."""
        return service.vault_status()

    @tool(READ_ONLY, title="Performance metrics")
    def get_performance_metrics() -> PerformanceMetrics:
        """How many calls each tool served since this server started, and how long they took."""
        return service.performance_metrics()

    @tool(WRITES, title="Sync memories across devices")
    def sync_vault(
        remote: Annotated[
            str | None,
            Field(max_length=200, description="the git remote; default: the branch's, or origin"),
        ] = None,
    ) -> SyncResult:
        """Bring this device's memories together with the other devices' through the vault's git
        remote: record pending uses, fetch, merge each memory field by field (uses add up), push.

        Refuses, changing nothing, when there is no remote, the credentials are refused, the
        histories cannot be merged, or the person's own notes have uncommitted changes.
        """
        return service.sync(remote=remote)
