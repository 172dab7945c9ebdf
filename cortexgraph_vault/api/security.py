"""What keeps the daemon to this machine and its owner, for every route, MCP too.

Checked in this order, before any route runs:
1. Host must be 127.0.0.1 or localhost (with our port, if a port is given) → else 421. A web
   page that rebinds its own DNS name to 127.0.0.1 still sends its own name as Host.
2. An Origin, when present, must be the Obsidian app → else 403. Browsers always send Origin on
   cross-site requests, so no web page gets through.
3. `Authorization: Bearer <token>` (constant-time compare) on everything but `GET /health`
   → else 401 with `WWW-Authenticate: Bearer`. Never a token in the query string.
4. The request body is capped → else 413, counted as it arrives, so a lying or missing
   Content-Length does not help.
No CORS headers are ever sent: the plugin's `requestUrl` does not need them, and any that a
mounted app adds are stripped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cortexgraph_vault.errors import ConfigError

ALLOWED_ORIGINS = ("app://obsidian.md",)
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
MAX_BODY_BYTES = 1024 * 1024
PUBLIC_ROUTES = frozenset({("GET", "/health"), ("HEAD", "/health")})


def allowed_hosts(port: int, extra: Iterable[str] = ()) -> list[str]:
    """Host header values we answer to: the loopback names, bare or with our port."""
    names = [*LOOPBACK_NAMES, *extra]
    return [*names, *(f"{n}:{port}" for n in names)]


class BodyTooLarge(Exception):
    pass


Refusal = tuple[int, bytes, list[tuple[bytes, bytes]]]


def _refused(status: int, code: str, detail: str, *headers: tuple[bytes, bytes]) -> Refusal:
    return status, json.dumps({"error": code, "detail": detail}).encode(), list(headers)


class LocalOnly:
    """ASGI middleware applying the four checks; see the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str],
        token_matches: Callable[[str], bool],
        origins: Iterable[str] = ALLOWED_ORIGINS,
        max_body: int = MAX_BODY_BYTES,
    ) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.origins = frozenset(origins)
        self.token_matches = token_matches
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        try:
            refusal = self._refusal(scope, headers)
        except ConfigError as exc:  # the token file holds garbage: say which file, and the fix
            refusal = _refused(503, "token_unreadable", str(exc))
        if refusal is not None:
            await _respond(send, *refusal)
            return
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _respond(send, *self._too_large())
            return
        # past the cap, the app's handler of BodyTooLarge answers 413 (api/errors.py)
        await self.app(scope, self._capped(receive), _without_cors(send))

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> Refusal | None:
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            return _refused(
                421,
                "misdirected_request",
                f"Host {host or '(none)'!r} is not served here; use http://127.0.0.1 "
                "with the daemon's port",
            )
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return _refused(
                403,
                "forbidden_origin",
                f"Origin {origin!r} may not call this API; only the Obsidian app may",
            )
        if (scope["method"], scope["path"]) in PUBLIC_ROUTES:
            return None
        scheme, _, presented = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not presented or not self.token_matches(presented.strip()):
            return _refused(
                401,
                "unauthorized",
                f"bearer token {'wrong' if presented else 'missing'}: send 'Authorization: "
                "Bearer <token>'; `cortexgraph-vault token` prints it",
                (b"www-authenticate", b'Bearer realm="cortexgraph-vault"'),
            )
        return None

    def _too_large(self) -> Refusal:
        return _refused(
            413,
            "body_too_large",
            f"request body larger than {self.max_body} bytes; send less at once",
        )

    def _capped(self, receive: Receive) -> Receive:
        seen = 0
        limit = self.max_body

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge()
            return message

        return capped


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope["headers"]:
        name = key.decode("latin-1").lower()
        # A repeated Host/Origin/Authorization is suspicious; the first one decides, and
        # a second differing one cannot sneak past because only the first is trusted.
        out.setdefault(name, value.decode("latin-1"))
    return out


def _without_cors(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {
                **message,
                "headers": [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if not k.lower().startswith(b"access-control-")
                ],
            }
        await send(message)

    return sending


async def _respond(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
