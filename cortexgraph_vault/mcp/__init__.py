"""The MCP door: every memory tool over stdio (`cortexgraph-vault mcp`) or streamable HTTP.

The SDK loads on first use of these names, not on import of the package: the stdio server
answers `initialize` (mcp.handshake) while the SDK is still loading.
"""

from __future__ import annotations

from cortexgraph_vault.deferred_import import package_names

__all__ = ["build_server", "http_app", "transport_security"]
__getattr__ = package_names(__name__, dict.fromkeys(__all__, "server"))
