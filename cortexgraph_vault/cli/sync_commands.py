"""`cortexgraph-vault sync`: one memory across devices through the vault's git remote."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from cortexgraph_vault.cli.command import Arg, Command, Request

if TYPE_CHECKING:
    from cortexgraph_vault.cli.operation_calls import Operations
    from cortexgraph_vault.progress import TransferLine


def _sync(ops: Operations, r: Request) -> Any:
    # Steps go to stderr on a terminal (or with --progress): a script's --json stdout stays
    # one document. Git's transfer lines are drawn over one another on a terminal only.
    from cortexgraph_vault.progress import TransferLine, steps_to

    terminal = sys.stderr.isatty()
    transfer = TransferShown(sys.stderr) if terminal and not r.as_json else None

    def say(step: str) -> None:
        if isinstance(step, TransferLine):
            if transfer is not None:
                transfer.show(step)
            return
        if transfer is not None:
            transfer.end()
        print(f"{step}…", file=sys.stderr, flush=True)

    shown = terminal or r.params["progress"]
    try:  # here, where its steps can be shown
        with steps_to(say if shown else None):
            return ops.local.run("sync_vault", {"remote": r.params["remote"]})
    finally:
        if transfer is not None:
            transfer.end()


class TransferShown:
    """Git's progress for a long fetch or push, one line redrawn in place."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.open = False

    def show(self, line: TransferLine) -> None:
        self.stream.write(f"\r  {line}\x1b[K")
        self.stream.flush()
        self.open = True

    def end(self) -> None:
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False


COMMANDS = (
    Command(
        "sync",
        "record pending uses, fetch, merge memories field by field, push (git remote)",
        _sync,
        operation="sync_vault",
        args=(
            Arg("--remote", "the git remote (default: the branch's, or origin)", metavar="NAME"),
            Arg(
                "--progress",
                "print each step on stderr (default on a terminal)",
                flag=True,
                local=True,
            ),
        ),
    ),
)
