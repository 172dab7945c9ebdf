"""What the model reads before its first call: the workflow is taught, every tool or field a
description names exists, and the tool list stays within the context it was given."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.mcp.mcp_session import connected, service_for

pytestmark = pytest.mark.anyio

# tools/list as the client receives it (JSON, no nulls) measured 66,526 bytes before issue 20
# (24 tools), and 31,211 once output schemas were cut to each field's type (issue 16; 25
# tools); it must not grow past that, whatever tools and words are added.
TOOLS_LIST_BUDGET = 32_000  # issue 16: ≤ 32 KB
SNAKE_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def _names_in(schema: object) -> set[str]:
    """Every property name anywhere in a JSON schema."""
    found: set[str] = set()
    if isinstance(schema, dict):
        found |= (
            set(schema.get("properties", {}))
            if isinstance(schema.get("properties"), dict)
            else set()
        )
        for value in schema.values():
            found |= _names_in(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _names_in(value)
    return found


async def test_the_workflow_is_taught_in_the_instructions_and_descriptions(
    sample_vault: Path,
) -> None:
    async with connected(service_for(sample_vault)) as client:
        instructions = client.instructions or ""
        tools = {t.name: t.description or "" for t in (await client.list_tools()).tools}
    # search before save; observe after answering from memories; preview before gc
    assert re.search(r"search first.*save_memory", instructions, re.S)
    assert "After a memory shaped your answer: observe_memory_usage" in instructions
    assert "gc: preview" in instructions and "ask before a real run" in instructions
    assert "Search first" in tools["save_memory"] and "touch_memory" in tools["save_memory"]
    assert "observe_memory_usage" in tools["search_memory"]
    assert "observe_memory_usage" in tools["open_memories"]
    assert "Call after answering from memories" in tools["observe_memory_usage"]
    assert "Preview first" in tools["gc"] and "ask the user" in tools["gc"]
    assert "read_note" in tools["search_unified"]
    assert "max_chars" in tools["read_note"] and "cursor" in tools["read_note"]


async def test_descriptions_name_only_tools_and_fields_that_exist(sample_vault: Path) -> None:
    async with connected(service_for(sample_vault)) as client:
        instructions = client.instructions or ""
        listed = (await client.list_tools()).tools
    known = {t.name for t in listed}
    for tool in listed:
        known |= _names_in(tool.input_schema) | _names_in(tool.output_schema)
    texts = {"instructions": instructions, **{t.name: t.description or "" for t in listed}}
    for where, text in texts.items():
        unknown = set(SNAKE_NAME.findall(text)) - known
        assert not unknown, f"{where} names {sorted(unknown)}, which no tool has"


async def test_the_tool_list_stays_within_its_context_budget(sample_vault: Path) -> None:
    async with connected(service_for(sample_vault)) as client:
        listed = await client.list_tools()
    wire = listed.model_dump_json(by_alias=True, exclude_none=True)
    assert len(wire.encode()) <= TOOLS_LIST_BUDGET, len(wire.encode())
    assert '"title":"Top K"' not in wire, "schema titles only repeat property names"
    search = next(t for t in listed.tools if t.name == "save_memory")
    assert "title" in search.input_schema["properties"], "a parameter named title is kept"


async def test_output_schemas_give_each_result_field_its_type_and_nothing_else(
    sample_vault: Path,
) -> None:
    async with connected(service_for(sample_vault)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        found = await client.call_tool("search_memory", {"query": "coffee"})
    shape = tools["search_memory"].output_schema
    assert shape["type"] == "object"
    fields = shape["properties"]
    assert fields["results"] == {"type": "array"}
    assert fields["count"] == {"type": "integer"}
    assert fields["pagination"] == {"type": "object"}  # nullable: left out when it has none
    # every field the result has, no more; a field with no value is left out of the answer
    assert set(found.structured_content) <= set(fields)
    assert {"success", "count", "results"} <= set(found.structured_content)
    for tool in tools.values():
        # field descriptions and nested models are what made the list 66 KB
        assert "$defs" not in tool.output_schema and "description" not in str(tool.output_schema)
