"""Tools that read a message for what to save and what to recall; served from the catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations import INTELLIGENCE_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    for op in INTELLIGENCE_OPERATIONS:
        tool.operation(op)
