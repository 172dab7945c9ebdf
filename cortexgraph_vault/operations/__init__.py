"""The operation catalogue: each operation declared once, served by every door.

`OPERATIONS` maps an operation's name (its MCP tool name) to its `Operation`: the typed
request (the single source of its parameters, limits and descriptions), the result model,
the effect (read-only, writes, idempotent, destructive) and the service call. The MCP server
builds its tools from it (those with `mcp_tool`), the REST routes derive their query and
body models from it, and `MemoryService.run(operation, request)` runs one with the service's
change lock and timing.

To give an operation a new parameter, add a field to its request model (its limits and
description in `Annotated[...]`) and pass it on in the operation's `invoke`: the MCP tool and
the REST model follow, and tests/operations/test_catalogue.py checks they agree.
"""

from __future__ import annotations

from cortexgraph_vault.operations.browse import (
    BROWSE_OPERATIONS,
    GRAPH_NEIGHBOURHOOD,
    LIST_MEMORIES,
    MEMORY_AT_PATH,
    MEMORY_DETAIL,
    RELATED_TO_NOTE,
)
from cortexgraph_vault.operations.intelligence import (
    ANALYZE_FOR_RECALL,
    ANALYZE_MESSAGE,
    AUTO_RECALL_PROCESS_MESSAGE,
    INTELLIGENCE_OPERATIONS,
    REVIEW_MEMORIES,
)
from cortexgraph_vault.operations.lifecycle import (
    CLUSTER_MEMORIES,
    CONSOLIDATE_MEMORIES,
    GC,
    LIFECYCLE_OPERATIONS,
    PROMOTE_MEMORY,
)
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
from cortexgraph_vault.operations.memory_history import (
    FORGOTTEN_MEMORIES,
    HISTORY_OPERATIONS,
    MEMORY_HISTORY,
    MEMORY_VERSION,
    RESTORE_MEMORY,
)
from cortexgraph_vault.operations.operation import (
    REQUIRED,
    AnyOperation,
    Effect,
    Operation,
    Param,
    Request,
    params_of,
)
from cortexgraph_vault.operations.vault import (
    GET_PERFORMANCE_METRICS,
    READ_GRAPH,
    READ_NOTE,
    SEARCH_UNIFIED,
    SYNC_VAULT,
    VAULT_OPERATIONS,
    VAULT_STATUS,
)

OPERATIONS: dict[str, AnyOperation] = {
    op.name: op
    for op in (
        *MEMORY_OPERATIONS,
        *LIFECYCLE_OPERATIONS,
        *HISTORY_OPERATIONS,
        *VAULT_OPERATIONS,
        *INTELLIGENCE_OPERATIONS,
        *BROWSE_OPERATIONS,
    )
}

__all__ = [
    "ANALYZE_FOR_RECALL",
    "ANALYZE_MESSAGE",
    "AUTO_RECALL_PROCESS_MESSAGE",
    "BROWSE_OPERATIONS",
    "CLUSTER_MEMORIES",
    "CONSOLIDATE_MEMORIES",
    "CREATE_RELATION",
    "DELETE_MEMORY",
    "FORGOTTEN_MEMORIES",
    "GC",
    "GET_PERFORMANCE_METRICS",
    "GRAPH_NEIGHBOURHOOD",
    "HISTORY_OPERATIONS",
    "INTELLIGENCE_OPERATIONS",
    "LIFECYCLE_OPERATIONS",
    "LIST_MEMORIES",
    "MEMORY_AT_PATH",
    "MEMORY_DETAIL",
    "MEMORY_HISTORY",
    "MEMORY_OPERATIONS",
    "MEMORY_VERSION",
    "OBSERVE_MEMORY_USAGE",
    "OPEN_MEMORIES",
    "OPERATIONS",
    "PROMOTE_MEMORY",
    "READ_GRAPH",
    "READ_NOTE",
    "RELATED_TO_NOTE",
    "REQUIRED",
    "RESTORE_MEMORY",
    "REVIEW_MEMORIES",
    "SAVE_MEMORY",
    "SEARCH_MEMORY",
    "SEARCH_UNIFIED",
    "SYNC_VAULT",
    "TOUCH_MEMORY",
    "UPDATE_MEMORY",
    "VAULT_OPERATIONS",
    "VAULT_STATUS",
    "AnyOperation",
    "Effect",
    "Operation",
    "Param",
    "Request",
    "params_of",
]
