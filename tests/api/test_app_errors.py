"""Error mapping of the ASGI app, in process: a bug is a 500 with a sentence, never a trace."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from cortexgraph_vault.errors import (
    Conflict,
    NoteFormatError,
    SecretRefused,
    error_code,
)
from cortexgraph_vault.operations.operation import AnyOperation
from cortexgraph_vault.requests import Request
from cortexgraph_vault.service import MemoryService
from tests.api.asgi_client import asgi_client

pytestmark = pytest.mark.anyio
PORT = 47613


def client(service: MemoryService) -> httpx.AsyncClient:
    return asgi_client(service, PORT)


def fails_on(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch, name: str, error: Exception
) -> None:
    """The operation `name` raises `error` when the service runs it; the others run."""
    real = service.run

    def run(operation: AnyOperation, request: Request) -> Any:
        if operation.name == name:
            raise error
        return real(operation, request)

    monkeypatch.setattr(service, "run", run)


async def test_an_unexpected_failure_is_a_500_sentence_and_a_logged_trace(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fails_on(
        service, monkeypatch, "list_memories", RuntimeError("secret internals /home/someone/.ssh")
    )
    with caplog.at_level(logging.ERROR, logger="cortexgraph_vault.api"):
        async with client(service) as c:
            r = await c.get("/api/v1/memories")
    assert r.status_code == 500
    assert r.json() == {
        "error": "internal_error",
        "detail": "the daemon failed unexpectedly; its log (stderr) has the details",
    }
    assert ".ssh" not in r.text and "Traceback" not in r.text
    assert "RuntimeError" in caplog.text  # the trace is in the daemon's log instead


async def test_a_service_error_keeps_its_status_and_message(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    fails_on(
        service,
        monkeypatch,
        "update_memory",
        Conflict("_stm/x.md", "a" * 64, "b" * 64, "the text now"),
    )
    async with client(service) as c:
        r = await c.patch("/api/v1/memories/x", json={"content": "new"})
    assert r.status_code == 409
    assert r.json() == {
        "error": "conflict",
        "detail": str(Conflict("_stm/x.md", "a" * 64, "b" * 64)),
        "expected_hash": "a" * 64,
        "actual_hash": "b" * 64,
        "current_text": "the text now",
    }


def test_error_codes_are_the_class_names() -> None:
    assert error_code(SecretRefused("x")) == "secret_refused"
    assert error_code(NoteFormatError("x")) == "note_format_error"


async def test_an_integer_of_thousands_of_digits_is_a_422_naming_the_body(
    service: MemoryService,
) -> None:
    async with client(service) as c:
        raw = b'{"content": "x", "strength": ' + b"9" * 5000 + b"}"
        answer = await c.post(
            "/api/v1/memories", content=raw, headers={"Content-Type": "application/json"}
        )
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith("body: not valid JSON")


async def test_an_error_about_a_huge_body_stays_small(service: MemoryService) -> None:
    unknown = {f"unknown_key_{i:06d}_" + "k" * 30: i for i in range(14_000)}  # 0.9 MB
    async with client(service) as c:
        answer = await c.post("/api/v1/memories", json={"content": "x", **unknown})
    assert answer.status_code == 422
    assert len(answer.content) < 4096, len(answer.content)
    detail = answer.json()["detail"]
    assert detail.startswith("unknown_key_000000_") and "; and 13990 more." in detail


async def test_routing_answers_keep_their_order_and_words(service: MemoryService) -> None:
    async with client(service) as c:
        # `lookup` is a route of its own, before `{ref}`: the order of the routes holds
        found = await c.get(
            "/api/v1/memories/lookup", params={"path": "_stm/Prefers TypeScript.md"}
        )
        one = await c.get("/api/v1/memories/Works at Kestrel Labs")
        wrong_method = await c.put("/api/v1/memories")
        unknown = await c.get("/api/v1/nothing-here")
        head = await c.head("/health")
        missing = await c.get("/api/v1/memories/no-such-memory-anywhere")
        bad_body = await c.post(
            "/api/v1/memories", content=b"{not json", headers={"Content-Type": "application/json"}
        )
    assert found.status_code == 200 and found.json()["path"] == "_stm/Prefers TypeScript.md"
    assert one.status_code == 200 and one.json()["status"] == "promoted"
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {
        "error": "method_not_allowed",
        "detail": "PUT is not allowed on /api/v1/memories",
    }
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"
    assert head.status_code == 200 and head.content == b""
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert bad_body.status_code == 422 and "not valid JSON" in bad_body.json()["detail"]
