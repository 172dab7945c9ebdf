"""Invalid arguments come back as readable tool errors and change nothing in the vault."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import git
from tests.mcp.mcp_session import connected, service_for, text_of, vault_fingerprint

pytestmark = pytest.mark.anyio

# (tool, arguments, words the error must contain)
BAD_CALLS = [
    ("save_memory", {"content": 123}, ["content: 123 is not a string", "content takes a text of 1 to 50000 characters"]),
    ("save_memory", {"content": ""}, ["content: 0 characters, fewer than 1"]),
    ("save_memory", {"content": "x" * 50_001}, ["content: 50001 characters, more than 50000"]),
    ("save_memory", {"content": "ok", "strength": 5}, ["strength: 5 is more than 2", "strength takes a number from 0 to 2"]),
    ("save_memory", {"content": "ok", "tags": "not a list"}, ["tags: 'not a list' is not a list", "tags takes a list of at most 50 items"]),
    ("save_memory", {"content": "ok", "tags": [f"t{i}" for i in range(51)]}, ["tags: 51 items, more than 50"]),
    ("save_memory", {"content": "my key is AKIAIOSFODNN7EXAMPLE and sk-proj-abcdefghijklmnopqrstuvwx1234"},
     ["SecretRefused", "force"]),
    ("save_memory", {"tags": ["x"]}, ["content: missing", "content takes a text"]),
    ("search_memory", {"top_k": 0}, ["top_k: 0 is less than 1", "top_k takes an integer from 1 to 100"]),
    ("search_memory", {"top_k": 1000}, ["top_k: 1000 is more than 100"]),
    ("search_memory", {"top_k": "many"}, ["top_k: 'many' is not an integer"]),
    ("search_memory", {"status": "deleted"}, ["status: 'deleted' is not one of 'active', 'promoted', 'archived' or 'all'"]),
    ("search_memory", {"preview_length": -1}, ["preview_length: -1 is less than 0"]),
    ("gc", {"dry_run": False, "limit": 0}, ["limit: 0 is less than 1", "limit takes an integer from 1 to 10000"]),
    ("gc", {"dry_run": False, "skip_paths": ["../outside.md"]}, ["UnsafePath", "leave the vault"]),
    ("gc", {"dry_run": True, "skip_paths": ["_stm/ok.md", "_stm/../../x.md"]}, ["UnsafePath", "leave the vault"]),
    ("gc", {"dry_run": True, "skip_paths": ["/etc/passwd"]}, ["UnsafePath", "absolute"]),
    ("touch_memory", {"memory_id": "no-such-memory"}, ["NotFound", "search_memory"]),
    ("touch_memory", {"memory_id": "../../etc/passwd"}, ["UnsafePath", "leave the vault"]),
    ("touch_memory", {"memory_id": "/etc/passwd"}, ["UnsafePath", "absolute"]),
    ("open_memories", {"memory_ids": ["../outside.md"]}, ["UnsafePath", "leave the vault"]),
    ("open_memories", {"memory_ids": [f"id{i}" for i in range(101)]}, ["memory_ids: 101 items, more than 100"]),
    ("delete_memory", {"memory_id": "../Home.md"}, ["UnsafePath"]),
    ("delete_memory", {"memory_id": "Prefers TypeScript", "mode": "shred"}, ["mode: 'shred' is not one of 'archive' or 'remove'", "mode takes one of archive, remove"]),
    ("delete_memory", {"memory_id": "Home.md"}, ["NotFound", "not a memory"]),
    ("update_memory", {"memory_id": "Prefers TypeScript"}, ["InvalidArgument", "nothing to update"]),
    ("update_memory", {"memory_id": "Prefers TypeScript", "content": "new", "expected_hash": "abc"},
     ["expected_hash: 'abc' does not have the expected form", "the content_hash you last read"]),
    ("update_memory", {"memory_id": "Prefers TypeScript", "content": "new", "expected_hash": "0" * 64},
     ["Conflict", "re-read", "content_hash is now"]),
    ("create_relation", {"from_memory_id": "Prefers TypeScript", "to_memory_id": "Uses Neovim",
                         "relation_type": "likes"}, ["relation_type: 'likes' is not one of", "relation_type takes one of related, causes"]),
    ("create_relation", {"from_memory_id": "Prefers TypeScript", "to_memory_id": "Prefers TypeScript",
                         "relation_type": "related"}, ["InvalidArgument", "itself"]),
    ("promote_memory", {}, ["InvalidArgument", "auto_detect"]),
    ("promote_memory", {"memory_id": "Curious about Rust"}, ["not a promotion candidate", "force"]),
    ("memory_version", {"memory_id": "Prefers TypeScript", "commit": "zzzz"}, ["commit: 'zzzz' does not have the expected form", "a commit sha or its prefix"]),
    ("memory_history", {"memory_id": "never-existed-anywhere"}, ["NotFound", "forgotten"]),
    ("restore_memory", {"memory_id": "Prefers TypeScript"}, ["InvalidArgument", "not forgotten"]),
    ("observe_memory_usage", {"memory_ids": []}, ["memory_ids: 0 items, fewer than 1"]),
    ("no_such_tool", {}, ["Unknown tool: no_such_tool. The tools are ", "search_memory"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "arguments", "words"), BAD_CALLS, ids=lambda v: v if isinstance(v, str) else ""
)
async def test_bad_call_is_a_readable_error_and_changes_nothing(
    tool: str, arguments: dict, words: list[str], git_vault: Path
) -> None:
    before = vault_fingerprint(git_vault)
    async with connected(service_for(git_vault)) as client:
        result = await client.call_tool(tool, arguments)
    message = text_of(result)
    assert result.is_error, f"{tool} {arguments}: {result.structured_content}"
    for word in words:
        assert word in message, f"{word!r} not in: {message}"
    assert "Traceback" not in message
    assert "pydantic" not in message and "validation error" not in message, message
    assert vault_fingerprint(git_vault) == before


async def test_argument_errors_keep_a_structured_error_for_clients(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        bad = await client.call_tool("search_memory", {"top_k": 1000, "status": "deleted"})
        missing = await client.call_tool("touch_memory", {"memory_id": "no-such-memory"})
    assert bad.is_error
    text = text_of(bad)
    assert text.startswith("Invalid arguments for search_memory: status: 'deleted' is not one of")
    assert "top_k: 1000 is more than 100. top_k takes an integer from 1 to 100" in text
    assert bad.structured_content is not None
    assert bad.structured_content["error"] == "invalid_arguments"
    assert [(p["argument"], p["type"]) for p in bad.structured_content["problems"]] == [
        ("status", "literal_error"),
        ("top_k", "less_than_equal"),
    ]
    assert missing.is_error and missing.structured_content is not None
    assert missing.structured_content["error"] == "not_found"
    assert "search_memory" in missing.structured_content["detail"]


async def test_ambiguous_prefix_lists_the_candidates(git_vault: Path) -> None:
    for n, title in enumerate(["First twin", "Second twin"]):
        (git_vault / "_stm" / f"{title}.md").write_text(
            f"---\nid: abcd{n}000-0000-4000-8000-000000000000\nuse_count: 1\n---\n{title}.\n"
        )
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-q", "-m", "twins")
    before = vault_fingerprint(git_vault)
    async with connected(service_for(git_vault)) as client:
        result = await client.call_tool("touch_memory", {"memory_id": "abcd"})
    message = text_of(result)
    assert result.is_error
    assert "Ambiguous" in message and "Call again with one of these ids" in message
    assert "abcd0000-0000-4000-8000-000000000000 _stm/First twin.md" in message
    assert "abcd1000-0000-4000-8000-000000000000 _stm/Second twin.md" in message
    assert vault_fingerprint(git_vault) == before


async def test_resources_read_a_memory_and_report_unknown_ones(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        listed = await client.call_tool("search_memory", {"query": "TypeScript", "top_k": 1})
        memory_id = listed.structured_content["results"][0]["id"]
        read = await client.read_resource(f"memory://{memory_id}")
        assert f'"id": "{memory_id}"' in read.contents[0].text
        assert "TypeScript" in read.contents[0].text
        stats = await client.read_resource("vault://stats")
        assert '"total_notes"' in stats.contents[0].text
        status = await client.read_resource("vault://status")
        assert '"watcher"' in status.contents[0].text and '"unparseable"' in status.contents[0].text
        with pytest.raises(Exception, match="no memory matches"):
            await client.read_resource("memory://no-such-memory")


async def test_prompts_teach_the_patterns(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        assert "save_memory" in (client.instructions or "")
        names = {p.name for p in (await client.list_prompts()).prompts}
        assert names == {
            "auto_save",
            "recall_before_answering",
            "observe_after_use",
            "review_fading_memories",
        }
        recall = await client.get_prompt("recall_before_answering", {"topic": "my coffee"})
        text = recall.messages[0].content.text
        assert "search_memory" in text and "'my coffee'" in text and "observe_memory_usage" in text


SKIP_PATHS_OUTSIDE = ["../outside.md", "_stm/../../x.md", "/etc/passwd", ".git/config"]


@pytest.mark.parametrize("path", SKIP_PATHS_OUTSIDE)
async def test_gc_refuses_a_skip_path_outside_the_vault_as_the_service_does(
    path: str, git_vault: Path
) -> None:
    """One check, in the service: MCP says what REST (400 unsafe_path) and the CLI say."""
    from cortexgraph_vault.errors import UnsafePath

    with pytest.raises(UnsafePath) as refused:
        service_for(git_vault).gc(dry_run=True, skip_paths=[path])
    async with connected(service_for(git_vault)) as client:
        result = await client.call_tool("gc", {"dry_run": True, "skip_paths": [path]})
    assert result.is_error and str(refused.value) in text_of(result)


async def test_gc_over_mcp_leaves_a_skip_path_alone_as_rest_does(git_vault: Path) -> None:
    """skip_paths is not listed (tools/list is read every session) but is taken, not dropped."""
    lowest = service_for(git_vault).gc().candidates[0]
    async with connected(service_for(git_vault)) as client:
        listed = next(t for t in (await client.list_tools()).tools if t.name == "gc")
        result = await client.call_tool("gc", {"dry_run": False, "skip_paths": [lowest.path]})
    assert "skip_paths" not in listed.input_schema["properties"]
    assert not result.is_error, text_of(result)
    assert [s["path"] for s in result.structured_content["skipped"]] == [lowest.path]
    assert (git_vault / lowest.path).exists()
