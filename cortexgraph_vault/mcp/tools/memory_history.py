"""Tools for the past of memories, from the vault's git history; served from the catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations import PAST_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    for op in PAST_OPERATIONS:
        tool.operation(op)
