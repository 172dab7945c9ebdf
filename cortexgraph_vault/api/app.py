"""The daemon's ASGI app: REST under /api/v1 and MCP streamable HTTP at /mcp, over one service.

Both doors share the service (and so the catalogue, the lock and the clock), and both sit
behind `LocalOnly` (token, Host, Origin, body limit, no CORS).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING

import anyio.to_thread
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import ASGIApp

from cortexgraph_vault.api.endpoints import RestThreads, starlette_route
from cortexgraph_vault.api.errors import EXCEPTION_HANDLERS
from cortexgraph_vault.api.mcp_door import McpDoor
from cortexgraph_vault.api.read_processes import ReadProcesses
from cortexgraph_vault.api.routes import rest_endpoints
from cortexgraph_vault.api.security import ALLOWED_ORIGINS, LocalOnly, allowed_hosts
from cortexgraph_vault.api.token import TokenSource

if TYPE_CHECKING:
    from cortexgraph_vault.pipeline.scheduler import Scheduler
    from cortexgraph_vault.service import MemoryService

MCP_PATH = "/mcp"


def build_app(
    service: MemoryService,
    *,
    port: int,
    token: TokenSource,
    extra_hosts: Iterable[str] = (),
    watch: bool = True,
    read_processes: int = 0,
) -> ASGIApp:
    """`port` is the one actually bound: Host headers are checked against it;
    `read_processes`: how many processes answer searches and listings beside this one."""
    hosts = allowed_hosts(port, extra_hosts)
    mcp_door = McpDoor(service, port=port, path=MCP_PATH, allowed_origins=ALLOWED_ORIGINS)
    elsewhere = ReadProcesses(service, read_processes) if read_processes else None
    threads = RestThreads(elsewhere)  # one pool of reads and one of changes for every route
    routes = [starlette_route(e, service, threads) for e in rest_endpoints()]
    # The MCP app routes by the full path itself; handing it /mcp keeps the URL clients are
    # told (no redirect to /mcp/ as a Mount would need).
    routes.append(Route(MCP_PATH, endpoint=mcp_door, name="mcp"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if watch:
            await anyio.to_thread.run_sync(service.engine.start_watcher)
        # made from the start, behind whatever comes (its read processes take them once
        # made), not at the first search
        service.engine.catalog.meaning.fill_behind()
        scheduler = consolidation_scheduler(service)
        if elsewhere is not None:
            await elsewhere.start()
        try:
            # A mounted app's own lifespan never runs; the MCP sessions live in ours.
            async with mcp_door.running():
                yield
        finally:
            if elsewhere is not None:
                await elsewhere.stop()
            if scheduler is not None:
                await anyio.to_thread.run_sync(scheduler.stop)
            if watch:
                await anyio.to_thread.run_sync(service.engine.stop_watcher)

    app = Starlette(routes=routes, exception_handlers=EXCEPTION_HANDLERS, lifespan=lifespan)
    return LocalOnly(app, hosts=hosts, token_matches=token.matches)


def consolidation_scheduler(service: MemoryService) -> Scheduler | None:
    """The consolidation pipeline on an interval, when `consolidate_interval_hours` asks for it."""
    hours = service.config.consolidate_interval_hours
    if not hours:
        return None
    from cortexgraph_vault.pipeline.scheduler import Scheduler

    scheduler = Scheduler(service.engine, hours, run_at_start=False)
    scheduler.start()
    return scheduler
