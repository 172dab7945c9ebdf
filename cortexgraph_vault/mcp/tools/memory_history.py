"""Tools for the history of memories, from the vault's git; served from the catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations import HISTORY_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    for op in HISTORY_OPERATIONS:
        tool.operation(op)
