"""Tools that save, find, reinforce and change memories: served from the operation catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations import MEMORY_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    for op in MEMORY_OPERATIONS:
        tool.operation(op)
