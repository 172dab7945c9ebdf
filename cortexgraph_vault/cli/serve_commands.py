"""The commands that serve the vault: `mcp` (the stdio MCP server for Claude Desktop, Claude Code
and other clients), `serve` (the daemon, or `--demo` on the sample vault) and its `token`.

`mcp` runs its own engine and watcher over the vault; it is safe beside the daemon and other
such processes (the vault lock and compare-before-replace keep every write). Only protocol goes
to stdout.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from cortexgraph_vault.cli.command import Arg, Command, Request
from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0-65535; 0 picks a free one)")
    return value


def run_mcp(config: Config, r: Request) -> None:
    # The handshake is answered before the SDK and the index have loaded (mcp.stdio_front).
    from cortexgraph_vault.mcp.stdio_front import serve

    serve(config)


def run_serve(config: Config, r: Request) -> None:
    from cortexgraph_vault.daemon.banner import demo_banner, serve_banner
    from cortexgraph_vault.daemon.demo import prepare_demo_vault
    from cortexgraph_vault.daemon.serve import Serving, serve

    p = r.params
    demo = None
    if p["fresh"] and not p["demo"]:
        raise InvalidArgument("--fresh only applies with --demo (it starts the demo vault over)")
    if p["demo"]:
        demo = prepare_demo_vault(config.fixed_now or datetime.now(UTC), fresh=p["fresh"])
        config = config.with_values(vault=demo.path)

    def announce(serving: Serving) -> None:
        print(demo_banner(serving, demo) if demo else serve_banner(serving), flush=True)

    port = p["port"] if p["port"] is not None else config.port
    serve(config, port=port, host=p["host"], unsafe_bind=p["unsafe_bind"], announce=announce)


def run_token(config: Config, r: Request) -> None:
    from cortexgraph_vault.api.token import load_or_create_token, rotate_token, token_path

    if r.params["rotate"]:
        token = rotate_token()
        print(
            f"new token written to {token_path()}; clients using the old one now get 401",
            file=sys.stderr,
        )
    else:
        token = load_or_create_token()
    print(token)


COMMANDS = (
    Command(
        "mcp",
        "run the MCP server over stdio (Claude Desktop, Claude Code)",
        on_config=run_mcp,
        description="Serve the memory tools over stdin/stdout until the client disconnects. "
        "Logs go to stderr (-v for more).",
    ),
    Command(
        "serve",
        "run the daemon: REST API for the Obsidian plugin and MCP over HTTP, on 127.0.0.1",
        on_config=run_serve,
        description="Serve the vault until Ctrl-C or SIGTERM: REST under /api/v1, MCP at /mcp, "
        "bearer token on every route (`cortexgraph-vault token`). One daemon per vault.",
        args=(
            Arg("--port", "port on 127.0.0.1 (default 47613 or CORTEXGRAPH_PORT)", type=_port),
            Arg(
                "--host",
                "address to listen on (127.0.0.1 unless --unsafe-bind)",
                default="127.0.0.1",
            ),
            Arg(
                "--unsafe-bind",
                "allow --host other than 127.0.0.1 (the token is then all that protects the vault)",
                flag=True,
            ),
            Arg(
                "--demo",
                "serve a copy of the sample vault (kept in your data folder) and say how to connect",
                flag=True,
            ),
            Arg("--fresh", "with --demo: start from a new copy", flag=True),
        ),
    ),
    Command(
        "token",
        "print the daemon's bearer token (made on first use)",
        on_config=run_token,
        args=(Arg("--rotate", "replace it; old clients get 401", flag=True),),
    ),
)
