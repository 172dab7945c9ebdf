"""The operation catalogue: each operation declared once (operation.py), served by every door.

`OPERATIONS` maps an operation's name (its MCP tool name) to its `Operation`. To give an
operation a new parameter, add a field to its request model (its limits and description in
`Annotated[...]`) and read it in the logic: every door follows, and
tests/operations/test_catalogue.py checks they agree.

Each area module (`memories`, `lifecycle`, ...) declares its operations (its `OPERATIONS`, in
the order declared); `operation_named(name)` imports only the module declaring that operation,
and an operation imports its request and result models when first read (`Operation.request`,
`.result`): a CLI `search` builds its own operation's models, not those of forty others.
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
# each area module with the operations it declares, in the catalogue's order
# (tests/operations/test_lazy_catalogue.py keeps it true)
AREA_OPERATIONS: dict[str, str] = {
    "memories": (
        "save_memory search_memory open_memories touch_memory observe_memory_usage update_memory "
        "delete_memory create_relation supersede_memories"
    ),
    "lifecycle": (
        "gc promote_memory cluster_memories consolidate_memories run_pipeline apply_plan snapshot"
    ),
    "memory_history": "memory_history memory_version forgotten_memories restore_memory",
    "vault": (
        "search_unified read_note read_graph vault_status vault_stats get_performance_metrics "
        "sync_vault last_sync"
    ),
    "intelligence": (
        "analyze_message analyze_for_recall auto_recall_process_message review_memories"
    ),
    "browse": "list_memories memory_detail memory_at_path related_to_note graph_neighbourhood",
    "maintenance": (
        "import_cortexgraph import_memory_json export_cortexgraph export_json graph_html reindex "
        "init_git effective_config"
    ),
}
AREAS = tuple(AREA_OPERATIONS)
# operation name → the module declaring it
OPERATION_MODULES = {
    name: area for area, names in AREA_OPERATIONS.items() for name in names.split()
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
