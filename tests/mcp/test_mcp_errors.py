"""Invalid arguments come back as readable tool errors and change nothing in the vault."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mcp import Client
from mcp.server import MCPServer

from tests.conftest import git
from tests.mcp.mcp_session import connected, service_for, text_of, vault_fingerprint

pytestmark = pytest.mark.anyio

# (tool, arguments, the error's code, words its text must contain)
BAD_CALLS = [
    ("save_memory", {"content": 123}, "invalid_argument", ["content: must be a text, got 123"]),
    ("save_memory", {"content": ""}, "invalid_argument", ["content: must not be empty"]),
    ("save_memory", {"content": "x" * 50_001}, "invalid_argument", ["content: at most 50000 characters, got 50001"]),
    ("save_memory", {"content": "ok", "strength": 5}, "invalid_argument", ["strength: must be from 0 to 2, got 5"]),
    ("save_memory", {"content": "ok", "tags": "not a list"}, "invalid_argument", ["tags: must be a list, got 'not a list'"]),
    ("save_memory", {"content": "ok", "tags": [f"t{i}" for i in range(51)]}, "invalid_argument", ["tags: at most 50 values, got 51"]),
    ("save_memory", {"content": "my key is AKIAIOSFODNN7EXAMPLE and sk-proj-abcdefghijklmnopqrstuvwx1234"},
     "secret_refused", ["committed to git", "force"]),
    ("save_memory", {"tags": ["x"]}, "invalid_argument", ["content: required (the memory, in plain words or Markdown)"]),
    ("save_memory", {"content": "ok", "title": "Tea\u0000time"}, "invalid_argument", ["title: holds the control character U+0000 (NUL) at character 4"]),
    ("save_memory", {"content": "ok", "tags": ["ok", "bad\u001b[31m"]}, "invalid_argument", ["tags[1]: holds the control character U+001B (ESC)"]),
    ("save_memory", {"content": "ok", "entities": ["Maya\u0008"]}, "invalid_argument", ["entities[0]: holds the control character U+0008 (backspace)"]),
    ("save_memory", {"content": "ok", "source": "chat\u0007"}, "invalid_argument", ["source: holds the control character U+0007 (bell)"]),
    ("update_memory", {"memory_id": "Prefers TypeScript", "tags": ["a\u0000"]}, "invalid_argument", ["tags[0]: holds the control character U+0000"]),
    ("gc", {"dry_run": False, "skip_paths": ["../outside.md"]}, "unsafe_path", ["leave the vault"]),
    ("gc", {"dry_run": True, "skip_paths": ["_stm/ok.md", "_stm/../../x.md"]}, "unsafe_path", ["leave the vault"]),
    ("gc", {"dry_run": True, "skip_paths": ["/etc/passwd"]}, "unsafe_path", ["absolute"]),
    ("create_relation", {"from_memory_id": "Prefers TypeScript", "to_memory_id": "Uses Neovim",
                         "relation_type": "related", "metadata": {"why\u0000": "x"}}, "invalid_argument", ["metadata: holds the control character U+0000"]),
    ("save_memory", {"content": "ok", "tagz": ["x"]}, "invalid_argument",
     ["tagz: unknown argument (did you mean tags?). The arguments are: content, tags, entities,"]),
    ("save_memory", {"content": "ok", "tag": ["x"], "entity": ["Lena"]}, "invalid_argument",
     ["tag: unknown argument (did you mean tags?); entity: unknown argument (did you mean entities?)"]),
    ("search_memory", {"q": "coffee"}, "invalid_argument", ["q: unknown argument (did you mean query?)", "query, tags, status, top_k"]),
    ("search_memory", {"top_k": 0}, "invalid_argument", ["top_k: must be from 1 to 100, got 0"]),
    ("search_memory", {"top_k": 1000}, "invalid_argument", ["top_k: must be from 1 to 100, got 1000"]),
    ("search_memory", {"top_k": "many"}, "invalid_argument", ["top_k: must be an integer, got 'many'"]),
    ("search_memory", {"status": "deleted"}, "invalid_argument", ["status: must be 'active', 'promoted', 'archived' or 'all', got 'deleted'"]),
    ("search_memory", {"preview_length": -1}, "invalid_argument", ["preview_length: must be from 0 to 5000, got -1"]),
    ("gc", {"dry_run": False, "limit": 0}, "invalid_argument", ["limit: must be from 1 to 10000, got 0"]),
    ("touch_memory", {"memory_id": "no-such-memory"}, "not_found", ["no memory matches", "search_memory"]),
    ("touch_memory", {"memory_id": "d4"}, "invalid_argument", ["an id prefix needs at least 4 characters"]),
    ("touch_memory", {"memory_id": "../../etc/passwd"}, "unsafe_path", ["leave the vault"]),
    ("touch_memory", {"memory_id": "/etc/passwd"}, "unsafe_path", ["absolute"]),
    ("open_memories", {"memory_ids": ["../outside.md"]}, "unsafe_path", ["leave the vault"]),
    ("open_memories", {"memory_ids": [f"id{i}" for i in range(101)]}, "invalid_argument", ["memory_ids: at most 100 values, got 101"]),
    ("delete_memory", {"memory_id": "../Home.md"}, "unsafe_path", ["leave the vault"]),
    ("delete_memory", {"memory_id": "Prefers TypeScript", "mode": "shred"}, "invalid_argument", ["mode: must be 'archive' or 'remove', got 'shred'"]),
    ("delete_memory", {"memory_id": "Home.md"}, "not_found", ["not a memory"]),
    ("update_memory", {"memory_id": "Prefers TypeScript"}, "invalid_argument", ["nothing to update"]),
    ("update_memory", {"memory_id": "Prefers TypeScript", "content": "new", "expected_hash": "abc"}, "invalid_argument",
     ["expected_hash: 'abc' does not have the expected form: the content_hash you last read"]),
    ("update_memory", {"memory_id": "Prefers TypeScript", "content": "new", "expected_hash": "0" * 64},
     "conflict", ["re-read", "content_hash is now"]),
    ("create_relation", {"from_memory_id": "Prefers TypeScript", "to_memory_id": "Uses Neovim",
                         "relation_type": "likes"}, "invalid_argument", ["relation_type: must be 'related', 'causes',"]),
    ("create_relation", {"from_memory_id": "Prefers TypeScript", "to_memory_id": "Prefers TypeScript",
                         "relation_type": "related"}, "invalid_argument", ["itself"]),
    ("promote_memory", {}, "invalid_argument", ["auto_detect"]),
    ("promote_memory", {"memory_id": "Curious about Rust"}, "invalid_argument", ["not a promotion candidate", "force"]),
    ("memory_version", {"memory_id": "Prefers TypeScript", "commit": "zzzz"}, "invalid_argument",
     ["commit: 'zzzz' does not have the expected form: a commit sha or its prefix"]),
    ("memory_history", {"memory_id": "never-existed-anywhere"}, "not_found", ["forgotten_memories"]),
    ("restore_memory", {"memory_id": "Prefers TypeScript"}, "invalid_argument", ["not forgotten"]),
    ("observe_memory_usage", {"memory_ids": []}, "invalid_argument", ["memory_ids: at least 1 values, got 0"]),
    ("read_note", {"path": "Home.md"}, "invalid_argument",
     ["path: unknown argument (did you mean ref?). The arguments are: ref, cursor, max_chars"]),
    ("read_note", {"ref": "../x.md"}, "unsafe_path", ["'..' would leave the vault"]),
    ("search_unified", {"query": "coffee", "folder": "No such folder"}, "not_found", ["No such folder", "no such folder in the vault"]),
    ("search_unified", {"query": "coffee", "folder": "0" * 500}, "not_found", ["no such folder in the vault"]),
    ("no_such_tool", {}, "unknown_tool", ["Unknown tool: no_such_tool. The tools are ", "search_memory"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "arguments", "code", "words"), BAD_CALLS, ids=lambda v: v if isinstance(v, str) else ""
)
async def test_bad_call_is_a_readable_error_and_changes_nothing(
    tool: str, arguments: dict, code: str, words: list[str], read_only_git_vault: Path,
    read_only_server: MCPServer,
) -> None:  # fmt: skip
    git_vault = read_only_git_vault
    before = vault_fingerprint(git_vault)
    async with Client(read_only_server) as client:
        result = await client.call_tool(tool, arguments)
    message = text_of(result)
    assert result.is_error, f"{tool} {arguments}: {result.structured_content}"
    for word in words:
        assert word in message, f"{word!r} not in: {message}"
    assert result.structured_content is not None
    assert result.structured_content["error"] == code
    assert message.startswith(result.structured_content["detail"])
    # the reason only: no SDK prefix, no class name, no pydantic text
    assert not message.startswith("Error executing tool"), message
    assert not re.search(r"\b[A-Z][a-z]+[A-Z]\w*:", message), message
    assert "Traceback" not in message
    assert "pydantic" not in message and "validation error" not in message, message
    assert "cortexgraph-vault" not in message, message  # the CLI's words stay in the CLI
    assert vault_fingerprint(git_vault) == before


async def test_argument_errors_keep_a_structured_error_for_clients(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        bad = await client.call_tool("search_memory", {"top_k": 1000, "status": "deleted"})
        missing = await client.call_tool("touch_memory", {"memory_id": "no-such-memory"})
    assert bad.is_error
    assert bad.structured_content == {
        "error": "invalid_argument",
        "detail": "status: must be 'active', 'promoted', 'archived' or 'all', got 'deleted'; "
        "top_k: must be from 1 to 100, got 1000",
        "params": ["status", "top_k"],
    }
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
    assert result.structured_content is not None
    assert result.structured_content["error"] == "ambiguous"
    assert "Call again with one of these ids" in message
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
