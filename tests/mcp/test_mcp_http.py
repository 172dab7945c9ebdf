"""`http_app(build_server(service))` under a real uvicorn on 127.0.0.1, with the SDK's HTTP client."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from mcp import Client

from cortexgraph_vault.mcp import build_server, http_app
from tests.mcp.mcp_session import service_for

pytestmark = pytest.mark.anyio


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(app: object, port: int) -> Iterator[str]:
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


async def test_streamable_http_session_saves_and_finds(git_vault: Path) -> None:
    port = free_port()
    with serving(http_app(build_server(service_for(git_vault)), port=port), port) as url:
        async with Client(url) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"save_memory", "search_memory", "memory_history"} <= names
            saved = await client.call_tool(
                "save_memory", {"content": "Maya's locker is number 42."}
            )
            assert not saved.is_error
            found = await client.call_tool("search_memory", {"query": "locker"})
            assert found.structured_content["results"][0]["id"] == saved.structured_content["id"]
            assert (git_vault / saved.structured_content["path"]).exists()


def test_foreign_host_and_origin_are_refused(git_vault: Path) -> None:
    port = free_port()
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    accept = {"Accept": "application/json, text/event-stream"}
    with serving(http_app(build_server(service_for(git_vault)), port=port), port) as url:
        rebinding = httpx.post(url, json=body, headers={**accept, "Host": f"evil.example:{port}"})
        assert rebinding.status_code == 421
        foreign = httpx.post(url, json=body, headers={**accept, "Origin": "https://evil.example"})
        assert foreign.status_code == 403
        local = httpx.post(url, json=body, headers=accept)
        assert local.status_code == 200
        assert "access-control-allow-origin" not in {k.lower() for k in local.headers}


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_a_bare_loopback_host_is_served_as_rest_serves_it(git_vault: Path) -> None:
    port = free_port()
    with serving(http_app(build_server(service_for(git_vault)), port=port), port) as url:
        for host in ("127.0.0.1", "localhost", f"127.0.0.1:{port}"):
            answer = httpx.post(url, json=INITIALIZE, headers={**ACCEPT, "Host": host})
            assert answer.status_code == 200, (host, answer.text)
        wrong_port = httpx.post(url, json=INITIALIZE, headers={**ACCEPT, "Host": "127.0.0.1:1"})
        assert wrong_port.status_code == 421


def _session(url: str) -> str:
    opened = httpx.post(url, json=INITIALIZE, headers=ACCEPT)
    assert opened.status_code == 200, opened.text
    return opened.headers["mcp-session-id"]


def _ping(url: str, session: str) -> int:
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    return httpx.post(url, json=ping, headers={**ACCEPT, "mcp-session-id": session}).status_code


def test_sessions_are_bounded_and_expire_when_idle(git_vault: Path) -> None:
    port = free_port()
    app = http_app(
        build_server(service_for(git_vault)), port=port, max_sessions=3, session_idle_seconds=1.0
    )
    with serving(app, port) as url:
        opened = [_session(url) for _ in range(3)]
        time.sleep(2.5)  # idle past the timeout: every session is closed and its room given back
        assert [_ping(url, s) for s in opened] == [404, 404, 404]
        assert [_session(url) for _ in range(3)]


def test_a_new_client_gets_in_when_sessions_are_all_taken(git_vault: Path) -> None:
    """The least recently used session makes room; the others, and the newcomer, work."""
    port = free_port()
    app = http_app(build_server(service_for(git_vault)), port=port, max_sessions=3)
    with serving(app, port) as url:
        first, second, third = (_session(url) for _ in range(3))
        assert _ping(url, first) == 200  # used again: now `second` is the least recently used
        newcomer = _session(url)
        assert _ping(url, second) == 404
        assert [_ping(url, s) for s in (first, third, newcomer)] == [200, 200, 200]


def test_a_session_holding_its_event_stream_is_ended_only_after_the_quiet_ones(
    git_vault: Path,
) -> None:
    port = free_port()
    app = http_app(build_server(service_for(git_vault)), port=port, max_sessions=2)
    with serving(app, port) as url:
        waiting, quiet = _session(url), _session(url)
        stream = {**ACCEPT, "Accept": "text/event-stream", "mcp-session-id": waiting}
        with httpx.stream("GET", url, headers=stream, timeout=30) as events:
            assert events.status_code == 200
            newcomer = _session(url)
            assert _ping(url, quiet) == 404
            assert [_ping(url, s) for s in (waiting, newcomer)] == [200, 200]
