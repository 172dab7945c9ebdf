"""`cortexgraph-vault mcp`: the stdio MCP server for Claude Desktop, Claude Code and other clients.

Its own engine and watcher over the vault; safe beside the daemon and other such processes
(the vault lock and compare-before-replace keep every write). Only protocol goes to stdout.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config

Handler = Callable[["Config", argparse.Namespace], Any]


def run_mcp(config: Config, args: argparse.Namespace) -> None:
    # The handshake is answered before the SDK and the index have loaded (mcp.stdio_front).
    from cortexgraph_vault.mcp.stdio_front import serve

    serve(config)


run_mcp.standalone = True  # type: ignore[attr-defined]


def register(sub: argparse._SubParsersAction) -> dict[str, Handler]:  # type: ignore[type-arg]
    p = sub.add_parser(
        "mcp",
        help="run the MCP server over stdio (Claude Desktop, Claude Code)",
        description="Serve the memory tools over stdin/stdout until the client disconnects. "
        "Logs go to stderr (-v for more).",
    )
    # Client configs often put options after the command: `mcp --vault PATH`.
    p.add_argument(
        "--vault", dest="sub_vault", help="the Obsidian vault (same as the global --vault)"
    )
    return {"mcp": run_mcp}
