"""`cortexgraph-vault mcp`: the stdio MCP server for Claude Desktop, Claude Code and other clients.

Its own engine and watcher over the vault; safe beside the daemon and other such processes
(the vault lock and compare-before-replace keep every write). Only protocol goes to stdout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.cli.command import Command, Request

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config


def run_mcp(config: Config, r: Request) -> None:
    # The handshake is answered before the SDK and the index have loaded (mcp.stdio_front).
    from cortexgraph_vault.mcp.stdio_front import serve

    serve(config)


COMMANDS = (
    Command(
        "mcp",
        "run the MCP server over stdio (Claude Desktop, Claude Code)",
        on_config=run_mcp,
        description="Serve the memory tools over stdin/stdout until the client disconnects. "
        "Logs go to stderr (-v for more).",
    ),
)
