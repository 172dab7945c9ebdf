"""The MCP door: every memory tool over stdio (`cortexgraph-vault mcp`) or streamable HTTP."""

from cortexgraph_vault.mcp.server import build_server, http_app, run_stdio, transport_security

__all__ = ["build_server", "http_app", "run_stdio", "transport_security"]
