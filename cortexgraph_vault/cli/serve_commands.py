"""`cortexgraph-vault serve` (the daemon, or `--demo` on the sample vault) and `token`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config

Handler = Callable[["Config", argparse.Namespace], Any]


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0-65535; 0 picks a free one)")
    return value


def run_serve(config: Config, args: argparse.Namespace) -> None:
    from cortexgraph_vault.daemon.banner import demo_banner, serve_banner
    from cortexgraph_vault.daemon.demo import prepare_demo_vault
    from cortexgraph_vault.daemon.serve import Serving, serve

    demo = None
    if args.fresh and not args.demo:
        raise InvalidArgument("--fresh only applies with --demo (it starts the demo vault over)")
    if args.demo:
        demo = prepare_demo_vault(config.fixed_now or datetime.now(UTC), fresh=args.fresh)
        config = config.with_values(vault=demo.path)

    def announce(serving: Serving) -> None:
        print(demo_banner(serving, demo) if demo else serve_banner(serving), flush=True)

    port = args.port if args.port is not None else config.port
    serve(config, port=port, host=args.host, unsafe_bind=args.unsafe_bind, announce=announce)


def run_token(config: Config, args: argparse.Namespace) -> None:
    from cortexgraph_vault.api.token import load_or_create_token, rotate_token, token_path

    if args.rotate:
        token = rotate_token()
        print(
            f"new token written to {token_path()}; clients using the old one now get 401",
            file=sys.stderr,
        )
    else:
        token = load_or_create_token()
    print(token)


run_serve.standalone = True  # type: ignore[attr-defined]
run_token.standalone = True  # type: ignore[attr-defined]


def register(sub: argparse._SubParsersAction) -> dict[str, Handler]:  # type: ignore[type-arg]
    c = sub.add_parser(
        "serve",
        help="run the daemon: REST API for the Obsidian plugin and MCP over HTTP, on 127.0.0.1",
        description="Serve the vault until Ctrl-C or SIGTERM: REST under /api/v1, MCP at /mcp, "
        "bearer token on every route (`cortexgraph-vault token`). One daemon per vault.",
    )
    # Also accepted after `serve` (the Obsidian plugin starts `serve --vault <vault>`);
    # SUPPRESS keeps a global --vault when this one is not given.
    c.add_argument("--vault", default=argparse.SUPPRESS, help="the Obsidian vault to serve")
    c.add_argument(
        "--port", type=_port, help="port on 127.0.0.1 (default 47613 or CORTEXGRAPH_PORT)"
    )
    c.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (127.0.0.1 unless --unsafe-bind)"
    )
    c.add_argument(
        "--unsafe-bind",
        action="store_true",
        help="allow --host other than 127.0.0.1 (the token is then all that protects the vault)",
    )
    c.add_argument(
        "--demo",
        action="store_true",
        help="serve a copy of the sample vault (kept in your data folder) and say how to connect",
    )
    c.add_argument("--fresh", action="store_true", help="with --demo: start from a new copy")

    c = sub.add_parser("token", help="print the daemon's bearer token (made on first use)")
    c.add_argument("--rotate", action="store_true", help="replace it; old clients get 401")
    return {"serve": run_serve, "token": run_token}
