"""The MCP door: every memory tool over stdio (`cortexgraph-vault mcp`) or streamable HTTP.

The SDK loads on first use of these names, not on import of the package: the stdio server
answers `initialize` (mcp.handshake) while the SDK is still loading.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["build_server", "http_app", "run_stdio", "transport_security"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("cortexgraph_vault.mcp.server"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
