"""`cortexgraph-vault sync`: one memory across devices through the vault's git remote."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


def _sync(s: MemoryService, r: Request) -> Any:
    # Steps go to stderr on a terminal only: a script's --json stdout stays one document.
    def say(step: str) -> None:
        print(f"{step}…", file=sys.stderr, flush=True)

    shown = sys.stderr.isatty() or r.params["progress"]
    return s.sync(remote=r.params["remote"], progress=say if shown else None)


COMMANDS = (
    Command(
        "sync",
        "record pending uses, fetch, merge memories field by field, push (git remote)",
        _sync,
        operation="sync_vault",
        args=(
            Arg(
                "--remote", metavar="NAME", help="the git remote (default: the branch's, or origin)"
            ),
            Arg("--progress", flag=True, help="print each step on stderr (default on a terminal)"),
        ),
    ),
)
