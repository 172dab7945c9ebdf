"""A conversation as a model holds it, through the real MCP client: save, search in other words,
observe, read a vault note that search_unified found, preview gc, look at history. Every answer
is non-empty, agrees with its own counts and stays bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp.types import CallToolResult

from tests.mcp.mcp_session import assert_matches_schema, connected, service_for, text_of
from tests.mcp.test_mcp_tools import Session, session_for

pytestmark = pytest.mark.anyio

# What one tool answer may cost the model's context, at most.
ANSWER_BUDGET = 30_000


class Conversation:
    """Calls tools as the model would and checks each answer is a real, bounded one."""

    def __init__(self, session: Session) -> None:
        self.s = session

    async def call(self, name: str, **arguments: object) -> dict:
        result: CallToolResult = await self.s.client.call_tool(name, arguments)
        data = assert_matches_schema(self.s.tools[name], result)
        text = text_of(result)
        assert result.content and text.strip(), f"{name}: no content block for the model"
        assert len(text) <= ANSWER_BUDGET, f"{name}: {len(text)} characters"
        assert json.loads(text) == data, f"{name}: the text and the structured answer differ"
        return data


async def test_save_search_observe_read_preview_and_history(git_vault: Path) -> None:
    async with connected(service_for(git_vault)) as client:
        talk = Conversation(await session_for(client))

        saved = await talk.call(
            "save_memory",
            content="Maya's sister Ingrid is allergic to shellfish, so family dinners avoid "
            "prawns and mussels.",
            tags=["family", "food"], entities=["Ingrid"],
        )  # fmt: skip
        assert saved["success"] and saved["path"].startswith("_stm/") and saved["commit"]

        # Said again in other word forms (singular for plural): what today's lexical search
        # already finds; stemming and embeddings will widen what a paraphrase may change.
        found = await talk.call("search_memory", query="prawn and mussel dinner", top_k=5)
        assert found["count"] == len(found["results"]) >= 1
        assert found["results"][0]["id"] == saved["memory_id"]

        observed = await talk.call(
            "observe_memory_usage", memory_ids=[saved["memory_id"]], context_tags=["cooking"]
        )
        assert observed["reinforced"] == len(observed["memories"]) == 1
        assert observed["not_found"] == []
        assert observed["memories"][0]["memory_id"] == saved["memory_id"]

        unified = await talk.call("search_unified", query="Atlas event log services", limit=5)
        assert unified["count"] == len(unified["results"]) >= 1
        note_hit = next(r for r in unified["results"] if r["source"] == "note")
        note = await talk.call("read_note", ref=note_hit["path"], max_chars=2000)
        assert note["path"] == note_hit["path"] and note["body"]
        assert len(note["body"]) <= 2000 and note["offset"] == 0
        assert ("next_cursor" not in note) == (len(note["body"]) == note["body_chars"])
        # links and backlinks as many as fit after the body; a cursor for the rest
        assert note["link_count"] == len(note["links"]) or note["links_cursor"]
        assert note["backlink_count"] == len(note["backlinks"]) or note["backlinks_cursor"]

        preview = await talk.call("gc")
        assert preview["dry_run"] is True and "commit" not in preview
        assert preview["total_affected"] >= 1, "the sample vault has faded memories"
        assert preview["total_affected"] == len(preview["memory_ids"]) == len(preview["candidates"])
        assert saved["memory_id"] not in preview["memory_ids"], "a fresh memory is not forgotten"

        history = await talk.call("memory_history", memory_id=saved["memory_id"])
        assert history["exists"] and history["path"] == saved["path"]
        assert history["commits"] and history["commits"][-1]["sha"] == saved["commit"]
