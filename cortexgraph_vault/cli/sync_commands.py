"""`cortexgraph-vault sync`: one memory across devices through the vault's git remote."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

Handler = Callable[["MemoryService", argparse.Namespace], Any]


def _sync(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.sync(remote=a.remote)


def register(sub: argparse._SubParsersAction) -> dict[str, Handler]:  # type: ignore[type-arg]
    c = sub.add_parser(
        "sync",
        help="record pending uses, fetch, merge memories field by field, push (git remote)",
    )
    c.add_argument(
        "--remote", metavar="NAME", help="the git remote (default: the branch's, or origin)"
    )
    return {"sync": _sync}
