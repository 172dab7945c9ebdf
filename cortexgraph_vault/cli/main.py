"""`cortexgraph-vault`: the command line door. Each command is one service call.

Every command is a `Command` record (cli/command.py) declared in one of COMMAND_MODULES;
every result is shown by the one renderer keyed by its type (cli/render.py); every failure is
one line on stderr and a non-zero exit (cli/failure.py).

Building the parser imports only argparse and the command modules, which import their
service, models and renderers inside the handlers: `--version` and `--help` answer before
pydantic, numpy or the MCP SDK would have loaded.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import gc
import importlib
import os
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from cortexgraph_vault import __version__

if TYPE_CHECKING:  # imported where used: `--version` answers before anything loads
    from cortexgraph_vault.cli.command import Command, Group, Request
    from cortexgraph_vault.index.catalog.early_walk import EarlyWalk

PROG = "cortexgraph-vault"
MERGE_DRIVER = "merge-driver"
ONE_CALL_GC_THRESHOLD = 20_000  # new objects between young collections (Python's: 700)

# Each area declares its commands in a COMMANDS tuple; add a module here to add commands.
COMMAND_MODULES = (
    "cortexgraph_vault.cli.memory_commands",
    "cortexgraph_vault.cli.serve_commands",
    "cortexgraph_vault.cli.intelligence_commands",
    "cortexgraph_vault.cli.maintenance_commands",
    "cortexgraph_vault.cli.consolidate_commands",
    "cortexgraph_vault.cli.index_commands",
    "cortexgraph_vault.cli.sync_commands",
)


@functools.cache
def registry() -> tuple[Command | Group, ...]:
    """Every command and command group, in the order `--help` lists them."""
    entries: list[Command | Group] = []
    for name in COMMAND_MODULES:
        entries += importlib.import_module(name).COMMANDS
    return tuple(entries)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr (the usage is one `--help` away)."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(2)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """An option the command does not have is named in the words every door uses for an
        unknown argument, with the one probably meant (`--tagz`: did you mean --tags?)."""
        parsed, extras = self.parse_known_args(args, namespace)
        options = [token.partition("=")[0] for token in extras if token.startswith("-")]
        command: Command | None = getattr(parsed, "command_record", None)
        if not extras:
            return parsed
        if not options or command is None:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        from cortexgraph_vault.operations.refusal import sentence, unknown_argument

        known = {a.usage_name: a.help or "" for a in command.args}
        problems = [unknown_argument(option, known) for option in dict.fromkeys(options)]
        print(f"{self.prog} {command.name}: {sentence(problems, list(known))}", file=sys.stderr)
        sys.exit(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; `only`: with just that command's (or command group's) subparser, all
    a call of it needs (`given_command` says when that is safe)."""
    from cortexgraph_vault.cli.command import Group

    p = Parser(
        prog=PROG,
        description="A memory for AI assistants that forgets like a person does, kept in an Obsidian vault.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_global_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    groups: dict[str, argparse._SubParsersAction[Parser]] = {}
    for entry in registry():
        if only is not None and entry.name.split(" ", 1)[0] != only:
            continue
        if isinstance(entry, Group):
            g = sub.add_parser(entry.name, help=entry.help)
            groups[entry.name] = g.add_subparsers(
                dest=f"{entry.name}_kind", metavar=entry.metavar, required=True
            )
            continue
        group, _, leaf = entry.name.rpartition(" ")
        c = (groups[group] if group else sub).add_parser(
            leaf, help=entry.help, description=entry.description
        )
        for arg in entry.args:
            arg.add_to(c)
        add_global_options(c.add_argument_group("options of every command"), after=True)
        c.set_defaults(command_record=entry)
    return p


def add_global_options(parser: Any, *, after: bool = False) -> None:
    """The options every command takes, before its name or `after` it (`show 614b --json`).
    After it they are set only when given (SUPPRESS), so they never undo those given before;
    `--set` after the command goes to its own list, added to the first."""
    unset: dict[str, Any] = {"default": argparse.SUPPRESS} if after else {}
    parser.add_argument("--vault", help="the Obsidian vault (default: $CORTEXGRAPH_VAULT)", **unset)
    parser.add_argument(
        "--json", action="store_true", help="print JSON with the MCP tools' field names", **unset
    )
    parser.add_argument(
        "--now",
        metavar="TIME",
        help="pretend it is this ISO-8601 time (previews, tests; also CORTEXGRAPH_NOW); a "
        "command that uses or saves a memory writes this time into its note",
        **unset,
    )
    parser.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        dest="set_after" if after else "set",
        help="override a setting, e.g. --set decay_model=exponential",
        **({} if after else {"default": []}),
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="log to stderr; say who answered", **unset
    )


