"""`sync` through the MCP server (a real MCP client) and the REST daemon (real HTTP)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.api.daemon_process import start_daemon
from tests.integration.clones import Devices, a_memory, fields
from tests.mcp.mcp_session import connected

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TEA = "3f1c9a0e-0000-4000-8000-0000000000aa"
NOTE = "_stm/Tea.md"


@pytest.fixture
def d(tmp_path: Path) -> Devices:
    return Devices(tmp_path, {NOTE: a_memory(TEA, uses=5)}, NOW)


@pytest.mark.anyio
async def test_sync_vault_tool_merges_and_reports(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    d.service(laptop, timedelta(hours=1)).touch(TEA)
    d.service(laptop).sync()
    s = d.service(desktop, timedelta(hours=2))
    s.touch(TEA)
    async with connected(s) as client:
        result = await client.call_tool("sync_vault", {})
        assert not result.is_error, result
        data = result.structured_content
        assert data is not None and data["merged"] == 1
        assert data["message"].startswith("1 memory merged from origin")
        refused = await client.call_tool("sync_vault", {"remote": "nowhere"})
        assert refused.is_error
        assert "--remote nowhere: no such remote" in json.dumps(
            [c.model_dump() for c in refused.content]
        )
    assert fields(desktop / NOTE)["use_count"] == 7


def test_rest_sync_merges_and_refusals_are_409(d: Devices, tmp_path: Path) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    d.service(laptop, timedelta(hours=1)).touch(TEA)
    d.service(laptop).sync()
    d.service(desktop, timedelta(hours=2)).touch(TEA)
    daemon = start_daemon(tmp_path / "daemon-home", desktop)
    try:
        client = daemon.client()
        assert client.get("/api/v1/sync").json() == {
            "at": None, "ok": False, "result": None, "error": None,
        }  # fmt: skip
        done = client.post("/api/v1/sync", json={})
        assert done.status_code == 200, done.text
        assert done.json()["merged"] == [NOTE]
        last = client.get("/api/v1/sync").json()
        assert last["ok"] and last["result"] == done.json() and last["at"]
        refused = client.post("/api/v1/sync", json={"remote": "nowhere"})
        assert refused.status_code == 409
        assert "--remote nowhere: no such remote" in refused.json()["detail"]
        failed = client.get("/api/v1/sync").json()
        assert not failed["ok"] and failed["result"] is None
        assert failed["error"] == refused.json()["detail"]
        typo = client.post("/api/v1/sync", json={"remot": "origin"})
        assert typo.status_code == 422
    finally:
        daemon.stop()
    assert fields(desktop / NOTE)["use_count"] == 7
