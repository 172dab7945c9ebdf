"""Tools over the whole vault: unified search, the graph, status and performance."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.mcp.params import (
    Cursor,
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
    NoteRead,
    PerformanceMetrics,
    SearchResult,
    SyncSummary,
    VaultStatus,
)
from cortexgraph_vault.models.graph import GRAPH_MAX_CHARS

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
                description="memories (active, promoted, archived), other notes (note) or all; default: all but archived"
            ),
        ] = None,
        folder: Annotated[
            str | None, Field(max_length=500, description="only notes inside this vault folder")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="how many results at most")] = 10,
        stm_weight: Annotated[
            Weight, Field(description="weight of short-term memories (default 1.0)")
        ] = None,
        ltm_weight: Annotated[
            Weight,
            Field(description="weight of promoted memories and notes (default 0.7)"),
        ] = None,
        window_days: WindowDays = None,
        min_score: MinScore = None,
        page: Page = None,
        page_size: PageSize = None,
        preview_length: PreviewLength = 300,
        include_review_candidates: ReviewCandidates = True,
        explain: Explain = False,
        cursor: Cursor = None,
    ) -> SearchResult:
        """Search memories and every other vault note at once; each result has its source (stm,
        ltm, note), path, score and matched fields. Read a note in full with read_note(path)."""
        return service.search_unified(
            query, tags=tags, status=status, folder=folder, limit=limit, stm_weight=stm_weight,
            ltm_weight=ltm_weight, window_days=window_days, min_score=min_score, page=page,
            page_size=page_size, preview_length=preview_length,
            include_review_candidates=include_review_candidates, explain=explain, cursor=cursor,
        )  # fmt: skip

    @tool(READ_ONLY, title="Read a note")
    def read_note(
        ref: Annotated[
            str,
            Field(
                min_length=1,
                max_length=1000,
                description="path, title, alias, [[link]] or memory id",
            ),
        ],
        cursor: Annotated[
            str | None, Field(max_length=64, description="next_cursor of the previous page")
        ] = None,
        max_chars: Annotated[
            int, Field(ge=200, le=100_000, description="body characters per page")
        ] = 10_000,
    ) -> NoteRead:
        """Read any vault note (a path from search_unified, a title, alias or [[link]]):
        frontmatter, body a page at a time (pass next_cursor), links and backlinks."""
        return service.read_note(ref, cursor=cursor, max_chars=max_chars)

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
        cursor: Cursor = None,
        max_chars: Annotated[
            int,
            Field(
                ge=2_000,
                le=1_000_000,
                description="answer size in characters (default 40000)",
            ),
        ] = GRAPH_MAX_CHARS,
    ) -> GraphResult:
        """Notes with the links and typed relations from them, and whole-vault graph statistics.
        At most `limit` notes and `max_chars` characters; more: pass next_cursor as cursor."""
        return service.read_graph(
            status=status, include_scores=include_scores, limit=limit, page=page,
            page_size=page_size, cursor=cursor, max_chars=max_chars,
        )  # fmt: skip

    @tool(READ_ONLY, title="Vault status")
    def vault_status() -> VaultStatus:
        """The index's health: watcher heartbeat, counts, cache, and every file it could not read, with why."""
        return service.vault_status()

    @tool(READ_ONLY, title="Performance metrics")
    def get_performance_metrics() -> PerformanceMetrics:
        """Calls served per tool since this server started, and how long they took."""
        return service.performance_metrics()

    @tool(WRITES, title="Sync")
    def sync_vault(
        remote: Annotated[str | None, Field(max_length=200, description="remote")] = None,
    ) -> SyncSummary:
        """Sync memories via git; uses add up."""
        done = service.sync(remote=remote)
        return SyncSummary(message=done.message, merged=done.merged_count)