# The options before the command, as build_parser declares them: those that take a value
GLOBAL_VALUES = frozenset({"--vault", "--now", "--set"})
GLOBAL_FLAGS = frozenset({"--json", "-v", "--verbose"})


def given_command(argv: Sequence[str]) -> str | None:
    """The command (or command group) `argv` calls, when the options before it are spelled out
    in full: then parsing with its subparser alone is parsing with all of them. None for
    anything else (`--help`, an abbreviated option, a mistyped command), which the whole parser
    reads, and explains."""
    names = {entry.name.split(" ", 1)[0] for entry in registry()}
    i = 0
    while i < len(argv):
        token = argv[i]
        if token in GLOBAL_FLAGS:
            i += 1
        elif token in GLOBAL_VALUES:
            i += 2
        elif token.partition("=")[0] in GLOBAL_VALUES and "=" in token:
            i += 1
        else:
            return token if token in names else None
    return None


def settings_given(args: argparse.Namespace) -> list[str]:
    """Every `--set`, before the command and after it."""
    return [*args.set, *(getattr(args, "set_after", None) or [])]


def _overrides(args: argparse.Namespace) -> dict[str, str | None]:
    from cortexgraph_vault.config import BY_NAME
    from cortexgraph_vault.errors import VaultError

    cli: dict[str, str | None] = {"vault": args.vault, "now": args.now}
    for item in settings_given(args):
        name, sep, value = item.partition("=")
        if not sep or name not in BY_NAME:
            raise VaultError(f"--set {item}: expected NAME=VALUE with a known setting name")
        cli[name] = value
    return cli


def _early_walk(config: Any) -> EarlyWalk | None:
    """The vault's walk, begun now in a child process, so it goes on while the service is
    imported (index/catalog/early_walk.py); None without a vault (the service says why)."""
    from cortexgraph_vault.config import vault_root
    from cortexgraph_vault.errors import VaultError
    from cortexgraph_vault.index.catalog.early_walk import EarlyWalk

    try:
        return EarlyWalk.begin(vault_root(config))
    except VaultError:
        return None


def _service(config: Any, args: argparse.Namespace, early_walk: EarlyWalk | None) -> Any:
    from cortexgraph_vault.cli.progress import terminal_progress
    from cortexgraph_vault.service import MemoryService

    # One product of a few thousand vectors by the query's: OpenBLAS's threads would start
    # and spin for it longer than it takes. Read when numpy loads, later in this call; a
    # person's own setting is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # one command per process: it reads the vault as the start's walk found it
    progress = terminal_progress(args.json, min_items=config.progress_min_items)
    return MemoryService(config, progress=progress, one_call=True, early_walk=early_walk)


def _call(
    command: Command,
    request: Request,
    config: Any,
    args: argparse.Namespace,
    walk: EarlyWalk | None,
) -> object:
    """The command's call: through the daemon serving the vault, or on a service opened here
    (which takes the vault's `walk` begun already)."""
    from cortexgraph_vault.cli.daemon_calls import ThroughDaemon, daemon_for
    from cortexgraph_vault.cli.operation_calls import InProcess, Operations

    alone = InProcess(lambda: _service(config, args, walk))
    ops: Operations = alone
    daemon = (
        daemon_for(config, overridden=bool(settings_given(args)))
        if command.through_daemon
        else None
    )
    if daemon is not None:  # the daemon serving this vault answers from its warm index
        if walk is not None:
            walk.leave()
        ops = ThroughDaemon(*daemon, local=alone)
    if command.handler is not None:
        return command.handler(ops, request)
    return ops.run(command.operation or "", request.params)


