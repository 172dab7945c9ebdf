"""Every failure of a command as one line on stderr and an exit code.

The service's errors are worded for MCP: a parameter by its MCP name (`pass force`), another
operation by its tool name (`search with search_memory`). The error says which words those are
(`VaultError.params`, `.operations`); here they become what a person types: `--force`,
`cortexgraph-vault search`. An error about one parameter starts with its name (`limit: must
be from 1 to 100`), which becomes the command's flag (`--limit: ...`).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable

from cortexgraph_vault.cli.command import Command, Group
from cortexgraph_vault.cli.text_layout import terminal_safe
from cortexgraph_vault.errors import Ambiguous, VaultError

PROG = "cortexgraph-vault"


def _whole_word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")


def _replace_last(text: str, word: str, by: str) -> str:
    """`word`'s last mention: a hint about a parameter comes after any text quoted from a note
    (which could hold the same word)."""
    found = list(_whole_word(word).finditer(text))
    if not found:
        return text
    m = found[-1]
    return text[: m.start()] + by + text[m.end() :]


def cli_wording(
    exc: VaultError, command: Command | None, entries: Iterable[Command | Group] = ()
) -> str:
    """The error's message in the CLI's words, on one line."""
    text = " ".join(str(exc).split())
    if isinstance(exc, Ambiguous) and exc.candidates:
        text += ": " + "; ".join(" ".join(c.split()) for c in exc.candidates)
    if command is not None:
        for param in exc.params:
            flag = command.flag_for(param)
            if flag:
                text = _replace_last(text, param, flag)
        head = re.match(r"(\w+): ", text)
        flag = command.flag_for(head.group(1)) if head else None
        if head and flag:
            text = flag + text[len(head.group(1)) :]
    return commands_for_tools(text, entries, exc.operations)


def commands_for_tools(
    text: str, entries: Iterable[Command | Group], tools: Iterable[str] | None = None
) -> str:
    """`text` (our own words, never a note's) with MCP tool names as the commands that run
    them: "restore_memory brings one back" → "`cortexgraph-vault restore` brings one back".
    `tools`: only these (an error's `operations`); None: every tool a command serves."""
    by_operation: dict[str, str] = {}
    for e in entries:
        if isinstance(e, Command):
            by_operation |= {a.runs: f"{e.name} {a.name}" for a in e.args if a.runs}
            if e.operation:
                by_operation[e.operation] = e.name
    for operation in by_operation if tools is None else tools:
        if operation in by_operation and "_" in operation:
            # every mention: a tool's snake_case name is no word of a sentence
            text = _whole_word(operation).sub(f"`{PROG} {by_operation[operation]}`", text)
    return text


def report(
    exc: Exception,
    command: Command | None,
    entries: Iterable[Command | Group] = (),
    *,
    verbose: bool = False,
) -> int:
    """Say `exc` on stderr in one line; the exit code that goes with it."""
    if isinstance(exc, VaultError):
        line, code = cli_wording(exc, command, entries), exc.exit_code
    elif isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        line, code = f"{where}{exc.strerror or exc}", 1
    else:
        # a bug of ours: still one line, and the traceback for whoever asks with -v
        if verbose:
            logging.getLogger("cortexgraph_vault.cli").error("traceback", exc_info=exc)
        hint = "" if verbose else " (run with -v for the traceback)"
        line, code = f"unexpected {type(exc).__name__}: {exc}{hint}", 1
    print(terminal_safe(f"{PROG}: {' '.join(line.split())}"), file=sys.stderr)
    return code
