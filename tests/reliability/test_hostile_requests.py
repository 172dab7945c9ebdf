"""Scenario 5b — hostile requests: random and malformed MCP tool arguments (in-memory client)
and REST bodies, paths and query strings (the real daemon on 127.0.0.1).

Never an internal error (MCP "Error executing tool X" with no reason; HTTP 5xx), and never a
write when the answer is an error or the tool only reads: the vault (files, git HEAD and
index) hashes the same before and after. Schema-driven fuzzing of every REST operation is
tests/api/test_schemathesis.py; this adds bodies no schema describes (broken JSON, bytes that
are not UTF-8, deep nesting, huge numbers, wrong content types) and refs that try to escape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from cortexgraph_vault.mcp import build_server
from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import Daemon, start_daemon
from tests.conftest import examples
from tests.mcp.mcp_session import service_for, text_of
from tests.reliability.vault_audit import fingerprint

SAMPLE_IDS = ("Prefers TypeScript", "Uses Neovim", "Curious about Rust")
PATHS = ("../../etc/passwd", "/etc/passwd", "..\\..\\x", "_stm/../../x.md", ".git/config",
         "%2e%2e/x", "\x00", "_stm/Prefers TypeScript.md", "C:\\Windows", "~/x", "a" * 5000)  # fmt: skip

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(), st.text(max_size=30), st.sampled_from([*SAMPLE_IDS, *PATHS, ""]),
)  # fmt: skip
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
), max_leaves=12)  # fmt: skip


def settings_for(soak: bool) -> settings:
    return settings(
        max_examples=3000 if soak else examples(300), deadline=None, derandomize=not soak,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )  # fmt: skip


@pytest.fixture
def mcp_client(tmp_path: Path) -> Iterator[tuple[BlockingPortal, Client, Path]]:
    vault = git_sample_vault(tmp_path / "vault")
    service = service_for(vault)
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(build_server(service))) as client,
    ):
        yield portal, client, vault


def test_random_mcp_tool_arguments_never_crash_and_errors_never_write(
    mcp_client: tuple[BlockingPortal, Client, Path], soak: bool, figures: dict[str, object]
) -> None:
    portal, client, vault = mcp_client
    tools = {t.name: t for t in portal.call(client.list_tools).tools}
    seen = {"calls": 0, "errors": 0}

    @settings_for(soak)
    @given(st.data())
    def call(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from([*sorted(tools), "no_such_tool"]))
        known = list((tools[name].input_schema.get("properties") or {}) if name in tools else {})
        keys = (
            st.one_of(st.sampled_from(known), st.text(max_size=8)) if known else st.text(max_size=8)
        )
        args = data.draw(st.dictionaries(keys, values, max_size=5))
        before = fingerprint(vault)
        result = portal.call(client.call_tool, name, args)
        text = text_of(result)
        assert text.strip() != f"Error executing tool {name}", f"internal error: {name}({args!r})"
        assert "Traceback" not in text
        seen["calls"] += 1
        if result.is_error or (name in tools and tools[name].annotations.read_only_hint):
            seen["errors"] += result.is_error
            assert fingerprint(vault) == before, f"{name}({args!r}) wrote: {text[:300]}"

    call()
    figures.update(**seen, internal_errors=0, writes_on_error=0)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    base = tmp_path_factory.mktemp("hostile-daemon")
    d = start_daemon(base / "home", git_sample_vault(base / "vault"))
    yield d
    assert d.stop() == 0
    assert "Traceback" not in d.err, d.err[-3000:]


WRITE_ROUTES = ("POST /api/v1/memories", "PATCH /api/v1/memories/{ref}", "POST /api/v1/observe",
                "DELETE /api/v1/memories/{ref}", "POST /api/v1/memories/{ref}/touch",
                "POST /api/v1/memories/{ref}/promote", "POST /api/v1/promote", "POST /api/v1/gc",
                "POST /api/v1/memories/{ref}/restore", "POST /api/v1/analyze")  # fmt: skip
READ_ROUTES = ("GET /api/v1/memories", "GET /api/v1/memories/{ref}", "GET /api/v1/search",
               "GET /api/v1/memories/lookup", "GET /api/v1/graph/neighbourhood",
               "GET /api/v1/memories/{ref}/history", "GET /api/v1/forgotten")  # fmt: skip
RAW_BODIES = (b"{", b'{"content": "x"', b"\xff\xfe{}", b"[" * 100_000 + b"]" * 100_000,
              b'{"content": 1e999999}', b'{"content": NaN}', b'{"a": 1, "a": 2}', b"null",
              b'"just a string"', b"\x00" * 64, b'{"content": "\\ud800"}',
              b'{"memory_ids": [' + b'"x",' * 50_000 + b'"x"]}')  # fmt: skip
CONTENT_TYPES = ("application/json", "text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", "application/json; charset=latin-1", "")  # fmt: skip


@st.composite
def hostile_requests(draw: st.DrawFn) -> tuple[str, str, dict, bytes | None, str]:
    method, route = draw(st.sampled_from(WRITE_ROUTES + READ_ROUTES)).split(" ")
    ref = draw(st.one_of(st.sampled_from([*SAMPLE_IDS, *PATHS]), st.text(min_size=1, max_size=20)))
    path = route.replace("{ref}", quote(ref, safe=""))
    params = draw(st.dictionaries(
        st.sampled_from(["q", "path", "status", "page", "page_size", "limit", "mode", "hops",
                         "tags", "sort", "expected_hash", "zzz"]),
        st.one_of(st.text(max_size=20), st.sampled_from(PATHS), st.integers().map(str)), max_size=3,
    ))  # fmt: skip
    if method == "GET":
        return method, path, params, None, "application/json"
    body = draw(st.one_of(st.sampled_from(RAW_BODIES),
                          values.map(lambda v: json.dumps(v).encode())))  # fmt: skip
    return method, path, params, body, draw(st.sampled_from(CONTENT_TYPES))


def test_hostile_rest_requests_never_5xx_and_errors_never_write(
    daemon: Daemon, soak: bool, figures: dict[str, object]
) -> None:
    assert daemon.vault is not None
    client = daemon.client()
    statuses: dict[int, int] = {}

    @settings_for(soak)
    @given(hostile_requests())
    def send(request: tuple[str, str, dict, bytes | None, str]) -> None:
        method, path, params, body, content_type = request
        before = fingerprint(daemon.vault)  # type: ignore[arg-type]
        headers = {"Content-Type": content_type} if content_type else {}
        try:
            r = client.request(method, path, params=params, content=body, headers=headers)
        except httpx.InvalidURL:
            return  # the client refuses to send it; nothing reached the daemon
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert r.status_code < 500, (
            f"{method} {path} {params} {body!r:.200} → {r.status_code} {r.text[:300]}"
        )
        if r.status_code >= 400:
            assert "error" in r.json(), r.text[:300]
        if r.status_code >= 400 or method == "GET":
            assert fingerprint(daemon.vault) == before, f"{method} {path} wrote ({r.status_code})"  # type: ignore[arg-type]

    send()
    figures.update(requests=sum(statuses.values()), statuses=dict(sorted(statuses.items())),
                   server_errors=0, writes_on_error=0)  # fmt: skip


@pytest.mark.parametrize("body", RAW_BODIES, ids=lambda b: repr(b[:16]))
def test_each_broken_body_is_a_422_naming_the_body(daemon: Daemon, body: bytes) -> None:
    assert daemon.vault is not None
    before = fingerprint(daemon.vault)
    for route in ("/api/v1/memories", "/api/v1/observe", "/api/v1/gc"):
        r = daemon.client().post(route, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 422, (route, r.status_code, r.text[:300])
        # the body as a whole (not JSON, not an object) or the argument of it refused
        assert re.match(r"(body|[\w\[\]]+): ", r.json()["detail"]), r.text[:300]
        assert r.json()["error"] == "invalid_argument", r.text[:300]
    assert fingerprint(daemon.vault) == before
