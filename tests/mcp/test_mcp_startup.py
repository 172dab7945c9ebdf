"""The stdio server answers `initialize` before its index (and the SDK) have loaded; calls that
come early wait for the index, and past a bound say how far it got."""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from bench.vaultgen import generate_vault
from cortexgraph_vault.mcp.handshake import HANDSHAKE_VERSIONS, quick_answer
from cortexgraph_vault.mcp.server import serve_lines
from cortexgraph_vault.mcp.stdio_front import PendingService, QueuedLines
from tests.conftest import NOW
from tests.mcp.mcp_session import connected, service_for, text_of
from tests.mcp.test_mcp_stdio import RawServer, server_argv


def initialize(version: str, request_id: int | str = 1) -> dict:
    return {
        "jsonrpc": "2.0", "id": request_id, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "startup-test", "version": "1"}},
    }  # fmt: skip


def test_initialize_is_answered_while_a_large_vault_is_indexing_and_the_first_search_finds(
    tmp_path: Path,
) -> None:
    vault = generate_vault(tmp_path / "vault", 3000, now=NOW).root
    (vault / "Notes" / "Quokka.md").write_text("The zanzibarquokka lives on Rottnest.\n")
    server = RawServer(server_argv(vault, "-v"))  # -v: the server logs "index ready"
    try:
        init = server.request("initialize", initialize("2025-06-18")["params"])
        log_at_initialize = b"".join(server._stderr).decode(errors="replace")
        assert init["result"]["serverInfo"]["name"] == "cortexgraph-vault"
        assert init["result"]["protocolVersion"] == "2025-06-18"
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        found = server.request(
            "tools/call", {"name": "search_unified", "arguments": {"query": "zanzibarquokka"}}
        )
        assert not found["result"].get("isError"), found
        assert found["result"]["structuredContent"]["results"][0]["path"] == "Notes/Quokka.md"
    finally:
        stderr = server.close()
    assert "index ready: 3001 notes" in stderr
    assert "index ready" not in log_at_initialize, "initialize waited for the index"
    answers = [json.loads(line) for line in server.lines]
    assert [a.get("id") for a in answers] == [1, 2], "one answer per request, none twice"


class Captured:
    """The SDK transport's output, kept."""

    def __init__(self) -> None:
        self.messages: list[dict] = []

    async def write(self, text: str) -> None:
        self.messages.append(json.loads(text))

    async def flush(self) -> None:
        return None


@pytest.mark.parametrize("version", [*HANDSHAKE_PROTOCOL_VERSIONS, "1999-01-01", "2026-07-28"])
def test_the_quick_initialize_answer_is_the_sdks_own(sample_vault: Path, version: str) -> None:
    assert HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS
    line = json.dumps(initialize(version, "a-7"))
    lines: queue.Queue[str | None] = queue.Queue()
    lines.put(line + "\n")
    lines.put(None)
    out = Captured()
    serve_lines(service_for(sample_vault), QueuedLines(lines), out)
    quick = quick_answer(line)
    assert quick is not None and quick[1] == "a-7"
    assert out.messages == [json.loads(quick[0])]


def test_requests_the_quick_path_leaves_to_the_sdk() -> None:
    assert quick_answer(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})) is None
    assert quick_answer("not json") is None
    no_client = initialize("2025-06-18")
    del no_client["params"]["clientInfo"]
    assert quick_answer(json.dumps(no_client)) is None
    modern = initialize("2026-07-28")
    modern["params"]["_meta"] = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    assert quick_answer(json.dumps(modern)) is None


@pytest.mark.anyio
async def test_a_call_past_the_wait_bound_says_still_indexing_then_works(
    sample_vault: Path,
) -> None:
    go = threading.Event()

    def build(seen):  # type: ignore[no-untyped-def]
        seen(["one note", "another"])  # what the catalogue holds so far
        go.wait(30)
        return service_for(sample_vault)

    pending = PendingService(build, wait_seconds=0.2, vault=str(sample_vault))
    notes = len(list(sample_vault.rglob("*.md")))
    async with connected(pending) as client:  # type: ignore[arg-type]
        early = await client.call_tool("search_memory", {"query": "coffee"})
        assert early.is_error
        assert f"still indexing the vault: 2 of {notes} notes" in text_of(early)
        assert early.structured_content["error"] == "still_indexing"
        go.set()
        pending.wait(60)  # built: how long that takes on a busy machine is no part of the test
        later = await client.call_tool("search_memory", {"query": "coffee"})
        assert not later.is_error, text_of(later)
        assert later.structured_content["results"]
