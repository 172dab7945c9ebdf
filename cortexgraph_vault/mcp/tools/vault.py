"""Tools over the whole vault, from the catalogue: unified search and notes, the graph, status,
performance, sync."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations import VAULT_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    for op in VAULT_OPERATIONS:
        tool.operation(op)
