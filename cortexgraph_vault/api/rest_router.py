"""The REST routes reached without Starlette's stack of middleware and router per request.

Starlette's error middleware, exception middleware, router (a `Route.matches` per route
tried, each building a scope) and endpoint wrapper cost every request time on the event
loop's thread, which every request passes. Here a request is matched against the same routes,
in the same order, with their own compiled patterns, and its handler is called directly;
failures are turned into answers by the same handlers (errors.py), with the same split:
a known error (a VaultError, a body too large) is answered by its handler; anything else
gets the 500 answer and is raised on to the server's log, as Starlette's error middleware
does.

Whatever does not fully match a REST route (HEAD, a wrong method, an unknown path, MCP,
the lifespan) goes to the Starlette app, which answers it as it always did.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

Handler = Callable[[Request, Exception], Awaitable[Response]]


class RestRouter:
    """ASGI: `routes` (plain REST routes, in the app's order) first, then `app`."""

    def __init__(
        self,
        app: ASGIApp,
        routes: Sequence[Route],
        handlers: Mapping[Any, Callable[..., Awaitable[Response]]],
    ) -> None:
        self.app = app
        self._routes = [
            (
                route.path_regex.match,
                route.param_convertors,
                frozenset((route.methods or set()) - {"HEAD"}),
                route.endpoint,
            )
            for route in routes
        ]
        # As Starlette splits them: `Exception` answers whatever no other handler knows,
        # and the error is then raised on (logged by the server).
        self._known = {
            k: v for k, v in handlers.items() if isinstance(k, type) and k is not Exception
        }
        self._last: Handler | None = handlers.get(Exception)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("root_path") or scope["method"] == "HEAD":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        for match, convertors, methods, endpoint in self._routes:
            found = match(path)
            if found is None or method not in methods:
                continue
            params = {k: convertors[k].convert(v) for k, v in found.groupdict().items()}
            scope["path_params"] = {**scope.get("path_params", {}), **params}
            scope["endpoint"] = endpoint
            await self._answer(endpoint, scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _answer(self, endpoint: Any, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive, send)
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            response = await endpoint(request)
            await response(scope, receive, sending)
        except Exception as exc:
            handler = self._handler_for(exc)
            if started or handler is None:
                raise
            await (await handler(request, exc))(scope, receive, send)
            if handler is self._last:
                raise

    def _handler_for(self, exc: Exception) -> Handler | None:
        for cls in type(exc).__mro__:
            if cls in self._known:
                return self._known[cls]
        return self._last
