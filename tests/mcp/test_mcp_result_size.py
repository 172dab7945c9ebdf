"""Issue 15 item 9: tool results are compact JSON, and read_graph, search_memory,
search_unified and open_memories keep within a character budget per call, with a cursor to
continue (over a real stdio server too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from bench.vaultgen import generate_vault
from tests.conftest import NOW
from tests.handlers.browse.test_answer_budget import faded_memories
from tests.handlers.browse.test_result_budget import LONG_MEMORIES, a_vault_of_long_memories
from tests.mcp.mcp_session import connected, service_for, text_of
from tests.mcp.test_mcp_stdio import child_env, server_argv

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
    generate_vault(tmp_path / "vault", 300, now=NOW)
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
            if body.get("next_cursor") is None:
                break
            args["cursor"] = body["next_cursor"]
        assert len(seen) == len(set(seen)) == body["total_count"] == 300


async def _every_page(session: ClientSession, tool: str, args: dict[str, object]) -> list[dict]:
    pages: list[dict] = []
    cursor = None
    for _ in range(100):
        result = await session.call_tool(tool, {**args, **({"cursor": cursor} if cursor else {})})
        assert not result.is_error, text_of(result)
        text = text_of(result)
        assert len(text) <= 40_000, (tool, len(text))
        pages.append(json.loads(text))
        cursor = pages[-1].get("next_cursor")
        if cursor is None:
            return pages
    raise AssertionError(f"{tool}: the cursor never ended")


async def test_long_search_and_open_answers_keep_within_40000_characters_over_stdio(
    tmp_path: Path,
) -> None:
    vault = a_vault_of_long_memories(tmp_path / "vault", count=LONG_MEMORIES, chars=4_000)
    argv = server_argv(vault)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env())
    ids = [f"harbour-{i:03d}" for i in range(LONG_MEMORIES)]
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            small = await session.call_tool("search_memory", {"query": "harbour"})
            assert small.structured_content["count"] == 10
            assert "next_cursor" not in small.structured_content
            for tool, args in (
                ("search_memory", {"query": "harbour", "top_k": 60, "preview_length": 5000}),
                ("search_unified", {"query": "harbour", "limit": 60, "preview_length": 0}),
            ):
                pages = await _every_page(session, tool, args)
                assert len(pages) >= 6, tool  # 60 hits of 4,000 characters: 240 KB in all
                assert "call again with the same arguments" in pages[0]["notice"]
                paths = [h["path"] for page in pages for h in page["results"]]
                assert sorted(paths) == sorted(f"_stm/harbour {i:03d}.md" for i in range(60))
                assert all(len(h["content"]) > 4_000 for p in pages for h in p["results"])
            pages = await _every_page(session, "open_memories", {"memory_ids": ids})
            assert len(pages) >= 6
            assert [m["id"] for page in pages for m in page["memories"]] == ids


async def test_answers_that_are_not_paged_keep_within_the_budget_and_say_what_they_left_out(
    tmp_path: Path,
) -> None:
    vault = faded_memories(tmp_path / "vault", 400)
    for i in range(400):
        (vault / "notes").mkdir(exist_ok=True)
        (vault / "notes" / f"broken {i:03d}.md").write_text("---\nkey: [unclosed\n---\nbody\n")
    async with connected(service_for(vault)) as client:
        preview = await client.call_tool("gc", {"dry_run": True})
        assert len(text_of(preview)) <= 40_000
        body = preview.structured_content
        assert body["total_affected"] == 400 and 0 < len(body["candidates"]) < 400
        assert f"{len(body['candidates'])} of 400 candidates" in body["message"]
        status = await client.call_tool("vault_status", {})
        assert len(text_of(status)) <= 40_000
        last = status.structured_content["unparseable"][-1]
        assert last["path"] == "…" and "more not listed here" in last["reason"]
