"""CLI commands for the vault index: search everything, the link graph, the index's status.

(`reindex` and `graph --html` live with the maintenance commands.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, in_process, number, runs
from cortexgraph_vault.cli.memory_commands import (
    CURSOR,
    MIN_SCORE,
    PAGE,
    PREVIEW,
    SEARCH_LIMIT,
    TAGS,
    WINDOW_DAYS,
)

if TYPE_CHECKING:
    from cortexgraph_vault.cli.operation_calls import Operations

STATUSES = ["active", "promoted", "archived", "note", "all"]


def _links(ops: Operations, r: Request) -> Any:
    p = dict(r.params)
    around, hops = p.pop("path"), p.pop("hops")
    if around:
        neighbourhood = {"path": around, "hops": hops, "include_scores": p["include_scores"]}
        return ops.run("graph_neighbourhood", neighbourhood)
    return ops.run("read_graph", p)


COMMANDS = (
    runs(
        "search-all",
        "search memories and every other note together (search_unified)",
        "search_unified",
        Arg("query", "the words to look for (quotes optional)", words=True),
        Arg("--tags", f"{TAGS.help}; a parent tag finds children", many=True, metavar="TAG"),
        Arg("--status", "which memories and notes (default: all)", choices=STATUSES),
        Arg("--folder", "only notes under this folder"),
        number("--limit", SEARCH_LIMIT.help, 10),
        Arg("--stm-weight", "weight of short-term memories (0..2)", type=float),
        Arg("--ltm-weight", "weight of promoted memories and notes (0..2)", type=float),
        WINDOW_DAYS,
        MIN_SCORE,
        PAGE,
        PREVIEW,
        Arg("--explain", "show why each result ranks where it does", flag=True),
        CURSOR,
    ),
    Command(
        "links",
        "the link graph: a page of notes, or --around one note",
        _links,
        operation="read_graph",
        also=("graph_neighbourhood",),
        args=(
            Arg(
                "--status",
                "which notes (default: active memories)",
                default="active",
                choices=STATUSES,
            ),
            number("--limit", "how many notes at most (default 100)", 100),
            PAGE,
            number("--page-size", "notes per page (default: the limit)"),
            Arg(
                "--around",
                "a note's neighbourhood (path, title or id)",
                param="path",
                metavar="NOTE",
            ),
            number("--hops", "with --around: links to follow out from the note (default 1)", 1),
            Arg(
                "--no-scores",
                "leave out the memories' live scores",
                param="include_scores",
                flag=True,
                negate=True,
            ),
            Arg("--cursor", "continue after a page (its next_cursor)"),
            Arg(
                "--max-chars",
                "size budget of a page in characters of JSON (default 40000)",
                type=int,
            ),
        ),
    ),
    in_process(
        "status", "index and watcher status, and every note that could not be read", "vault_status"
    ),
)
