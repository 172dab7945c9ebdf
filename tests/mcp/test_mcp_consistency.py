"""Results that agree with themselves, through the real MCP client: counts match the lists
they count, an empty list is still an answer, and a path outside the vault is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.mcp_session import connected, service_for, text_of, vault_fingerprint
from tests.mcp.test_mcp_tools import session_for

pytestmark = pytest.mark.anyio

MESSAGE = "What do I think about TypeScript and Neovim?"


@pytest.mark.parametrize("mode", ["silent", "subtle", "interactive"])
async def test_auto_recall_lists_as_many_memories_as_it_says_match(
    mode: str, git_vault: Path
) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        recalled = await s.call("auto_recall_process_message", message=MESSAGE, mode=mode)
    assert recalled["memories_found"] >= 2, recalled
    assert len(recalled["memories"]) == recalled["memories_found"]
    assert recalled["message"].startswith(f"{recalled['memories_found']} memories match")
    reinforced = [m["memory_id"] for m in recalled["memories"] if m["reinforced"]]
    assert reinforced == recalled["reinforced_ids"]
    assert len(reinforced) == recalled["memories_reinforced"]
    with_text = [m for m in recalled["memories"] if m.get("content")]
    assert len(with_text) == (0 if mode == "silent" else recalled["memories_found"])


async def test_forgotten_memories_answers_when_empty_and_lists_archived_ones(
    git_vault: Path,
) -> None:
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        empty = await client.call_tool("forgotten_memories", {})
        assert not empty.is_error and len(empty.content) == 1, "the client sees an answer"
        assert empty.structured_content == {
            "count": 0, "forgotten": [], "message": "nothing forgotten or archived",
        }  # fmt: skip
        deleted = await s.call("delete_memory", memory_id="Curious about Rust")
        listed = await s.call("forgotten_memories")
        restored = await s.call("restore_memory", memory_id=listed["forgotten"][0]["id"])
        after = await s.call("forgotten_memories")
    assert listed["count"] == len(listed["forgotten"]) == 1
    gone = listed["forgotten"][0]
    assert (gone["kind"], gone.get("deleted_in"), gone["title"]) == (
        "archived",
        None,
        "Curious about Rust",
    )
    assert gone["path"] == deleted["archived_path"] and gone["path"].startswith("_archive/")
    assert gone["id"] == deleted["memory_id"]
    assert "Rust" in gone["preview"]
    assert restored["path"].startswith("_stm/")
    assert after["count"] == 0


async def test_search_unified_refuses_a_folder_outside_the_vault(git_vault: Path) -> None:
    before = vault_fingerprint(git_vault)
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        inside = await s.call("search_unified", query="Atlas", folder="Projects/")
        refused = {
            folder: await client.call_tool("search_unified", {"query": "x", "folder": folder})
            for folder in ("../../etc", "/etc", "Projects/../../..")
        }
    assert inside["count"] >= 1 and all(
        r["path"].startswith("Projects/") for r in inside["results"]
    )
    for folder, result in refused.items():
        assert result.is_error, folder
        assert text_of(result).startswith("folder: "), text_of(result)
        assert "refused" in text_of(result) or "leave the vault" in text_of(result)
        assert result.structured_content and result.structured_content["error"] == "unsafe_path"
    assert vault_fingerprint(git_vault) == before
