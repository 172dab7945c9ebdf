"""Every tool through the SDK's in-memory client, each answer checked against its output schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import Tool

from cortexgraph_vault.core.note import parse_note
from tests.conftest import git
from tests.mcp.mcp_session import (
    assert_matches_schema,
    connected,
    service_for,
    text_of,
    vault_fingerprint,
)

pytestmark = pytest.mark.anyio

COMPATIBLE = {  # CortexGraph's tool names, kept so existing prompts work
    "save_memory", "search_memory", "search_unified", "open_memories", "touch_memory",
    "observe_memory_usage", "analyze_message", "analyze_for_recall",
    "auto_recall_process_message", "gc", "promote_memory", "cluster_memories",
    "consolidate_memories", "read_graph", "create_relation", "get_performance_metrics",
}  # fmt: skip
NEW = {
    "update_memory", "delete_memory", "memory_history", "memory_version", "forgotten_memories",
    "restore_memory", "vault_status", "review_memories", "read_note", "sync_vault",
}  # fmt: skip
READ_ONLY = {
    "search_memory", "search_unified", "open_memories", "analyze_message", "analyze_for_recall",
    "cluster_memories", "read_graph", "get_performance_metrics", "memory_history",
    "memory_version", "forgotten_memories", "vault_status", "review_memories", "read_note",
}  # fmt: skip
DESTRUCTIVE = {"gc", "delete_memory", "update_memory", "consolidate_memories"}
CONSOLIDATION_CALLS = {
    "cluster_memories": {"threshold": 0.5},
    "consolidate_memories": {"mode": "preview", "auto_detect": True},
}


class Session:
    """A connected client that checks every answer against the tool's declared schema."""

    def __init__(self, client: Client, tools: dict[str, Tool]) -> None:
        self.client = client
        self.tools = tools

    async def call(self, name: str, **arguments: object) -> dict:
        result = await self.client.call_tool(name, arguments)
        return assert_matches_schema(self.tools[name], result)

    async def fails(self, name: str, **arguments: object) -> str:
        result = await self.client.call_tool(name, arguments)
        assert result.is_error, f"{name} should have failed: {result.structured_content}"
        return text_of(result)


async def session_for(client: Client) -> Session:
    listed = await client.list_tools()
    return Session(client, {t.name: t for t in listed.tools})


