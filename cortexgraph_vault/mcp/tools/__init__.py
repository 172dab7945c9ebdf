"""The MCP tools, one module per area; each registers its tools on a `ToolRegistry`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.mcp.tools import intelligence, lifecycle, memory, memory_history, vault

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry

AREAS = (memory, lifecycle, memory_history, vault, intelligence)


def register_all(tool: ToolRegistry) -> None:
    for area in AREAS:
        area.register(tool)
