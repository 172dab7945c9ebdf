"""`cortexgraph-vault sync`: one memory across devices through the vault's git remote."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from cortexgraph_vault.history.transfer import TransferLine
    from cortexgraph_vault.service import MemoryService

Handler = Callable[["MemoryService", argparse.Namespace], Any]


def _sync(s: MemoryService, a: argparse.Namespace) -> Any:
    # Steps go to stderr on a terminal (or with --progress): a script's --json stdout stays
    # one document. Git's transfer lines are drawn over one another on a terminal only.
    from cortexgraph_vault.history.transfer import TransferLine

    terminal = sys.stderr.isatty()
    transfer = TransferShown(sys.stderr) if terminal and not getattr(a, "json", False) else None

    def say(step: str) -> None:
        if isinstance(step, TransferLine):
            if transfer is not None:
                transfer.show(step)
            return
        if transfer is not None:
            transfer.end()
        print(f"{step}…", file=sys.stderr, flush=True)

    try:
        return s.sync(remote=a.remote, progress=say if terminal or a.progress else None)
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


def register(sub: argparse._SubParsersAction) -> dict[str, Handler]:  # type: ignore[type-arg]
    c = sub.add_parser(
        "sync",
        help="record pending uses, fetch, merge memories field by field, push (git remote)",
    )
    c.add_argument(
        "--remote", metavar="NAME", help="the git remote (default: the branch's, or origin)"
    )
    c.add_argument(
        "--progress", action="store_true", help="print each step on stderr (default on a terminal)"
    )
    return {"sync": _sync}
