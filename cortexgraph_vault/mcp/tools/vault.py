"""Tools over the whole vault: unified search and notes (from the catalogue), the graph, status,
performance; sync (by hand: its MCP answer is a summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from cortexgraph_vault.mcp.tool_calls import WRITES
from cortexgraph_vault.models import SyncSummary
from cortexgraph_vault.operations import VAULT_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    service = tool.service

    for op in VAULT_OPERATIONS:
        tool.operation(op)

    @tool(WRITES, title="Sync")
    def sync_vault(
        remote: Annotated[str | None, Field(max_length=200, description="remote")] = None,
    ) -> SyncSummary:
        """Sync memories via git; uses add up."""
        done = service.sync(remote=remote)
        return SyncSummary(message=done.message, merged=done.merged_count)
