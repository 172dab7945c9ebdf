"""Tools over the whole vault: unified search and notes (from the catalogue), the graph, status,
performance and sync."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from cortexgraph_vault.mcp.tool_calls import READ_ONLY, WRITES
from cortexgraph_vault.models import GraphResult, PerformanceMetrics, SyncSummary, VaultStatus
from cortexgraph_vault.models.graph import GRAPH_MAX_CHARS
from cortexgraph_vault.operations import READ_NOTE, SEARCH_UNIFIED
from cortexgraph_vault.operations.params import Page
from cortexgraph_vault.operations.vault import NoteStatus

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    service = tool.service

    tool.operation(SEARCH_UNIFIED)
    tool.operation(READ_NOTE)

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
        cursor: Annotated[
            str | None,
            Field(max_length=2000, description="next_cursor of the previous answer, to continue"),
        ] = None,
        max_chars: Annotated[
            int,
            Field(
                ge=2_000,
                le=1_000_000,
                description="size budget of the answer in characters of JSON (default 40000)",
            ),
        ] = GRAPH_MAX_CHARS,
    ) -> GraphResult:
        """Notes with the links and typed relations from them, and whole-vault graph statistics,
        a page at a time.

        An answer holds at most `limit` notes and at most `max_chars` characters (about 10k
        tokens by default); when more notes follow, call again with `cursor` = its next_cursor.
        """
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
        """How many calls each tool served since this server started, and how long they took."""
        return service.performance_metrics()

    @tool(WRITES, title="Sync")
    def sync_vault(
        remote: Annotated[str | None, Field(max_length=200, description="remote")] = None,
    ) -> SyncSummary:
        """Sync memories via git; uses add up."""
        done = service.sync(remote=remote)
        return SyncSummary(message=done.message, merged=done.merged_count)
