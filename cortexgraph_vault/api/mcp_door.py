"""The daemon's MCP door at /mcp, built when its first request comes.

The MCP SDK and the tools' metadata are most of what a daemon imports and builds at start,
and a daemon serving the Obsidian plugin may never be asked over MCP: they are imported and
built, in a worker thread, by the first request to /mcp, which waits for them. From then on
the SDK's session manager runs in a task of the daemon's lifespan (`running`), where the
SDK wants it, and ends with it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
from anyio.abc import TaskGroup, TaskStatus
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cortexgraph_vault.api.errors import body_too_large
from cortexgraph_vault.api.security import BodyTooLarge

if TYPE_CHECKING:
    from mcp.server import MCPServer

    from cortexgraph_vault.service import MemoryService


class McpDoor:
    """An ASGI app that builds the MCP server of `service` and its streamable-HTTP app at
    the first request, then hands every request to them."""

    def __init__(
        self,
        service: MemoryService,
        *,
        port: int,
        path: str,
        allowed_origins: Sequence[str],
    ) -> None:
        self._build: Callable[[], tuple[MCPServer, ASGIApp]] = lambda: _built(
            service, port, path, allowed_origins
        )
        self._app: ASGIApp | None = None
        self._building = anyio.Lock()
        self._tasks: TaskGroup | None = None
        self._ending = anyio.Event()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """For the app's lifespan: MCP sessions can be opened while inside, and every one
        is ended on the way out."""
        async with anyio.create_task_group() as tasks:
            self._tasks = tasks
            try:
                yield
            finally:
                self._tasks = None
                self._ending.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = self._app or await self._first()
        if scope["method"] == "POST":
            # The SDK reads the body inside an app of its own, whose error handler answers a
            # body past the cap with a bare 500: read it here, where a 413 can still be said.
            try:
                receive = await _whole_body(receive)
            except BodyTooLarge:
                await body_too_large()(scope, receive, send)
                return
        await app(scope, receive, send)

    async def _first(self) -> ASGIApp:
        async with self._building:
            if self._app is None:
                if self._tasks is None:
                    raise RuntimeError("the MCP door answers only inside the app's lifespan")
                server, app = await anyio.to_thread.run_sync(self._build)
                await self._tasks.start(_keep_sessions, server, self._ending)
                self._app = app
            return self._app


async def _whole_body(receive: Receive) -> Receive:
    """A receive that hands the app the whole body (read at once, within the cap) and then
    whatever the client sends next (its disconnect)."""
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            message = {"type": "http.request", "body": b"".join(parts), "more_body": False}
            break
    first: list[Message] = [message]

    async def replayed() -> Message:
        return first.pop() if first else await receive()

    return replayed


async def _keep_sessions(
    server: MCPServer, ending: anyio.Event, *, task_status: TaskStatus[None]
) -> None:
    async with server.session_manager.run():
        task_status.started()
        await ending.wait()


def _built(
    service: MemoryService, port: int, path: str, allowed_origins: Sequence[str]
) -> tuple[MCPServer, ASGIApp]:
    from cortexgraph_vault.mcp.server import build_server, http_app

    server = build_server(service)
    return server, http_app(server, port=port, path=path, allowed_origins=allowed_origins)
