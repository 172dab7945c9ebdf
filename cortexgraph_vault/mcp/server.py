"""The MCP server over one `MemoryService`: tools, prompts, resources; stdio or streamable HTTP.

`build_server(service)` is used by `cortexgraph-vault mcp` (stdio) and by the daemon, which
mounts `http_app(server, port=...)` at `/mcp`. When that app is mounted inside a larger
Starlette app, the host's lifespan must enter `server.session_manager.run()` (a mounted app's
own lifespan does not run).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, InputRequiredResult, TextContent, Tool
from pydantic import ValidationError

from cortexgraph_vault import __version__
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.mcp import prompts, resources
from cortexgraph_vault.mcp.arguments import explain_arguments
from cortexgraph_vault.mcp.handshake import SERVER_DESCRIPTION, SERVER_NAME, SERVER_TITLE
from cortexgraph_vault.mcp.http_sessions import SessionRoom
from cortexgraph_vault.mcp.instructions import INSTRUCTIONS
from cortexgraph_vault.mcp.tool_calls import (
    ToolRegistry,
    error_body,
    result_shape,
    without_arguments,
    without_titles,
)
from cortexgraph_vault.mcp.tools import register_all

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

log = logging.getLogger("cortexgraph_vault.mcp")
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
# One person's assistants need a handful of sessions; each costs memory until it ends, and a
# client that never says goodbye must not keep one forever.
MAX_SESSIONS = 64
SESSION_IDLE_SECONDS = 600.0


class VaultMCPServer(MCPServer):
    """The SDK's server, with errors written for the model and a leaner tool list."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unlisted: dict[str, frozenset[str]] = {}  # each tool's arguments kept off the list

    async def list_tools(self) -> list[Tool]:
        # Schema titles repeat the property names ("top_k" → "Top K"): bytes every session
        # pays for in context and no model needs.
        return [
            tool.model_copy(
                update={
                    "input_schema": without_titles(
                        without_arguments(
                            tool.input_schema, self.unlisted.get(tool.name, frozenset())
                        )
                    ),
                    "output_schema": result_shape(tool.output_schema)
                    if tool.output_schema is not None
                    else None,
                }
            )
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> CallToolResult | InputRequiredResult:
        """A rejected call answers with one readable sentence per bad argument, and the same
        as structured content (`error`, `problems`) for clients; a VaultError with its code."""
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = _root_cause(exc)
            if isinstance(cause, ValidationError):
                listed = {t.name: t for t in await super().list_tools()}
                schema = listed[name].input_schema if name in listed else {}
                text, problems = explain_arguments(name, cause, schema)
                structured = {"error": "invalid_arguments", "tool": name, "problems": problems}
                # Argument names only: the rejected values are the caller's data.
                log.info("Tool %r rejected arguments: %r", name, [p["argument"] for p in problems])
                return _error_result(text, structured)
            if isinstance(cause, VaultError):
                log.info("Tool %r failed: %r", name, str(exc))
                return _error_result(str(exc), error_body(cause))
            if cause is exc and str(exc).startswith("Unknown tool"):
                names = sorted(t.name for t in await super().list_tools())
                text = f"Unknown tool: {name}. The tools are {', '.join(names)}."
                return _error_result(text, {"error": "unknown_tool", "detail": text})
            raise


def _root_cause(exc: BaseException) -> BaseException:
    seen = exc
    while seen.__cause__ is not None:
        seen = seen.__cause__
    return seen


def _error_result(text: str, structured: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=structured,
        is_error=True,
    )


def build_server(service: MemoryService) -> MCPServer:
    server = VaultMCPServer(
        name=SERVER_NAME,
        title=SERVER_TITLE,
        description=SERVER_DESCRIPTION,
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    registry = ToolRegistry(server, service)
    register_all(registry)
    server.unlisted.update(registry.unlisted)
    prompts.register(server)
    resources.register(server, service)
    return server


def transport_security(
    port: int | None = None, allowed_origins: Sequence[str] = ()
) -> TransportSecuritySettings:
    """Host must be this machine (DNS rebinding), bare or with our port, the rule REST
    follows; an Origin, when sent, must be one allowed."""
    suffix = f":{port}" if port else ":*"
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*LOOPBACK_NAMES, *(name + suffix for name in LOOPBACK_NAMES)],
        allowed_origins=list(allowed_origins),
    )


def http_app(
    server: MCPServer,
    *,
    port: int | None = None,
    path: str = "/mcp",
    allowed_origins: Sequence[str] = (),
    max_sessions: int = MAX_SESSIONS,
    session_idle_seconds: float = SESSION_IDLE_SECONDS,
) -> SessionRoom:
    """The streamable-HTTP app serving `server` at `path`, for 127.0.0.1 only; at most
    `max_sessions` open at once, each closed after `session_idle_seconds` idle, and the least
    recently used one ended when a new client needs the room (`http_sessions.py`)."""
    app = server.streamable_http_app(
        streamable_http_path=path,
        transport_security=transport_security(port, allowed_origins),
        host="127.0.0.1",
        max_sessions=max_sessions,
        session_idle_timeout=session_idle_seconds,
    )
    return SessionRoom(app, max_sessions=max_sessions, idle_seconds=session_idle_seconds)


def serve_lines(service: MemoryService, lines: Any, out: Any) -> None:
    """Serve one session over explicit streams: `lines` yields the client's lines
    (`async for`), `out` takes each message (`await out.write(text)`). The caller keeps
    stdout clean (mcp.stdio_front)."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(service)

    async def run() -> None:
        async with stdio_server(stdin=lines, stdout=out) as (read, write):
            # what MCPServer.run_stdio_async does, over these streams
            low = server._lowlevel_server
            await low.run(read, write, low.create_initialization_options())

    anyio.run(run)


def run_stdio(service: MemoryService) -> None:
    """Serve over stdin/stdout until the client closes stdin. Only protocol goes to stdout:
    while serving, the SDK points file descriptor 1 at stderr for everything else."""
    with contextlib.redirect_stdout(sys.stderr):
        server = build_server(service)
    server.run("stdio")