def run(command: Command, args: argparse.Namespace) -> int:
    from cortexgraph_vault.cli.command import Request
    from cortexgraph_vault.cli.render import emit, shortfall
    from cortexgraph_vault.config import load_config

    request = Request(command.params(args), args.json)
    config = load_config(_overrides(args))
    if command.on_config is not None:
        # Commands such as `serve --demo`, `mcp` or `doctor` make their own vault or service.
        result = command.on_config(config, request)
    else:
        from cortexgraph_vault.cli.daemon_calls import daemon_may_answer

        served = command.through_daemon and daemon_may_answer(
            config, overridden=bool(settings_given(args))
        )
        walk = None if served else _early_walk(config)
        try:
            result = _call(command, request, config, args, walk)
        finally:
            if walk is not None:
                walk.leave()  # not taken: no service was opened in this process
    if result is None:
        return 0
    emit(result, args.json)
    missing = shortfall(result)
    if missing is not None:
        raise missing
    return 0


def main(argv: Sequence[str] | None = None, *, exits: bool = False) -> int:
    """`exits`: the process ends after this call (`entry`), so what a one-call command builds
    and keeps is frozen, not walked by the collector (index/gc_pause.py)."""
    given = sys.argv[1:] if argv is None else list(argv)
    if given == ["--version"]:
        # what argparse's version action prints, without building three dozen subparsers
        print(f"{PROG} {__version__}")
        return 0
    if given[:1] == [MERGE_DRIVER] and not {"-h", "--help"} & set(given):
        # git runs it once per note of a merge: the driver alone, no parser, no settings
        from cortexgraph_vault.merge_driver import main as merge

        return merge(given[1:])
    parser = build_parser(given_command(given))
    args = parser.parse_args(given)
    import logging

    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    command: Command | None = getattr(args, "command_record", None)
    if command is None:
        parser.print_help()
        return 0
    threshold = gc.get_threshold()
    if command.on_config is None:  # one call, then out (servers and the doctor excepted)
        # The collector would otherwise run a hundred and fifty times over a read's imports
        # and decoded notes, which all live until the end: a few dozen times is enough to
        # bound what a long command (gc, import) leaves unreachable.
        gc.set_threshold(ONE_CALL_GC_THRESHOLD, *threshold[1:])
        if exits:
            from cortexgraph_vault.index.gc_pause import freeze_on_resume

            freeze_on_resume(True)
    try:
        return run(command, args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # every failure: one line on stderr, a non-zero exit
        from cortexgraph_vault.cli.failure import report

        return report(exc, command, registry(), verbose=args.verbose)
    finally:
        gc.set_threshold(*threshold)  # `main` called in a process that goes on (tests)
        if exits and command.on_config is None:
            from cortexgraph_vault.index.gc_pause import freeze_on_resume

            freeze_on_resume(False)  # what the exit itself makes is not frozen


PLUGIN_LOADER = "pydantic.plugin._loader"


def without_plugin_search() -> None:
    """With every pydantic plugin disabled, pydantic's plugin loader is one that finds none:
    the real one imports importlib.metadata to look among the entry points first, then answers
    none as well. A loader already imported is kept."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") != "__all__" or PLUGIN_LOADER in sys.modules:
        return
    import types

    loader = types.ModuleType(PLUGIN_LOADER, "pydantic's plugin loader, all plugins disabled")
    loader.__dict__["get_plugins"] = tuple  # what the real one answers then: no plugins
    sys.modules[PLUGIN_LOADER] = loader


def entry() -> NoReturn:
    """The `cortexgraph-vault` program: `main`, then out without taking the interpreter apart.

    A read of a big vault leaves a heap of notes that the interpreter would free one object at
    a time at exit, for a process that ends anyway. What a normal exit does that matters is
    done first: threads still working (a cache being written) are waited for, `atexit`
    handlers run (worker pools, logging), and the output is flushed (a failed flush is exit
    status 120, as Python gives it).

    pydantic's plugins are looked for among every installed package's entry points at its first
    model: the program runs without them unless PYDANTIC_DISABLE_PLUGINS is set otherwise
    (empty: look for them).
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    without_plugin_search()
    code = main(exits=True)
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


if __name__ == "__main__":
    entry()
