"""The one shape of a CLI command: a `Command` record with its `Arg`s, added to argparse the same
way for every command. Each argument names the operation parameter it fills (as MCP and the
service name it: `--limit` fills `top_k`), so a handler is one service call with those
parameters, and an error about `top_k` is shown to a person as `--limit`.

Kept free of heavy imports: `--help` builds every command's parser from these records.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Arg:
    """One command-line argument and the operation parameter it fills."""

    name: str  # "--limit", or a positional's name ("query")
    help: str | None = None
    param: str = ""  # the parameter it fills (MCP and service name); default: from `name`
    type: Callable[[str], Any] | None = None
    default: Any = None
    choices: Sequence[str] | None = None
    metavar: str | None = None
    required: bool = False
    flag: bool = False  # an option without a value: True when given
    negate: bool = False  # with `flag`: False when given (`--yes` fills dry_run=False)
    const: Any = None  # an option without a value that fills `param` with this (`--remove`)
    many: bool = False  # a list: `--tags a b`, `--tags a,b` and `--tags a --tags b` alike
    split_commas: bool = True  # with `many`: False where a comma belongs to a value (paths)
    optional: bool = False  # a positional that may be left out
    # A positional of free text that takes every word given (`search deploy staging`, no
    # quotes needed), joined by single spaces.
    words: bool = False
    stdin_dash: bool = False  # "-" means: read the value from stdin
    # The command's own switch (which operation it runs, how it shows the answer), no
    # parameter of an operation: `restore --list`, `analyze --for-recall`.
    local: bool = False
    # With `local`: the operation this switch runs instead (`restore --list` runs
    # forgotten_memories), so a message naming that tool can name this command line.
    runs: str | None = None

    @property
    def positional(self) -> bool:
        return not self.name.startswith("-")

    @property
    def usage_name(self) -> str:
        return (self.metavar or self.name.upper()) if self.positional else self.name

    @property
    def dest(self) -> str:
        return self.param or self.name.lstrip("-").replace("-", "_")

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        kw: dict[str, Any] = {"help": self.help}
        if self.flag:
            kw["action"] = "store_false" if self.negate else "store_true"
            kw["default"] = self.negate
        elif self.const is not None:
            kw.update(action="store_const", const=self.const, default=self.default)
        else:
            kw.update(type=self.type, default=self.default, choices=self.choices)
            # named as the person types it (`--limit LIMIT`), not as the parameter (TOP_K)
            if self.metavar or not self.choices:  # choices show themselves: {active,promoted}
                kw["metavar"] = self.metavar or self.name.lstrip("-").replace("-", "_").upper()
            if self.words:
                kw["nargs"] = "*" if self.optional else "+"
            elif self.many:
                kw["nargs"] = "+"
                if not self.positional:
                    kw["action"] = ListOption if self.split_commas else "extend"
            elif self.optional:
                kw["nargs"] = "?"
        if self.positional:
            kw["metavar"] = self.usage_name
            parser.add_argument(self.dest, **kw)
        else:
            if self.required:
                kw["required"] = True
            parser.add_argument(self.name, dest=self.dest, **kw)

    def value(self, namespace: argparse.Namespace) -> Any:
        value = getattr(namespace, self.dest, None)
        if self.words and isinstance(value, list):
            value = " ".join(value) or None
        if self.stdin_dash and value == "-":
            return sys.stdin.read()
        return value


def number(name: str, help: str | None, default: int | None = None, *, param: str = "") -> Arg:
    """An option taking a whole number, shown as N (`--limit N`)."""
    return Arg(name, help, param=param, type=int, default=default, metavar="N")


class ListOption(argparse.Action):
    """Collects a list option's values over repeats, words and commas."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        items = list(getattr(namespace, self.dest, None) or [])
        for value in values or []:
            items += [part.strip() for part in str(value).split(",") if part.strip()]
        setattr(namespace, self.dest, items)


@dataclass(frozen=True)
class Request:
    """What a handler gets: the operation's parameters by name, and how the answer is shown."""

    params: dict[str, Any]
    as_json: bool


Handler = Callable[[Any, Request], object]


@dataclass(frozen=True)
class Command:
    """One CLI command: its name, help, arguments, and the one call it makes.

    `handler` gets a runner of the catalogue's operations (`ops.run(name, params)`: checked by
    the operation's request model, then run); without one the command runs `operation` with
    its arguments as the request. `on_config`, instead, gets only the `Config` (commands that
    must speak when the vault cannot be opened, or make their own service). `operation` is the
    MCP tool it serves, so a message naming that tool can name this command; `also` the other
    operations its handler may run (`history --at` shows memory_version). Each argument but a
    `local` one fills a parameter of one of them (tests/operations/test_catalogue.py checks
    the limits agree).
    """

    name: str  # "search"; "import cortexgraph" for a command under a group
    help: str
    handler: Handler | None = None
    args: tuple[Arg, ...] = ()
    on_config: Handler | None = None
    operation: str | None = None
    description: str | None = None
    also: tuple[str, ...] = ()
    # False: always in this process, never sent to the daemon serving the vault
    through_daemon: bool = True

    @property
    def operations(self) -> tuple[str, ...]:
        return (self.operation, *self.also) if self.operation else self.also

    def params(self, namespace: argparse.Namespace) -> dict[str, Any]:
        return {a.dest: a.value(namespace) for a in self.args}

    def flag_for(self, param: str) -> str | None:
        """How a person gives `param` to this command, as its usage line shows it: `--limit`
        for top_k, `QUERY` for a positional query; None if they cannot."""
        for a in self.args:
            if a.dest == param:
                return a.usage_name
        return None


def runs(name: str, help: str, operation: str, *args: Arg) -> Command:
    """A command that is exactly one operation, its arguments the request."""
    return Command(name, help, args=args, operation=operation)


def in_process(name: str, help: str, operation: str, *args: Arg) -> Command:
    """`runs`, always in this process."""
    return Command(name, help, args=args, operation=operation, through_daemon=False)


@dataclass(frozen=True)
class Group:
    """A command whose subcommands are `Command`s named "<group> <sub>" (`import cortexgraph`)."""

    name: str
    help: str
    metavar: str  # what the subcommand is, in usage lines ("SOURCE", "FORMAT")
