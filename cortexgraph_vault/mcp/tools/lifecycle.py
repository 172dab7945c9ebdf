"""Tools that end a memory's short-term life: forget (gc), promote, cluster and consolidate;
served from the operation catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations import LIFECYCLE_OPERATIONS

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    for op in LIFECYCLE_OPERATIONS:
        tool.operation(op)
