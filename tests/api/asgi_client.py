"""The REST app called in this process (no server, no port opened), as a client sees it."""

from __future__ import annotations

import httpx

from cortexgraph_vault.api.app import build_app
from cortexgraph_vault.api.token import TokenSource
from cortexgraph_vault.service import MemoryService


def asgi_client(service: MemoryService, port: int) -> httpx.AsyncClient:
    """A client of `service`'s app with a valid token; `port` is the one the app believes it
    serves (its Host and Origin checks name it)."""
    token = TokenSource()
    app = build_app(service, port=port, token=token, watch=False)
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
        base_url=f"http://127.0.0.1:{port}",
        headers={"Authorization": f"Bearer {token.current()}"},
    )
