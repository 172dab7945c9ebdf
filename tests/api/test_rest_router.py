"""REST requests reach their route directly (api/rest_router.py); what matches no route fully
is answered by the Starlette app as before: a wrong method, an unknown path, HEAD."""

from __future__ import annotations

import httpx
import pytest

from cortexgraph_vault.api import rest_router
from cortexgraph_vault.service import MemoryService
from tests.api.asgi_client import asgi_client

pytestmark = pytest.mark.anyio
PORT = 47614


def client(service: MemoryService) -> httpx.AsyncClient:
    return asgi_client(service, PORT)


async def test_routes_answer_directly_and_the_rest_as_before(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    direct: list[str] = []
    answer = rest_router.RestRouter._answer

    async def spy(self: rest_router.RestRouter, endpoint: object, scope: dict[str, object],
                  *rest: object) -> None:  # fmt: skip
        direct.append(f"{scope['method']} {scope['path']}")
        await answer(self, endpoint, scope, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(rest_router.RestRouter, "_answer", spy)
    async with client(service) as c:
        # `lookup` is a route of its own, before `{ref}`: the order of the routes holds
        found = await c.get(
            "/api/v1/memories/lookup", params={"path": "_stm/Prefers TypeScript.md"}
        )
        one = await c.get("/api/v1/memories/Works at Kestrel Labs")
        wrong_method = await c.put("/api/v1/memories")
        unknown = await c.get("/api/v1/nothing-here")
        head = await c.head("/health")
    assert found.status_code == 200 and found.json()["path"] == "_stm/Prefers TypeScript.md"
    assert one.status_code == 200 and one.json()["status"] == "promoted"
    assert direct == ["GET /api/v1/memories/lookup", "GET /api/v1/memories/Works at Kestrel Labs"]
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {
        "error": "method_not_allowed",
        "detail": "PUT is not allowed on /api/v1/memories",
    }
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"
    assert head.status_code == 200 and head.content == b""


async def test_a_known_error_keeps_its_answer(service: MemoryService) -> None:
    async with client(service) as c:
        missing = await c.get("/api/v1/memories/no-such-memory-anywhere")
        bad_body = await c.post(
            "/api/v1/memories", content=b"{not json", headers={"Content-Type": "application/json"}
        )
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert bad_body.status_code == 422 and "not valid JSON" in bad_body.json()["detail"]
