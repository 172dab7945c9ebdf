"""`cortexgraph-vault`: the command line door. Each command is one service call.

Building the parser imports only argparse and the command modules, which import their
service, models and renderers inside the handlers: `--version` and `--help` answer before
pydantic, numpy or the MCP SDK would have loaded.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cortexgraph_vault import __version__
from cortexgraph_vault.cli.terminal import terminal_safe
from cortexgraph_vault.errors import Ambiguous, VaultError

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

Handler = Callable[["MemoryService", argparse.Namespace], Any]

# Each area registers its own subcommands; add a module here to add commands.
COMMAND_MODULES = (
    "cortexgraph_vault.cli.memory_commands",
    "cortexgraph_vault.cli.mcp_command",
    "cortexgraph_vault.cli.serve_commands",
    "cortexgraph_vault.cli.intel_commands",
    "cortexgraph_vault.cli.maintenance_commands",
    "cortexgraph_vault.cli.consolidate_commands",
    "cortexgraph_vault.cli.index_commands",
    "cortexgraph_vault.cli.sync_commands",
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cortexgraph-vault",
        description="A memory for AI assistants that forgets like a person does, kept in an Obsidian vault.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument("--vault", help="the Obsidian vault (default: $CORTEXGRAPH_VAULT)")
    p.add_argument("--json", action="store_true", help="print JSON with the MCP tools' field names")
    p.add_argument(
        "--now", help="pretend it is this ISO-8601 time (previews, tests); also CORTEXGRAPH_NOW"
    )
    p.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="override a setting, e.g. --set decay_model=exponential",
    )  # fmt: skip
    p.add_argument("-v", "--verbose", action="store_true", help="log to stderr")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    handlers: dict[str, Handler] = {}
    for name in COMMAND_MODULES:
        handlers.update(importlib.import_module(name).register(sub))
    p.set_defaults(handlers=handlers)
    return p


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    from cortexgraph_vault.config import BY_NAME

    cli: dict[str, Any] = {"vault": args.vault or getattr(args, "sub_vault", None), "now": args.now}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep or name not in BY_NAME:
            raise VaultError(f"--set {item}: expected NAME=VALUE with a known setting name")
        cli[name] = value
    return cli


def emit(result: Any, as_json: bool) -> None:
    from pydantic import BaseModel

    from cortexgraph_vault.cli.render import render

    warning = getattr(result, "warning", None)
    if isinstance(warning, str):  # on stderr, so stdout stays the result (and valid JSON)
        print(f"cortexgraph-vault: warning: {warning}", file=sys.stderr)
    if as_json:
        if isinstance(result, BaseModel):
            print(result.model_dump_json(indent=2))
        elif isinstance(result, list):
            print(
                json.dumps(
                    [r.model_dump() if isinstance(r, BaseModel) else r for r in result],
                    indent=2,
                    default=str,
                )
            )
        else:
            print(json.dumps(result, indent=2, default=str))
    else:
        print(terminal_safe(render(result)))


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    if given == ["--version"]:
        # what argparse's version action prints, without building three dozen subparsers
        print(f"cortexgraph-vault {__version__}")
        return 0
    parser = build_parser()
    args = parser.parse_args(given)
    import logging

    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not args.command:
        parser.print_help()
        return 0
    try:
        from cortexgraph_vault.config import load_config

        handler = args.handlers[args.command]
        config = load_config(_overrides(args))
        if getattr(handler, "standalone", False):
            # Commands such as `serve --demo` or `mcp` make their own vault or service.
            result = handler(config, args)
        else:
            from cortexgraph_vault.cli.progress import terminal_progress
            from cortexgraph_vault.service import MemoryService

            service = MemoryService(config, progress=terminal_progress(args.json))
            result = handler(service, args)
        if result is None:
            return 0
        emit(result, args.json)
    except Ambiguous as exc:
        print(terminal_safe(f"cortexgraph-vault: {exc}"), file=sys.stderr)
        for c in exc.candidates:
            print(terminal_safe(f"  {c}"), file=sys.stderr)
        return exc.exit_code
    except VaultError as exc:
        print(terminal_safe(f"cortexgraph-vault: {exc}"), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
