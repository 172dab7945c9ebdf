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
