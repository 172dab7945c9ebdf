"""The operation catalogue: each operation declared once (operation.py), served by every door.

`OPERATIONS` maps an operation's name (its MCP tool name) to its `Operation`. To give an
operation a new parameter, add a field to its request model (its limits and description in
`Annotated[...]`) and read it in the logic: every door follows, and
tests/operations/test_catalogue.py checks they agree.

Each area module (`memories`, `lifecycle`, ...) declares its operations (its `OPERATIONS`, in
the order declared); `operation_named(name)` imports only the module declaring that operation: a CLI
`search` builds the request models of its own operation, not those of forty others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.deferred_import import package_names
from cortexgraph_vault.requests import NoArguments, Request

if TYPE_CHECKING:
    from cortexgraph_vault.operations.operation import (
        REQUIRED,
        AnyOperation,
        Effect,
        Operation,
        Param,
        Rest,
        params_of,
    )

    OPERATIONS: dict[str, AnyOperation]

_KERNEL = ("REQUIRED", "AnyOperation", "Effect", "Operation", "Param", "Rest", "params_of")
# the area modules, in the catalogue's order
AREAS = (
    "memories",
    "lifecycle",
    "memory_history",
    "vault",
    "intelligence",
    "browse",
    "maintenance",
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
    for op in module.OPERATIONS:
        if op.name == name:
            found: AnyOperation = op
            return found
    raise KeyError(name)


def _catalogue() -> dict[str, AnyOperation]:
    ops: dict[str, AnyOperation] = {}
    for area in AREAS:
        for op in importlib.import_module(f"{__name__}.{area}").OPERATIONS:
            ops[op.name] = op
    return ops


_first_use = package_names(__name__, dict.fromkeys(_KERNEL, "operation"))


def __getattr__(name: str) -> Any:
    if name != "OPERATIONS":
        return _first_use(name)
    globals()[name] = _catalogue()
    return globals()[name]


def __dir__() -> list[str]:
    return sorted([*globals(), *_KERNEL, "OPERATIONS"])


__all__ = [
    "REQUIRED",
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
