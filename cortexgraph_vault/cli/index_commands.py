"""CLI commands for the vault index: search everything, the link graph, the index's status.

(`reindex` and `graph --html` live with the maintenance commands.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, operation_command
from cortexgraph_vault.cli.memory_commands import CURSOR, TAGS

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
    operation_command(
        "search-all",
        "search memories and every other note together (search_unified)",
        "search_unified",
        args=(
            Arg("query"),
            Arg(
                "--tags", many=True, metavar="TAG", help=f"{TAGS.help}; a parent tag finds children"
            ),
            Arg("--status", choices=STATUSES),
            Arg("--folder", help="only notes under this folder"),
            Arg("--limit", type=int, default=10),
            Arg("--stm-weight", type=float, help="weight of short-term memories (0..2)"),
            Arg("--ltm-weight", type=float, help="weight of promoted memories and notes (0..2)"),
            Arg("--window-days", type=float),
            Arg("--min-score", type=float),
            Arg("--page", type=int),
            Arg("--preview", param="preview_length", type=int, default=300),
            Arg("--explain", flag=True, help="show why each result ranks where it does"),
            CURSOR,
        ),
    ),
    Command(
        "links",
        "the link graph: a page of notes, or --around one note",
        _links,
        needs="operations",
        operation="read_graph",
        also=("graph_neighbourhood",),
        args=(
            Arg("--status", default="active", choices=STATUSES),
            Arg("--limit", type=int, default=100),
            Arg("--page", type=int),
            Arg("--page-size", type=int),
            Arg(
                "--around",
                param="path",
                metavar="NOTE",
                help="a note's neighbourhood (path, title or id)",
            ),
            Arg("--hops", type=int, default=1),
            Arg("--no-scores", param="include_scores", flag=True, negate=True),
            Arg("--cursor", help="continue after a page (its next_cursor)"),
            Arg(
                "--max-chars",
                type=int,
                help="size budget of a page in characters of JSON (default 40000)",
            ),
        ),
    ),
    operation_command(
        "status",
        "index and watcher status, and every note that could not be read",
        "vault_status",
        # the state of this process's index and watcher, as it always was (the daemon's own
        # differs: its watcher runs); `doctor` checks the daemon
        through_daemon=False,
    ),
)
