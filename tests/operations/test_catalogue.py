"""Each operation is declared once: the MCP tool's input schema, the REST query or body schema
and the service's own checks come from the same request model, with the same limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.types import Tool

from cortexgraph_vault.api.endpoints import RestInput
from cortexgraph_vault.api.openapi import openapi_spec
from cortexgraph_vault.api.routes import rest_endpoints
from cortexgraph_vault.core.memory import RELATION_TYPES
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.models.limits import (
    MAX_CONTENT,
    MAX_ENTITIES,
    MAX_MEMORY_IDS,
    MAX_MESSAGE,
    MAX_QUERY_CHARS,
    MAX_TAGS,
)
from cortexgraph_vault.operations import OPERATIONS, Operation
from tests.mcp.mcp_session import connected, service_for

# What a client is told about a parameter's values; descriptions may differ by door.
LIMITS = {
    "type", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems",
    "maxProperties", "pattern", "enum", "const", "default",
}  # fmt: skip
# The operations a REST route serves with fields in its query or body (those served by the
# path alone, like memory_detail, have none to compare).
SERVED_OVER_REST = {
    "save_memory", "update_memory", "delete_memory", "touch_memory", "observe_memory_usage",
    "search_unified", "read_note", "gc", "promote_memory", "memory_history",
    "forgotten_memories", "restore_memory", "analyze_message", "analyze_for_recall",
    "auto_recall_process_message", "review_memories", "list_memories", "memory_at_path",
    "related_to_note", "graph_neighbourhood", "sync_vault",
}  # fmt: skip


def limits(schema: Any, defs: dict[str, Any]) -> Any:
    """A property's schema cut to its limits, with $refs resolved and "or null" dropped (a
    REST query parameter is absent rather than null)."""
    if isinstance(schema, list):
        return [limits(s, defs) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return limits(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    out: dict[str, Any] = {k: v for k, v in schema.items() if k in LIMITS}
    if out.get("default", 0) is None:
        del out["default"]
    for key in ("items", "additionalProperties"):
        if key in schema:
            out[key] = limits(schema[key], defs)
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1:
        out |= limits(branches[0], defs)
    elif branches:
        out["anyOf"] = limits(branches, defs)
    return out


def rest_requests() -> dict[str, list[tuple[Any, type[RestInput]]]]:
    """Operation name -> the REST routes serving it, with their query or body model."""
    found: dict[str, list[tuple[Any, type[RestInput]]]] = {}
    for endpoint in rest_endpoints():
        for model in (endpoint.query, endpoint.body):
            if isinstance(model, type) and issubclass(model, RestInput):
                found.setdefault(endpoint.operation.name, []).append((endpoint, model))
    return found


def rest_properties(endpoint: Any, model: type[RestInput]) -> dict[str, Any]:
    """The REST request's fields as the OpenAPI spec gives them, by the operation's names."""
    spec = openapi_spec()
    defs = spec["components"]["schemas"]
    operation = spec["paths"][endpoint.route.path][endpoint.route.method.lower()]
    if endpoint.query is model:
        by_rest_name = {
            p["name"]: p["schema"] for p in operation["parameters"] if p["in"] == "query"
        }
    else:
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        by_rest_name = defs[ref.rsplit("/", 1)[-1]]["properties"]
    return {model.request_names[name]: limits(s, defs) for name, s in by_rest_name.items()}


@pytest.fixture(scope="module")
def listed_tools(read_only_git_vault: Path) -> dict[str, Tool]:
    """The tools an MCP client lists (`tools/list`), asked once for the module."""

    async def listed() -> list[Tool]:
        async with connected(service_for(read_only_git_vault)) as client:
            return (await client.list_tools()).tools

    return {tool.name: tool for tool in anyio.run(listed)}


def test_every_tool_is_an_operation_of_the_catalogue(listed_tools: dict[str, Tool]) -> None:
    assert set(listed_tools) == {name for name, op in OPERATIONS.items() if op.mcp_tool}


@pytest.mark.parametrize("name", sorted(n for n, op in OPERATIONS.items() if op.mcp_tool))
def test_the_mcp_tool_is_the_operation(name: str, listed_tools: dict[str, Tool]) -> None:
    op: Operation = OPERATIONS[name]
    tool = listed_tools[name]
    assert tool.description == op.description and tool.title == op.title
    shown = [f for f in op.request.model_fields if f not in op.unlisted]
    assert list(tool.input_schema.get("properties", {})) == shown
    hints = tool.annotations
    assert hints is not None
    assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
        op.effect.read_only,
        op.effect.destructive,
        op.effect.idempotent,
    )
    schema = op.request.model_json_schema()
    for field, prop in tool.input_schema.get("properties", {}).items():
        assert limits(prop, tool.input_schema.get("$defs", {})) == limits(
            schema["properties"][field], schema.get("$defs", {})
        ), f"{name}.{field}"


@pytest.mark.parametrize("name", sorted(SERVED_OVER_REST))
def test_rest_takes_the_same_fields_with_the_same_limits(
    name: str, listed_tools: dict[str, Tool]
) -> None:
    op = OPERATIONS[name]
    # the plugin's and the CLI's own operations: the request model is the declaration
    declared = listed_tools[name].input_schema if op.mcp_tool else op.request.model_json_schema()
    want = {
        field: limits(prop, declared.get("$defs", {}))
        for field, prop in declared.get("properties", {}).items()
    }
    assert set(want) == set(op.request.model_fields) - op.unlisted
    for endpoint, model in rest_requests()[name]:
        rest = rest_properties(endpoint, model)
        assert set(rest) - set(want) == op.unlisted, endpoint.route.path
        # what REST leaves out: the memory the URL names (/api/v1/memories/{ref}) and what
        # the route sets itself (/api/v1/promote: every candidate)
        in_path = set(endpoint.route.in_path.values())
        assert set(want) - set(rest) == in_path | set(endpoint.route.fixed), endpoint.route.path
        shared = set(rest) & set(want)
        assert {f: rest[f] for f in shared} == {f: want[f] for f in shared}, endpoint.route.path


def test_every_operation_a_route_serves_is_known() -> None:
    assert set(rest_requests()) == SERVED_OVER_REST
    assert set(OPERATIONS) >= SERVED_OVER_REST


def test_the_service_checks_the_limits_the_doors_declare() -> None:
    """One constant each: the request models and the service's own checks."""
    fields = {name: op.request.model_json_schema()["properties"] for name, op in OPERATIONS.items()}
    assert fields["search_unified"]["query"]["maxLength"] == MAX_QUERY_CHARS
    assert fields["search_memory"]["query"]["anyOf"][0]["maxLength"] == MAX_QUERY_CHARS
    for name in ("save_memory", "update_memory"):
        content = limits(fields[name]["content"], {})
        assert content["maxLength"] == MAX_CONTENT, name
        assert limits(fields[name]["tags"], {})["maxItems"] == MAX_TAGS, name
        assert limits(fields[name]["entities"], {})["maxItems"] == MAX_ENTITIES, name
    assert fields["observe_memory_usage"]["memory_ids"]["maxItems"] == MAX_MEMORY_IDS
    ids = fields["open_memories"]["memory_ids"]["anyOf"][1]
    assert ids["maxItems"] == MAX_MEMORY_IDS
    for name in ("analyze_message", "analyze_for_recall", "auto_recall_process_message"):
        assert fields[name]["message"]["maxLength"] == MAX_MESSAGE, name
    # the relation types the request offers are those the service accepts (core.memory)
    assert tuple(fields["create_relation"]["relation_type"]["enum"]) == RELATION_TYPES


@pytest.mark.anyio
async def test_one_query_limit_over_mcp_and_in_the_service(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    longest = ("coffee " * 300)[:MAX_QUERY_CHARS]
    async with connected(service) as client:
        for tool in ("search_unified", "search_memory"):
            ok = await client.call_tool(tool, {"query": longest})
            assert not ok.is_error, tool
            refused = await client.call_tool(tool, {"query": longest + "x"})
            assert refused.is_error and "query" in str(refused.content[0]), tool
    with pytest.raises(InvalidArgument, match=f"query: at most {MAX_QUERY_CHARS} characters"):
        service.search_unified(longest + "x")


def test_a_limit_written_outside_annotated_is_refused_before_any_door_drops_it() -> None:
    """Doors copy each field's annotation; a limit given as `= Field(...)` would be lost."""
    from pydantic import Field

    from cortexgraph_vault.operations import Request, params_of

    class Loose(Request):
        top_k: int = Field(10, le=100)

    with pytest.raises(TypeError, match=r"Loose.top_k: write its limits in Annotated"):
        params_of(Loose)
