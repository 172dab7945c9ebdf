"""The same service behind REST and /mcp: what one door writes, the other reads, identically."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.api.daemon_process import Daemon

pytestmark = pytest.mark.anyio

KESTREL = "6819a4b2-19b5-4061-9396-8a835b22a2c9"
SHARED_FIELDS = ("id", "title", "path", "status", "content", "tags", "entities", "use_count",
                 "strength", "score", "content_hash", "days_until_forgotten", "created", "last_used")  # fmt: skip


@asynccontextmanager
async def mcp_session(d: Daemon, token: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token or d.token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(d.url + "/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def test_a_memory_reads_the_same_through_rest_and_mcp(shared_daemon: Daemon) -> None:
    rest = shared_daemon.client().get(f"/api/v1/memories/{KESTREL}").json()
    async with mcp_session(shared_daemon) as session:
        opened = await session.call_tool("open_memories", {"memory_ids": [KESTREL]})
    assert not opened.is_error
    via_mcp = opened.structured_content["memories"][0]
    # MCP leaves out a field with no value (days_until_forgotten of a promoted memory)
    assert {k: via_mcp.get(k) for k in SHARED_FIELDS} == {k: rest[k] for k in SHARED_FIELDS}
    assert via_mcp["relations"] == {  # a relation to a note that is no memory has no to_memory_id
        side: [{k: v for k, v in r.items() if v is not None} for r in relations]
        for side, relations in rest["relations"].items()
    }


async def test_writes_through_one_door_are_seen_through_the_other(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    async with mcp_session(shared_daemon) as session:
        saved = await session.call_tool(
            "save_memory", {"content": "The spare key is under the blue pot."}
        )
        assert not saved.is_error
        memory_id = saved.structured_content["id"]
        rest = c.get("/api/v1/memories/lookup", params={"path": saved.structured_content["path"]})
        assert rest.status_code == 200 and rest.json()["id"] == memory_id

        touched = c.post(f"/api/v1/memories/{memory_id}/touch").json()
        found = await session.call_tool("search_memory", {"query": "spare key blue pot"})
        hit = next(h for h in found.structured_content["results"] if h["id"] == memory_id)
        assert hit["use_count"] == touched["use_count"] == 2


async def test_mcp_without_the_token_is_refused(shared_daemon: Daemon) -> None:
    with pytest.raises(Exception):  # noqa: B017 - the SDK surfaces the 401 as some error
        async with mcp_session(shared_daemon, token="not-the-token" * 4):
            pass
    raw = httpx2.post(
        shared_daemon.url + "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        headers={"Accept": "application/json, text/event-stream"},
    )
    assert raw.status_code == 401