async def test_every_tool_is_listed_with_bounds_annotations_and_output_schema(
    git_vault: Path,
) -> None:
    async with connected(service_for(git_vault)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == COMPATIBLE | NEW
    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 20, name
        assert tool.output_schema and tool.output_schema.get("type") == "object", name
        hints = tool.annotations
        assert hints is not None, name
        # only sync reaches beyond this machine (a git remote)
        assert hints.open_world_hint is (name == "sync_vault"), name
        assert hints.read_only_hint is (name in READ_ONLY), name
        assert hints.destructive_hint is (name in DESTRUCTIVE), name
        for param, schema in tool.input_schema.get("properties", {}).items():
            assert "description" in schema, f"{name}.{param} has no description"
    limits = tools["search_memory"].input_schema["properties"]
    assert limits["top_k"]["minimum"] == 1 and limits["top_k"]["maximum"] == 100
    assert limits["preview_length"]["maximum"] == 5000
    assert tools["save_memory"].input_schema["properties"]["content"]["maxLength"] == 50_000
    # an optional argument is one to leave out: its type says no null, nor a null default
    assert tools["gc"].input_schema["properties"]["limit"]["maximum"] == 10_000
    assert "default" not in tools["gc"].input_schema["properties"]["limit"]
    assert "null" not in json.dumps(tools["search_memory"].input_schema)


async def test_save_search_open_touch_observe_update_relate(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        saved = await s.call(
            "save_memory", content="Maya takes her espresso with a splash of oat milk.",
            tags=["Drinks", "Morning Routine"], entities=["Maya"], source="chat", strength=1.5,
        )  # fmt: skip
        mid = saved["memory_id"]
        note = parse_note((git_vault / saved["path"]).read_text())
        assert note.frontmatter["tags"] == ["drinks", "morning_routine"]
        assert note.frontmatter["strength"] == 1.5
        assert "espresso" in note.body

        found = await s.call("search_memory", query="espresso oat milk", top_k=5)
        assert found["results"][0]["id"] == mid
        assert await s.call("search_memory", query="zzzqqq unrelatedword") == {
            "success": True, "count": 0, "results": [], "semantic": True,
        }  # fmt: skip
        paged = await s.call("search_memory", page=2, page_size=3, preview_length=20)
        assert paged["pagination"]["page"] == 2 and paged["count"] == 3
        assert all(len(r["content"]) <= 21 for r in paged["results"])

        opened = await s.call("open_memories", memory_ids=[mid, "no-such-memory"])
        assert [m["id"] for m in opened["memories"]] == [mid]
        assert opened["not_found"] == ["no-such-memory"]
        single = await s.call("open_memories", memory_ids=mid[:8])
        assert single["memories"][0]["content"].startswith("Maya takes her espresso")

        touched = await s.call("touch_memory", memory_id=mid, boost_strength=True)
        assert (touched["use_count"], touched["strength"]) == (2, 1.6)
        observed = await s.call(
            "observe_memory_usage", memory_ids=[mid, "Oat milk in coffee", "gone-id"],
            context_tags=["travel"],
        )  # fmt: skip
        assert observed["reinforced"] == 2 and observed["not_found"] == ["gone-id"]
        assert all(m["cross_domain"] for m in observed["memories"])

        current = (await s.call("open_memories", memory_ids=[mid]))["memories"][0]
        updated = await s.call(
            "update_memory", memory_id=mid, content="Maya now takes her espresso black.",
            expected_hash=current["content_hash"],
        )  # fmt: skip
        # its title came from its words: it follows them
        assert updated["changed"] == ["content", "title"]
        assert updated["path"] == "_stm/Maya now takes her espresso black.md"
        assert "espresso black" in (git_vault / updated["path"]).read_text()

        related = await s.call(
            "create_relation", from_memory_id=mid, to_memory_id="Oat milk in coffee",
            relation_type="contradicts", strength=0.5,
        )  # fmt: skip
        assert related["created"] is True
        again = await s.call(
            "create_relation", from_memory_id=mid, to_memory_id="Oat milk in coffee",
            relation_type="contradicts",
        )  # fmt: skip
        assert again["created"] is False
        links = (await s.call("open_memories", memory_ids=[mid]))["memories"][0]["relations"]
        assert [r["relation_type"] for r in links["outgoing"]] == ["contradicts"]
        assert "contradicts" in (git_vault / updated["path"]).read_text()


async def test_gc_preview_changes_nothing_and_a_run_is_restorable(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        listed = await s.call("search_memory", status="active", top_k=100)
        fading = {r["id"] for r in listed["results"] if r["memory_score"] < 0.05}
        assert fading, "the sample vault has memories that have faded"

        before = vault_fingerprint(git_vault)
        preview = await s.call("gc", dry_run=True)
        assert vault_fingerprint(git_vault) == before
        assert preview["dry_run"] is True and set(preview["memory_ids"]) == fading

        run = await s.call("gc", dry_run=False, limit=2)
        assert run["removed_count"] == 2 and run["commit"]
        gone = run["memory_ids"]
        assert not any((git_vault / c["path"]).exists() for c in run["candidates"])
        assert "gc: forget 2 memories" in git(git_vault, "log", "-1", "--format=%B")

        forgotten = await s.call("forgotten_memories", limit=10)
        assert {f["id"] for f in forgotten["forgotten"]} == set(gone) and forgotten["count"] == 2
        assert {f["kind"] for f in forgotten["forgotten"]} == {"deleted"}
        history = await s.call("memory_history", memory_id=gone[0])
        assert history["exists"] is False and history["commits"][0]["sha"] == run["commit"]
        first = history["commits"][-1]["sha"]
        version = await s.call("memory_version", memory_id=gone[0], commit=first[:10])
        assert f"id: {gone[0]}" in version["text"]

        restored = await s.call("restore_memory", memory_id=gone[0])
        assert (git_vault / restored["path"]).exists()
        assert restored["restored_from"] != run["commit"]


async def test_promote_delete_history_restore(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        preview = await s.call("promote_memory", auto_detect=True, dry_run=True)
        assert preview["dry_run"] is True and preview["promoted_count"] == 0
        saved = await s.call(
            "save_memory", content="The team retro is on Thursdays.", title="Retro day"
        )
        promoted = await s.call("promote_memory", memory_id=saved["id"], force=True)
        assert promoted["promoted_ids"] == [saved["id"]]
        new_path = promoted["moved"][saved["path"]]
        assert new_path.startswith("memories/") and (git_vault / new_path).exists()

        deleted = await s.call("delete_memory", memory_id=saved["id"])
        assert deleted["mode"] == "archive" and (git_vault / deleted["archived_path"]).exists()
        history = await s.call("memory_history", memory_id=saved["id"], limit=10)
        assert [c["summary"].split(":")[0] for c in history["commits"]] == [
            "archive",
            "promote",
            "save",
        ]
        back = await s.call("restore_memory", memory_id=saved["id"])
        assert back["path"].startswith("_stm/") and (git_vault / back["path"]).exists()


async def test_performance_metrics_count_every_call(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        for _ in range(3):
            await s.call("search_memory", query="coffee")
        await s.fails("touch_memory", memory_id="does-not-exist")
        metrics = await s.call("get_performance_metrics")
    by_name = {op["operation"]: op for op in metrics["operations"]}
    assert by_name["search_memory"]["count"] == 3 and by_name["search_memory"]["errors"] == 0
    assert by_name["touch_memory"]["count"] == 1 and by_name["touch_memory"]["errors"] == 1
    assert 0 < by_name["search_memory"]["p50_ms"] <= by_name["search_memory"]["p95_ms"]
    assert metrics["total_calls"] == 4 and metrics["total_errors"] == 1


async def test_unified_search_graph_and_status(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        found = await s.call("search_unified", query="Kestrel Labs", limit=10)
        by_path = {r["path"]: r for r in found["results"]}
        assert by_path["memories/Works at Kestrel Labs.md"]["source"] == "ltm"
        assert any(r["source"] == "note" for r in found["results"])
        only_notes = await s.call("search_unified", query="Kestrel Labs", status="note")
        assert only_notes["results"] and {r["source"] for r in only_notes["results"]} == {"note"}
        assert (await s.call("search_unified", query="zzzqqq unrelatedword"))["results"] == []

        graph = await s.call("read_graph", status="all", limit=5)
        assert len(graph["memories"]) == graph["count"] <= 5 < graph["total_count"]
        assert graph["stats"]["notes"] == graph["total_count"]

        status = await s.call("vault_status")
        assert status["notes"] == graph["stats"]["notes"]
        assert status["memories"]["active"] == 20 and status["memories"]["promoted"] == 4


async def test_message_analysis_and_auto_recall(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        save = await s.call(
            "analyze_message", message="Remember that I prefer green tea over coffee."
        )
        assert save["should_save"] is True
        chit = await s.call("analyze_message", message="ok thanks")
        assert chit["should_save"] is False
        recall = await s.call("analyze_for_recall", message="What did I say about my coffee?")
        assert recall["should_search"] is True
        recalled = await s.call(
            "auto_recall_process_message", message="Oat milk in my coffee again", mode="subtle"
        )
        assert recalled["mode"] == "subtle"
        assert recalled["memories_found"] == len(recalled["memories"]) >= 1


@pytest.mark.parametrize("name", sorted(CONSOLIDATION_CALLS))
async def test_consolidation_tools_answer_with_their_schema(name: str, git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        result = await client.call_tool(name, CONSOLIDATION_CALLS[name])
        assert not result.is_error, text_of(result)
        assert assert_matches_schema(s.tools[name], result)


async def test_review_lists_fading_memories_most_urgent_first(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        due = await s.call("review_memories", limit=50)
    items = due["memories"]
    assert items, due
    priorities = [i["review_priority"] for i in items]
    assert priorities == sorted(priorities, reverse=True) and priorities[0] > 0


async def test_a_title_a_file_name_cannot_hold_is_kept_and_shown_as_written(
    git_vault: Path,
) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        unsafe = await s.call("save_memory", content="One thing.", title="../../tmp/escaped")
        again = await s.call("save_memory", content="Another.", title="../../tmp/escaped")
        assert (unsafe["path"], again["path"]) == ("_stm/tmp escaped.md", "_stm/tmp escaped 2.md")
        standup = await s.call(
            "save_memory", content="We meet every weekday.", title="The team standup is at 9:30"
        )
        assert standup["path"] == "_stm/The team standup is at 9 30.md"
        assert standup["title"] == "The team standup is at 9:30"
        opened = await s.call("open_memories", memory_ids=["The team standup is at 9:30"])
        assert opened["memories"][0]["title"] == "The team standup is at 9:30"
        found = await s.call("search_memory", query="standup")
        assert found["results"][0]["title"] == "The team standup is at 9:30"
    assert not (git_vault.parent / "tmp").exists()


async def test_save_memory_lists_what_the_save_likely_replaces(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        saved = await s.call(
            "save_memory", content="Maya switched from Neovim to Helix for editing code."
        )
        # sure of it: recorded by the save, and said (auto_supersede)
        assert saved["may_supersede"] == []
        assert len(saved["superseded"]) == 1 and "same editor" in saved["message"]
        assert "“Uses Neovim”" in saved["message"] and "superseded_by" in saved["message"]
        unrelated = await s.call("save_memory", content="Maya's sister Elin likes Helix too.")
        assert unrelated["may_supersede"] == []


async def test_two_servers_of_one_process_each_answer_from_their_own_vault(
    tmp_path: Path,
) -> None:
    """A server's tools are copies of the first server's (their schemas are derived once per
    process), each calling its own service: one vault's save is not the other's."""
    first, second = tmp_path / "first", tmp_path / "second"
    for vault in (first, second):
        (vault / "_stm").mkdir(parents=True)
    async with connected(service_for(first)) as a, connected(service_for(second)) as b:
        listed_a, listed_b = (await a.list_tools()).tools, (await b.list_tools()).tools
        assert [t.model_dump() for t in listed_a] == [t.model_dump() for t in listed_b]
        saved = await b.call_tool("save_memory", {"content": "Only the second vault has this"})
        assert not saved.is_error, text_of(saved)
        refused = await a.call_tool("save_memory", {"content": "x", "tagz": ["typo"]})
        assert refused.is_error and "tagz" in text_of(refused)  # still strict in a copy
        found_a = await a.call_tool("search_memory", {"query": "second vault"})
        found_b = await b.call_tool("search_memory", {"query": "second vault"})
    assert found_a.structured_content is not None and found_b.structured_content is not None
    assert found_a.structured_content["results"] == []
    assert len(found_b.structured_content["results"]) == 1
    assert not list((first / "_stm").glob("*.md"))
    assert len(list((second / "_stm").glob("*.md"))) == 1
