"""Issue 15 item 9: tool results are compact JSON, and read_graph keeps within a character
budget per call, with a cursor to continue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.vaultgen import generate_vault
from tests.mcp.mcp_session import connected, service_for, text_of

pytestmark = pytest.mark.anyio


async def test_tool_results_are_compact_json_equal_to_the_structured_content(
    sample_vault: Path,
) -> None:
    async with connected(service_for(sample_vault)) as client:
        for tool, args in (("read_graph", {"status": "all"}), ("vault_status", {}),
                           ("search_memory", {"query": "coffee"})):  # fmt: skip
            result = await client.call_tool(tool, args)
            text = text_of(result)
            assert not result.is_error, text
            assert not text.startswith("{\n")
            assert json.loads(text) == result.structured_content
            assert text == json.dumps(result.structured_content, ensure_ascii=False,
                                      separators=(",", ":"))  # fmt: skip


async def test_read_graph_stays_within_its_budget_and_continues_by_cursor(
    tmp_path: Path,
) -> None:
    generate_vault(tmp_path / "vault", 300)
    async with connected(service_for(tmp_path / "vault")) as client:
        first = await client.call_tool("read_graph", {"status": "all"})
        assert len(text_of(first)) <= 40_000
        seen: list[str] = []
        args: dict[str, object] = {"status": "all", "limit": 1000, "max_chars": 15_000}
        for _ in range(100):
            page = await client.call_tool("read_graph", args)
            assert not page.is_error, text_of(page)
            assert len(text_of(page)) <= 15_000
            body = page.structured_content
            seen += [n["path"] for n in body["memories"]]
            if body["next_cursor"] is None:
                break
            args["cursor"] = body["next_cursor"]
        assert len(seen) == len(set(seen)) == body["total_count"] == 300
