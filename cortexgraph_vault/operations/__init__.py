"""The operation catalogue: each operation declared once, served by every door.

`OPERATIONS` maps an operation's name (its MCP tool name) to its `Operation`: the typed
request (`requests/`, the single source of its parameters, limits and descriptions), the
result model, the effect (read-only, writes, idempotent, destructive), the logic that carries
it out (`invoke(engine, request)`, in `ops/`), and its REST routes. The MCP server builds its
tools from it (those with `mcp_tool`), the REST routes are generated from its `rest` bindings,
the CLI commands fill its requests, and `MemoryService.run(operation, request)` runs one with
the change lock and timing.

To give an operation a new parameter, add a field to its request model (its limits and
description in `Annotated[...]`) and read it in the logic: every door follows, and
tests/operations/test_catalogue.py checks they agree.

Every name is imported from its module when first asked for (PEP 562), and
`operation_named(name)` imports only the module declaring that operation: a CLI `search`
builds the request models of its own operation, not those of forty others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.deferred_import import package_names
from cortexgraph_vault.requests import NoArguments, Request

if TYPE_CHECKING:
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
        APPLY_PLAN,
        CLUSTER_MEMORIES,
        CONSOLIDATE_MEMORIES,
        GC,
        LIFECYCLE_OPERATIONS,
        PROMOTE_MEMORY,
        RUN_PIPELINE,
        SNAPSHOT,
    )
    from cortexgraph_vault.operations.maintenance import (
        EFFECTIVE_CONFIG,
        EXPORT_CORTEXGRAPH,
        EXPORT_JSON,
        GRAPH_HTML,
        IMPORT_CORTEXGRAPH,
        IMPORT_MEMORY_JSON,
        INIT_GIT,
        MAINTENANCE_OPERATIONS,
        REINDEX,
    )
    from cortexgraph_vault.operations.memories import (
        CREATE_RELATION,
        DELETE_MEMORY,
        MEMORY_OPERATIONS,
        OBSERVE_MEMORY_USAGE,
        OPEN_MEMORIES,
        SAVE_MEMORY,
        SEARCH_MEMORY,
        SUPERSEDE_MEMORIES,
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
        Rest,
        params_of,
    )
    from cortexgraph_vault.operations.vault import (
        GET_PERFORMANCE_METRICS,
        LAST_SYNC,
        READ_GRAPH,
        READ_NOTE,
        SEARCH_UNIFIED,
        SYNC_VAULT,
        VAULT_OPERATIONS,
        VAULT_STATS,
        VAULT_STATUS,
    )

    OPERATIONS: dict[str, AnyOperation]

# module → the names it gives this package
EXPORTS: dict[str, tuple[str, ...]] = {
    "memories": (
        "CREATE_RELATION",
        "DELETE_MEMORY",
        "MEMORY_OPERATIONS",
        "OBSERVE_MEMORY_USAGE",
        "OPEN_MEMORIES",
        "SAVE_MEMORY",
        "SEARCH_MEMORY",
        "SUPERSEDE_MEMORIES",
        "TOUCH_MEMORY",
        "UPDATE_MEMORY",
    ),
    "lifecycle": (
        "APPLY_PLAN",
        "CLUSTER_MEMORIES",
        "CONSOLIDATE_MEMORIES",
        "GC",
        "LIFECYCLE_OPERATIONS",
        "PROMOTE_MEMORY",
        "RUN_PIPELINE",
        "SNAPSHOT",
    ),
    "memory_history": (
        "FORGOTTEN_MEMORIES",
        "HISTORY_OPERATIONS",
        "MEMORY_HISTORY",
        "MEMORY_VERSION",
        "RESTORE_MEMORY",
    ),
    "vault": (
        "GET_PERFORMANCE_METRICS",
        "LAST_SYNC",
        "READ_GRAPH",
        "READ_NOTE",
        "SEARCH_UNIFIED",
        "SYNC_VAULT",
        "VAULT_OPERATIONS",
        "VAULT_STATS",
        "VAULT_STATUS",
    ),
    "intelligence": (
        "ANALYZE_FOR_RECALL",
        "ANALYZE_MESSAGE",
        "AUTO_RECALL_PROCESS_MESSAGE",
        "INTELLIGENCE_OPERATIONS",
        "REVIEW_MEMORIES",
    ),
    "browse": (
        "BROWSE_OPERATIONS",
        "GRAPH_NEIGHBOURHOOD",
        "LIST_MEMORIES",
        "MEMORY_AT_PATH",
        "MEMORY_DETAIL",
        "RELATED_TO_NOTE",
    ),
    "maintenance": (
        "EFFECTIVE_CONFIG",
        "EXPORT_CORTEXGRAPH",
        "EXPORT_JSON",
        "GRAPH_HTML",
        "IMPORT_CORTEXGRAPH",
        "IMPORT_MEMORY_JSON",
        "INIT_GIT",
        "MAINTENANCE_OPERATIONS",
        "REINDEX",
    ),
    "operation": (
        "REQUIRED",
        "AnyOperation",
        "Effect",
        "Operation",
        "Param",
        "Rest",
        "params_of",
    ),
}
_MODULE_OF = {name: module for module, names in EXPORTS.items() for name in names}
# each area's module and its tuple of operations, in the catalogue's order
AREAS: tuple[tuple[str, str], ...] = (
    ("memories", "MEMORY_OPERATIONS"),
    ("lifecycle", "LIFECYCLE_OPERATIONS"),
    ("memory_history", "HISTORY_OPERATIONS"),
    ("vault", "VAULT_OPERATIONS"),
    ("intelligence", "INTELLIGENCE_OPERATIONS"),
    ("browse", "BROWSE_OPERATIONS"),
    ("maintenance", "MAINTENANCE_OPERATIONS"),
)
# operation name → the module declaring it (tests/operations/test_lazy_catalogue.py keeps it true)
OPERATION_MODULES: dict[str, str] = {
    "save_memory": "memories",
    "search_memory": "memories",
    "open_memories": "memories",
    "touch_memory": "memories",
    "observe_memory_usage": "memories",
    "update_memory": "memories",
    "delete_memory": "memories",
    "create_relation": "memories",
    "supersede_memories": "memories",
    "gc": "lifecycle",
    "promote_memory": "lifecycle",
    "cluster_memories": "lifecycle",
    "consolidate_memories": "lifecycle",
    "run_pipeline": "lifecycle",
    "apply_plan": "lifecycle",
    "snapshot": "lifecycle",
    "memory_history": "memory_history",
    "memory_version": "memory_history",
    "forgotten_memories": "memory_history",
    "restore_memory": "memory_history",
    "search_unified": "vault",
    "read_note": "vault",
    "read_graph": "vault",
    "vault_status": "vault",
    "vault_stats": "vault",
    "get_performance_metrics": "vault",
    "sync_vault": "vault",
    "last_sync": "vault",
    "analyze_message": "intelligence",
    "analyze_for_recall": "intelligence",
    "auto_recall_process_message": "intelligence",
    "review_memories": "intelligence",
    "list_memories": "browse",
    "memory_detail": "browse",
    "memory_at_path": "browse",
    "related_to_note": "browse",
    "graph_neighbourhood": "browse",
    "import_cortexgraph": "maintenance",
    "import_memory_json": "maintenance",
    "export_cortexgraph": "maintenance",
    "export_json": "maintenance",
    "graph_html": "maintenance",
    "reindex": "maintenance",
    "init_git": "maintenance",
    "effective_config": "maintenance",
}


def operation_named(name: str) -> AnyOperation:
    """The operation named `name`, importing only the module that declares it; KeyError if
    there is none."""
    module = importlib.import_module(f"{__name__}.{OPERATION_MODULES[name]}")
    for op in getattr(module, dict(AREAS)[OPERATION_MODULES[name]]):
        if op.name == name:
            found: AnyOperation = op
            return found
    raise KeyError(name)


def _catalogue() -> dict[str, AnyOperation]:
    ops: dict[str, AnyOperation] = {}
    for module, group in AREAS:
        for op in getattr(importlib.import_module(f"{__name__}.{module}"), group):
            ops[op.name] = op
    return ops


_first_use = package_names(__name__, _MODULE_OF)


def __getattr__(name: str) -> Any:
    if name != "OPERATIONS":
        return _first_use(name)
    globals()[name] = _catalogue()
    return globals()[name]


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF, "OPERATIONS"])


__all__ = [
    "ANALYZE_FOR_RECALL",
    "ANALYZE_MESSAGE",
    "APPLY_PLAN",
    "AUTO_RECALL_PROCESS_MESSAGE",
    "BROWSE_OPERATIONS",
    "CLUSTER_MEMORIES",
    "CONSOLIDATE_MEMORIES",
    "CREATE_RELATION",
    "DELETE_MEMORY",
    "EFFECTIVE_CONFIG",
    "EXPORT_CORTEXGRAPH",
    "EXPORT_JSON",
    "FORGOTTEN_MEMORIES",
    "GC",
    "GET_PERFORMANCE_METRICS",
    "GRAPH_HTML",
    "GRAPH_NEIGHBOURHOOD",
    "HISTORY_OPERATIONS",
    "IMPORT_CORTEXGRAPH",
    "IMPORT_MEMORY_JSON",
    "INIT_GIT",
    "INTELLIGENCE_OPERATIONS",
    "LAST_SYNC",
    "LIFECYCLE_OPERATIONS",
    "LIST_MEMORIES",
    "MAINTENANCE_OPERATIONS",
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
    "REINDEX",
    "RELATED_TO_NOTE",
    "REQUIRED",
    "RESTORE_MEMORY",
    "REVIEW_MEMORIES",
    "RUN_PIPELINE",
    "SAVE_MEMORY",
    "SEARCH_MEMORY",
    "SEARCH_UNIFIED",
    "SNAPSHOT",
    "SUPERSEDE_MEMORIES",
    "SYNC_VAULT",
    "TOUCH_MEMORY",
    "UPDATE_MEMORY",
    "VAULT_OPERATIONS",
    "VAULT_STATS",
    "VAULT_STATUS",
    "AnyOperation",
    "Effect",
    "NoArguments",
    "Operation",
    "Param",
    "Request",
    "Rest",
    "operation_named",
    "params_of",
]
