"""The catalogue loads one area at a time: `operation_named(name)` finds every operation of
the whole catalogue, and a fresh interpreter asking for one imports no other area."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cortexgraph_vault import operations
from cortexgraph_vault.operations import AREAS, OPERATION_MODULES, OPERATIONS, operation_named


def test_every_operation_is_found_by_name_in_the_module_the_map_names() -> None:
    assert set(OPERATION_MODULES) == set(OPERATIONS)
    for name, op in OPERATIONS.items():
        assert operation_named(name) is op
        # its request beside those of its area (or, taking no arguments, NoArguments)
        assert op.request.__module__ in (
            f"cortexgraph_vault.requests.{OPERATION_MODULES[name]}",
            "cortexgraph_vault.requests",
        )


def test_an_unknown_operation_is_a_key_error_and_an_unknown_name_an_attribute_error() -> None:
    with pytest.raises(KeyError):
        operation_named("no_such_operation")
    with pytest.raises(AttributeError, match="no attribute 'NOPE'"):
        operations.NOPE  # noqa: B018


def test_the_catalogue_keeps_its_order_and_every_exported_name() -> None:
    import importlib

    areas = [importlib.import_module(f"cortexgraph_vault.operations.{a}") for a in AREAS]
    assert list(OPERATIONS.values()) == [op for area in areas for op in area.OPERATIONS]
    for name in operations.__all__:
        assert getattr(operations, name) is not None, name


def test_asking_for_one_operation_imports_only_its_area() -> None:
    code = (
        "import sys, json\n"
        "from cortexgraph_vault.operations import operation_named\n"
        "operation_named('search_memory').parse({'query': 'coffee'})\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith("
        "('cortexgraph_vault.operations.', 'cortexgraph_vault.models.')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert "cortexgraph_vault.operations.memories" in loaded
    for other in ("browse", "lifecycle", "vault", "intelligence", "memory_history", "maintenance"):
        assert f"cortexgraph_vault.operations.{other}" not in loaded
    assert "cortexgraph_vault.models.consolidation" not in loaded


def test_an_operation_builds_its_own_result_model_not_its_areas_others() -> None:
    code = (
        "import sys, json\n"
        "from cortexgraph_vault.operations import operation_named\n"
        "op = operation_named('vault_stats')\n"
        "op.parse({})\n"
        "before = sorted(m for m in sys.modules if m.startswith('cortexgraph_vault.models.'))\n"
        "print(json.dumps([before, op.result.__name__, op.result.__module__]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, name, module = json.loads(out.stdout)
    # the vault area's other results: sync, the graph, a note read, the timings
    for other in ("sync", "graph", "notes", "metrics", "maintenance"):
        assert f"cortexgraph_vault.models.{other}" not in before
    assert (name, module) == ("VaultStats", "cortexgraph_vault.models.maintenance")


def test_every_result_is_the_model_its_declaration_names() -> None:
    from pydantic import BaseModel

    from cortexgraph_vault import models

    for op in OPERATIONS.values():
        named = op.invoke.__annotations__["return"]
        assert op.result is getattr(models, named), op.name
        assert issubclass(op.result, BaseModel)
        # what its MCP tool answers: the result, or what `mcp_answer` makes of it
        if op.mcp_answer is None:
            assert op.answer_model is op.result
    assert OPERATIONS["sync_vault"].answer_model is models.SyncSummary
