"""The MCP server over one `MemoryService`: tools, prompts, resources; stdio or streamable HTTP.

`build_server(service)` is used by `cortexgraph-vault mcp` (stdio) and by the daemon, which
mounts `http_app(server, port=...)` at `/mcp`. When that app is mounted inside a larger
Starlette app, the host's lifespan must enter `server.session_manager.run()` (a mounted app's
own lifespan does not run).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, InputRequiredResult, TextContent
from pydantic import ValidationError

from cortexgraph_vault import __version__
from cortexgraph_vault.errors import ErrorFields, VaultError, error_body
from cortexgraph_vault.mcp import prompts, resources
from cortexgraph_vault.mcp.handshake import SERVER_DESCRIPTION, SERVER_NAME, SERVER_TITLE
from cortexgraph_vault.mcp.http_sessions import SessionRoom
from cortexgraph_vault.mcp.instructions import INSTRUCTIONS
from cortexgraph_vault.mcp.tool_calls import explain, tool_for
from cortexgraph_vault.operations import OPERATIONS
from cortexgraph_vault.operations.refusal import refusal

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

log = logging.getLogger("cortexgraph_vault.mcp")
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
# One person's assistants need a handful of sessions; each costs memory until it ends, and a
# client that never says goodbye must not keep one forever.
MAX_SESSIONS = 64
SESSION_IDLE_SECONDS = 600.0


class VaultMCPServer(MCPServer):
    """The SDK's server, with errors written for the model."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> CallToolResult | InputRequiredResult:
        """A refused call answers in the words every door uses (operations/refusal.py), with
        the error body REST gives (`error`, `detail`, `params`) as structured content."""
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = _root_cause(exc)
            tool = self._tool_manager.get_tool(name)
            # the SDK's own check of the arguments (a result it refused is our bug, not theirs)
            invalid = exc.__cause__ if type(exc) is ToolError else None
            if isinstance(invalid, ValidationError) and tool is not None:
                refused = refusal(tool.fn_metadata.arg_model, invalid)
                # Argument names only: the rejected values are the caller's data.
                log.info("Tool %r refused arguments: %r", name, list(refused.params))
                return _error_result(str(refused), error_body(refused))
            if isinstance(cause, VaultError):
                log.info("Tool %r failed: %r", name, str(cause))
                return _error_result(explain(cause), error_body(cause))
            if cause is exc and str(exc).startswith("Unknown tool"):
                names = sorted(t.name for t in await super().list_tools())
                text = f"Unknown tool: {name}. The tools are {', '.join(names)}."
                return _error_result(text, {"error": "unknown_tool", "detail": text})
            raise


def _root_cause(exc: BaseException) -> BaseException:
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return exc


def _error_result(text: str, structured: ErrorFields) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=dict(structured),
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
        # in the catalogue's order
        tools=[tool_for(service, op) for op in OPERATIONS.values() if op.mcp_tool],
    )
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
