"""The daemon's connections (`daemon/connections.py`, `mcp/http_sessions.py`): a flood of idle
sockets never takes the room `/health` and a real client need, idle ones are closed, and one
token holder filling every MCP session does not keep a new client out.

Against a real daemon on 127.0.0.1 with a short idle timeout and a small room; the policy
itself with a clock passed in."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cortexgraph_vault.daemon.connections import (
    REFUSAL,
    ConnectionBook,
    ConnectionLimits,
    GuardedProtocol,
    connection_room,
)
from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import Daemon, isolated_env, launch, wait_ready
from tests.api.test_daemon_mcp import mcp_session

ROOM = 64
IDLE = 1.0
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    base = tmp_path_factory.mktemp("connections")
    env = isolated_env(
        base / "home",
        CORTEXGRAPH_DAEMON_IDLE_SECONDS=str(IDLE),
        CORTEXGRAPH_DAEMON_MAX_CONNECTIONS=str(ROOM),
    )
    vault = git_sample_vault(base / "vault")
    d = wait_ready(launch(base / "home", "serve", "--port", "0", vault=vault, env=env))
    yield d
    d.stop()


def open_files(d: Daemon) -> int:
    return len(os.listdir(f"/proc/{d.proc.pid}/fd"))


def closed_by_the_daemon(sock: socket.socket, deadline: float) -> bool:
    """Whether the daemon ends the connection (EOF, reset, or a refusal then EOF) in time."""
    sock.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files in /proc")
def test_idle_sockets_never_starve_health_and_are_closed(daemon: Daemon) -> None:
    before = open_files(daemon)
    idle = [socket.create_connection(("127.0.0.1", daemon.port)) for _ in range(400)]
    try:
        assert httpx.get(daemon.url + "/health", timeout=30).status_code == 200
        with daemon.client() as http:
            assert http.get("/api/v1/status").status_code == 200
        # never more than its room, whatever the flood: the oldest idle made way
        assert open_files(daemon) <= before + ROOM
        deadline = time.monotonic() + 60
        assert all(closed_by_the_daemon(s, deadline) for s in idle)
    finally:
        for s in idle:
            s.close()


def test_a_request_left_half_sent_is_closed(daemon: Daemon) -> None:
    with socket.create_connection(("127.0.0.1", daemon.port)) as half:
        half.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert closed_by_the_daemon(half, time.monotonic() + 60)


def test_a_connection_kept_alive_after_an_answer_is_closed_when_silent(daemon: Daemon) -> None:
    with socket.create_connection(("127.0.0.1", daemon.port)) as kept:
        kept.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200" in kept.recv(4096).split(b"\r\n")[0]
        assert closed_by_the_daemon(kept, time.monotonic() + 60)


@pytest.mark.anyio
async def test_an_mcp_session_outlives_the_idle_timeout_of_its_connections(
    daemon: Daemon,
) -> None:
    async with mcp_session(daemon) as session:
        assert not (await session.call_tool("vault_status", {})).is_error
        await asyncio.sleep(IDLE * 3)  # its connections idle past the timeout meanwhile
        assert not (await session.call_tool("vault_status", {})).is_error


@pytest.mark.anyio
async def test_one_token_holder_filling_every_mcp_session_does_not_keep_a_new_client_out(
    daemon: Daemon,
) -> None:
    with daemon.client() as http:
        taken = [http.post("/mcp", json=INITIALIZE, headers=ACCEPT) for _ in range(64)]
        assert {r.status_code for r in taken} == {200}
    async with mcp_session(daemon) as session:
        found = await session.call_tool("search_memory", {"query": "kestrel"})
        assert not found.is_error


# The policy ------------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def book(total: int = 3, per_client: int = 2) -> tuple[ConnectionBook, Clock, list[Any]]:
    clock = Clock()
    return ConnectionBook(ConnectionLimits(1.0, total, per_client), clock=clock), clock, []


def test_a_full_book_closes_the_longest_idle_connection_for_a_new_one() -> None:
    b, clock, closed = book()
    for port in (1, 2, 3):
        clock.now = port
        assert b.admit(("127.0.0.1", port), lambda port=port: closed.append(port))
    b.heard(("127.0.0.1", 1))  # at 3: now port 2 is the longest silent
    assert b.admit(("127.0.0.1", 4), lambda: closed.append(4))
    assert closed == [2] and set(b.open) == {("127.0.0.1", p) for p in (1, 3, 4)}


def test_a_connection_being_answered_is_never_closed_and_a_full_busy_book_refuses() -> None:
    b, _, closed = book(total=2)
    for port in (1, 2):
        b.admit(("127.0.0.1", port), lambda port=port: closed.append(port))
        b.open[("127.0.0.1", port)].busy = 1
    assert b.silent_for(("127.0.0.1", 1)) is None
    assert not b.admit(("127.0.0.1", 3), lambda: closed.append(3))
    assert closed == [] and b.refused == 1


def test_a_client_that_can_be_told_apart_holds_its_share_loopback_shares_one() -> None:
    b, _, closed = book(total=10, per_client=2)
    for port in (1, 2, 3):
        assert b.admit(("192.0.2.7", port), lambda port=port: closed.append(port))
    assert closed == [1]  # its own oldest made way; nobody else's
    assert all(b.admit(("127.0.0.1", p), lambda: None) for p in range(10, 17))
    assert closed == [1]


def test_the_room_stays_below_the_open_file_limit() -> None:
    assert connection_room(512, file_limit=1024) == 512
    assert connection_room(512, file_limit=512) == 256
    assert connection_room(5000, file_limit=4096) == 2048
    assert connection_room(512, file_limit=65536) == 512


class FakeTransport:
    def __init__(self, port: int) -> None:
        self.port, self.written, self.closing = port, b"", False

    def get_extra_info(self, name: str) -> object:
        return ("127.0.0.1", self.port) if name == "peername" else None

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing


class Inner(asyncio.Protocol):
    made = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made += 1


def test_a_refused_connection_is_told_why_and_never_reaches_the_server() -> None:
    b, _, _ = book(total=1)
    b.admit(("127.0.0.1", 1), lambda: None)
    b.open[("127.0.0.1", 1)].busy = 1
    inner, transport = Inner(), FakeTransport(2)
    GuardedProtocol(inner, b).connection_made(transport)  # type: ignore[arg-type]
    status, _, body = transport.written.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 503 ") and b"too_many_connections" in body
    assert transport.written == REFUSAL and transport.closing and inner.made == 0
