"""A search sent while the MCP SDK is still loading is answered without it, exactly as the
SDK answers it; everything else, and anything it cannot answer the same way, goes to the SDK."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from cortexgraph_vault.mcp.quick_calls import QuickCalls
from tests.mcp.mcp_session import service_for
from tests.mcp.test_mcp_startup import initialize
from tests.mcp.test_mcp_stdio import RawServer, server_argv

SEARCH = {"name": "search_memory", "arguments": {"query": "oat milk coffee", "top_k": 3}}


def answer_to(server: RawServer, request_id: int) -> dict:
    while True:
        line = server._queue.get(timeout=60)
        server.lines.append(line)
        message = json.loads(line)
        if message.get("id") == request_id:
            return message


def test_the_first_search_is_answered_before_the_sdk_loads_and_as_the_sdk_answers(
    sample_vault: Path,
) -> None:
    server = RawServer(server_argv(sample_vault, "-v"))  # -v: the server logs what answered
    try:
        # as a client spawning the server for one question sends them: all at once
        server.send(initialize("2025-06-18"))
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": SEARCH})
        answer_to(server, 1)
        quick = answer_to(server, 2)
        server._next_id = 2
        tools = server.request("tools/list")  # only the SDK answers this
        by_sdk = server.request("tools/call", SEARCH)
    finally:
        stderr = server.close()
    assert "search_memory answered without waiting for the SDK" in stderr
    assert stderr.count("answered without waiting for the SDK") == 1  # the later one: the SDK
    assert "the MCP SDK serves the session" in stderr
    assert any(t["name"] == "search_memory" for t in tools["result"]["tools"])
    assert quick["result"] == by_sdk["result"]  # the same content, structured content, flags
    hits = quick["result"]["structuredContent"]["results"]
    assert hits[0]["path"] == "_stm/Oat milk in coffee.md"
    assert json.loads(quick["result"]["content"][0]["text"]) == quick["result"]["structuredContent"]
    answers = [json.loads(line) for line in server.lines]
    assert sorted(a.get("id") for a in answers) == [1, 2, 3, 4], "one answer per request"


def test_a_call_it_cannot_answer_as_the_sdk_would_goes_to_the_sdk(sample_vault: Path) -> None:
    server = RawServer(server_argv(sample_vault, "-v"))
    try:
        server.request("initialize", initialize("2025-06-18")["params"])
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        misspelt = server.request("tools/call", {"name": "search_memory",
                                                 "arguments": {"query": "coffee", "top_kk": 3}})  # fmt: skip
        refused = server.request("tools/call", {"name": "search_memory",
                                                "arguments": {"query": "coffee", "top_k": 0}})  # fmt: skip
    finally:
        stderr = server.close()
    assert "answered without waiting for the SDK" not in stderr
    assert "result" in misspelt  # whatever the SDK makes of it, it answered
    assert refused["result"]["isError"] is True  # top_k 0: the SDK's refusal, named
    assert "top_k" in refused["result"]["content"][0]["text"]


class Gate:
    """A service that waits to be let through: a quick call stays in flight meanwhile."""

    def __init__(self, sample_vault: Path) -> None:
        self.service = service_for(sample_vault)
        self.through = threading.Event()

    def __call__(self):  # type: ignore[no-untyped-def]
        assert self.through.wait(30)
        return self.service


def line(request_id: int, method: str, params: dict | None = None) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method,
                       "params": params or {}}) + "\n"  # fmt: skip


def test_the_sdk_loads_once_no_quick_call_needs_the_cpu(sample_vault: Path) -> None:
    gate = Gate(sample_vault)
    sent: list[bytes] = []
    forwarded: list[str] = []
    quick = QuickCalls(gate, sent.append, forwarded.append)
    assert not quick.take(line(1, "initialize", initialize("2025-06-18")["params"]))
    assert not quick.take('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    assert not quick.sdk_may_load.is_set()  # a handshake asks nothing of the SDK yet
    assert quick.take(line(2, "tools/call", SEARCH))
    quick.vault_opened()
    assert not quick.sdk_may_load.is_set()  # the search runs first
    gate.through.set()
    assert quick.sdk_may_load.wait(30)
    answer = json.loads(sent[0])
    assert answer["id"] == 2 and answer["result"]["isError"] is False
    assert forwarded == []


def test_a_request_only_the_sdk_answers_starts_it_at_once(sample_vault: Path) -> None:
    quick = QuickCalls(Gate(sample_vault), [].append, [].append)
    assert not quick.take(line(2, "tools/list"))
    assert quick.sdk_may_load.is_set()
    quick.serving()
    assert not quick.take(line(3, "tools/call", SEARCH))  # the SDK serves: it answers all
