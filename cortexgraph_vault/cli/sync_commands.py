"""`cortexgraph-vault sync`: one memory across devices through the vault's git remote."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

Handler = Callable[["MemoryService", argparse.Namespace], Any]


def _sync(s: MemoryService, a: argparse.Namespace) -> Any:
    # Steps go to stderr on a terminal only: a script's --json stdout stays one document.
    def say(step: str) -> None:
        print(f"{step}…", file=sys.stderr, flush=True)

    return s.sync(remote=a.remote, progress=say if sys.stderr.isatty() or a.progress else None)


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
