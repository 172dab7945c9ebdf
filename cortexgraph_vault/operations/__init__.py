"""The operation catalogue: each operation declared once, served by every door.

`OPERATIONS` maps an operation's name (its MCP tool name) to its `Operation`: the typed
request (the single source of its parameters, limits and descriptions), the result model,
the effect (read-only, writes, idempotent, destructive) and the service call. The MCP server
builds its tools from it, the REST routes derive their query and body models from it, and
`MemoryService.run(operation, request)` runs one with the service's turn and timing.
"""

from __future__ import annotations

from cortexgraph_vault.operations.memories import (
    CREATE_RELATION,
    DELETE_MEMORY,
    MEMORY_OPERATIONS,
    OBSERVE_MEMORY_USAGE,
    OPEN_MEMORIES,
    SAVE_MEMORY,
    SEARCH_MEMORY,
    TOUCH_MEMORY,
    UPDATE_MEMORY,
)
from cortexgraph_vault.operations.operation import (
    REQUIRED,
    Effect,
    Operation,
    Param,
    Request,
    params_of,
)
from cortexgraph_vault.operations.vault import READ_NOTE, SEARCH_UNIFIED

OPERATIONS: dict[str, Operation] = {
    op.name: op for op in (*MEMORY_OPERATIONS, SEARCH_UNIFIED, READ_NOTE)
}

__all__ = [
    "CREATE_RELATION",
    "DELETE_MEMORY",
    "MEMORY_OPERATIONS",
    "OBSERVE_MEMORY_USAGE",
    "OPEN_MEMORIES",
    "OPERATIONS",
    "READ_NOTE",
    "REQUIRED",
    "SAVE_MEMORY",
    "SEARCH_MEMORY",
    "SEARCH_UNIFIED",
    "TOUCH_MEMORY",
    "UPDATE_MEMORY",
    "Effect",
    "Operation",
    "Param",
    "Request",
    "params_of",
]
