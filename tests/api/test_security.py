"""The daemon answers only its owner on this machine (REFERENCE §5), on REST and MCP alike."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from tests.api.daemon_process import Daemon

PROTECTED = [
    ("GET", "/api/v1/memories"),
    ("GET", "/api/v1/config"),
    ("GET", "/api/v1/openapi.json"),
    ("GET", "/api/v1/notes/read?ref=Home"),
    ("POST", "/api/v1/gc"),
    ("POST", "/mcp"),
]


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_no_token_is_401_with_www_authenticate(
    shared_daemon: Daemon, method: str, path: str
) -> None:
    r = httpx.request(method, shared_daemon.url + path, json={})
    assert r.status_code == 401
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert r.json()["error"] == "unauthorized"
    assert "cortexgraph-vault token" in r.json()["detail"]


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_wrong_token_is_401(shared_daemon: Daemon, method: str, path: str) -> None:
    wrong = shared_daemon.token[:-4] + "AAAA"
    for header in (
        f"Bearer {wrong}",
        f"Basic {shared_daemon.token}",
        "Bearer",
        shared_daemon.token,
    ):
        r = httpx.request(
            method, shared_daemon.url + path, json={}, headers={"Authorization": header}
        )
        assert r.status_code == 401, header
        assert r.headers["www-authenticate"].startswith("Bearer")


def test_token_in_query_string_is_not_accepted(shared_daemon: Daemon) -> None:
    r = httpx.get(shared_daemon.url + "/api/v1/memories", params={"token": shared_daemon.token})
    assert r.status_code == 401


def test_health_needs_no_token_and_says_nothing_else(shared_daemon: Daemon) -> None:
    r = httpx.get(shared_daemon.url + "/health")
    assert r.status_code == 200
    assert r.json() == {"ok": True}
    assert "server" not in r.headers  # no software banner either


def test_right_token_is_accepted(shared_daemon: Daemon) -> None:
    assert shared_daemon.client().get("/api/v1/config").status_code == 200


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1:1",
        "localhost.evil.example:{port}",
        "0.0.0.0:{port}",
    ],
)
def test_foreign_host_is_421_even_with_token(shared_daemon: Daemon, host: str) -> None:
    for path in ("/api/v1/memories", "/health", "/mcp"):
        r = shared_daemon.client().get(path, headers={"Host": host.format(port=shared_daemon.port)})
        assert r.status_code == 421, (path, host)
        assert r.json()["error"] == "misdirected_request"


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "localhost", "127.0.0.1"])
def test_loopback_hosts_are_served(shared_daemon: Daemon, host: str) -> None:
    r = shared_daemon.client().get(
        "/api/v1/config", headers={"Host": host.format(port=shared_daemon.port)}
    )
    assert r.status_code == 200


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "http://127.0.0.1:{port}", "null", "app://obsidian.md.evil"]
)
def test_foreign_origin_is_403_even_with_token(shared_daemon: Daemon, origin: str) -> None:
    for method, path in (
        ("GET", "/api/v1/memories"),
        ("GET", "/health"),
        ("POST", "/mcp"),
        ("OPTIONS", "/api/v1/memories"),
    ):
        r = shared_daemon.client().request(
            method, path, headers={"Origin": origin.format(port=shared_daemon.port)}
        )
        assert r.status_code == 403, (method, path, origin)
        assert r.json()["error"] == "forbidden_origin"


def test_obsidian_origin_is_served(shared_daemon: Daemon) -> None:
    r = shared_daemon.client().get("/api/v1/config", headers={"Origin": "app://obsidian.md"})
    assert r.status_code == 200


def test_no_cors_headers_ever(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    preflight = {
        "Origin": "app://obsidian.md",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    responses = [
        c.options("/api/v1/memories", headers=preflight),
        c.options("/mcp", headers=preflight),
        c.options("/health", headers=preflight),
        httpx.options(shared_daemon.url + "/api/v1/memories", headers=preflight),
        c.get("/api/v1/memories", headers={"Origin": "app://obsidian.md"}),
        c.get("/api/v1/memories", headers={"Origin": "https://evil.example"}),
        httpx.get(shared_daemon.url + "/api/v1/memories"),
        c.post("/mcp", headers={"Origin": "app://obsidian.md"}, json={}),
        c.get("/nowhere"),
    ]
    for r in responses:
        leaked = [h for h in r.headers if h.lower().startswith("access-control-")]
        assert not leaked, (r.request.method, r.request.url, r.status_code, leaked)


@pytest.mark.parametrize(
    ("method", "path", "kw"),
    [
        ("GET", "/api/v1/memories/lookup", {"params": {"path": "../outside.md"}}),
        ("GET", "/api/v1/memories/lookup", {"params": {"path": "_stm/../../outside.md"}}),
        ("GET", "/api/v1/memories/lookup", {"params": {"path": "/etc/passwd"}}),
        ("GET", "/api/v1/memories/lookup", {"params": {"path": ".git/config"}}),
        ("POST", "/api/v1/gc", {"json": {"dry_run": True, "skip_paths": ["../../etc/passwd"]}}),
        ("GET", "/api/v1/notes/read", {"params": {"ref": "../../etc/passwd"}}),
        ("GET", "/api/v1/notes/read", {"params": {"ref": "/etc/passwd"}}),
        ("GET", "/api/v1/notes/read", {"params": {"ref": ".obsidian/app.json"}}),
        ("GET", "/api/v1/search", {"params": {"q": "x", "folder": "../../etc"}}),
    ],
)
def test_paths_leaving_the_vault_are_refused(
    shared_daemon: Daemon, method: str, path: str, kw: dict
) -> None:
    r = shared_daemon.client().request(method, path, **kw)
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "unsafe_path"
    assert "vault" in body["detail"] or "another tool" in body["detail"]


def test_dot_dot_in_the_url_path_does_not_reach_a_file(
    shared_daemon: Daemon, tmp_path: Path
) -> None:
    """A raw `..` in the request line (clients normally collapse it) never reads outside."""
    with socket.create_connection(("127.0.0.1", shared_daemon.port)) as s:
        s.sendall(
            f"GET /api/v1/memories/..%2F..%2F..%2Fetc%2Fpasswd HTTP/1.1\r\nHost: 127.0.0.1:{shared_daemon.port}\r\n"
            f"Authorization: Bearer {shared_daemon.token}\r\nConnection: close\r\n\r\n".encode()
        )
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    status_line = raw.partition(b"\r\n")[0]
    assert status_line.split()[1] in (b"400", b"404"), status_line
    assert b"root:" not in raw


def test_body_too_large_is_413(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    huge = {"content": "x" * (2 * 1024 * 1024)}
    r = c.post("/api/v1/memories", json=huge)
    assert r.status_code == 413
    assert r.json()["error"] == "body_too_large"
    r = c.post(
        "/mcp",
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "ping",
            "params": {"pad": "x" * (2 * 1024 * 1024)},
        },
    )
    assert r.status_code == 413


def test_body_too_large_without_content_length_is_413(shared_daemon: Daemon) -> None:
    def chunks():  # streamed: chunked transfer encoding, no Content-Length to trust
        for _ in range(40):
            yield b"x" * 65536

    r = shared_daemon.client().post(
        "/api/v1/memories", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413
    assert not list(Path(shared_daemon.vault, "_stm").glob("x*"))
    # MCP's door reads the body in the SDK's own code: the same answer there
    r = shared_daemon.client().post(
        "/mcp",
        content=chunks(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    assert r.status_code == 413, r.text
    assert r.json()["error"] == "body_too_large"


def test_errors_are_json_without_stack_traces(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    for r in (
        c.get("/nowhere"),
        c.post("/api/v1/memories", content=b"{not json"),
        c.post("/api/v1/memories", json=["a list"]),
        c.put("/api/v1/memories"),
        c.get("/api/v1/memories", params={"page": "zero"}),
    ):
        body = r.json()
        assert set(body) >= {"error", "detail"}, body
        assert "Traceback" not in r.text and 'File "' not in r.text
        assert r.status_code in (404, 405, 422), r.status_code
