"""CLI commands for the vault index: search everything, the link graph, the index's status.

(`reindex` and `graph --html` live with the maintenance commands.)"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.render import short, table
from cortexgraph_vault.core import wording

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


def _split(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [p.strip() for v in values for p in v.split(",") if p.strip()]


def _search_all(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.search_unified(
        a.query, tags=_split(a.tags), status=a.status, folder=a.folder, limit=a.limit,
        stm_weight=a.stm_weight, ltm_weight=a.ltm_weight, window_days=a.window_days,
        min_score=a.min_score, page=a.page, preview_length=a.preview, explain=a.explain,
        cursor=a.cursor,
    )  # fmt: skip


def _graph(s: MemoryService, a: argparse.Namespace) -> Any:
    if a.around:
        result: Any = s.graph_neighbourhood(a.around, hops=a.hops, include_scores=not a.no_scores)
    else:
        result = s.read_graph(
            status=a.status, include_scores=not a.no_scores, limit=a.limit, page=a.page,
            page_size=a.page_size, cursor=a.cursor,
            **({} if a.max_chars is None else {"max_chars": a.max_chars}),
        )  # fmt: skip
    return result if a.json else describe(result)


def _status(s: MemoryService, a: argparse.Namespace) -> Any:
    result = s.vault_status()
    return result if a.json else describe(result)


def describe(result: object) -> str:
    # here, not at the top: `--help` builds the parser without pydantic
    from cortexgraph_vault.models.graph import (
        GraphResult,
        NeighbourhoodResult,
        ReindexResult,
        VaultStatus,
    )

    if isinstance(result, GraphResult):
        st = result.stats
        lines = [
            wording.graph_stats(
                st.notes, st.memories, st.links, st.unresolved_links, st.orphans, st.tags
            ),
            table(
                [
                    (n.path, n.source, n.outgoing, n.backlinks, n.unresolved, n.score)
                    for n in result.memories
                ],
                ["path", "where", "out", "in", "unresolved", "score"],
            ),
        ]
        if result.pagination and result.pagination.has_more:
            lines.append(f"page {result.pagination.page} of {result.pagination.total_pages}")
        if result.next_cursor:
            lines.append(f"more notes follow: --cursor {result.next_cursor}")
        lines += [
            f"unresolved: {u.target} ({u.count} link{'s' if u.count != 1 else ''}) ← "
            + ", ".join(u.sources)
            for u in result.unresolved
        ]
        return "\n".join(lines)
    if isinstance(result, NeighbourhoodResult):
        rows = [(n.distance, n.path, n.source, n.backlinks) for n in result.nodes]
        head = wording.neighbourhood(result.center.path, len(result.nodes), result.hops)
        if result.truncated:
            head += " (more exist)"
        return head + "\n" + table(rows, ["hops", "path", "where", "backlinks"])
    if isinstance(result, VaultStatus):
        w, c = result.watcher, result.cache
        lines = [
            f"vault {result.vault}",
            f"notes {result.notes}; memories "
            + ", ".join(f"{k} {v}" for k, v in result.memories.items()),
            f"links {result.links} ({result.unresolved_links} unresolved); orphans "
            f"{result.orphans}; tags {result.tags}; words {result.vocabulary}",
            "watcher: "
            + (
                f"running since {w.started_at}, heartbeat {w.heartbeat_age_seconds} s ago, "
                f"{w.events} events, {w.batches} batches, {w.reconciliations} reconciliations"
                if w.running
                else "not running (this process walks the vault on each call)"
            ),
            f"cache: {c.path} ({'loaded' if c.loaded_at_start else 'built'} at start; "
            f"{wording.count(c.notes_parsed, 'note')} parsed here)",
        ]
        lines += [f"unparseable: {p.path}: {short(p.reason, 100)}" for p in result.unparseable]
        return "\n".join(lines)
    if isinstance(result, ReindexResult):
        return f"{result.message}; cache {result.cache}"
    return str(result)


def register(sub: argparse._SubParsersAction) -> dict[str, Any]:  # type: ignore[type-arg]
    c = sub.add_parser(
        "search-all", help="search memories and every other note together (search_unified)"
    )
    c.add_argument("query")
    c.add_argument("--tags", action="append", help="comma-separated; a parent tag finds children")
    c.add_argument("--status", choices=["active", "promoted", "archived", "note", "all"])
    c.add_argument("--folder", help="only notes under this folder")
    c.add_argument("--limit", type=int, default=10)
    c.add_argument("--stm-weight", type=float, help="weight of short-term memories (0..2)")
    c.add_argument("--ltm-weight", type=float, help="weight of promoted memories and notes (0..2)")
    c.add_argument("--window-days", type=float)
    c.add_argument("--min-score", type=float)
    c.add_argument("--page", type=int)
    c.add_argument("--preview", type=int, default=300)
    c.add_argument(
        "--explain", action="store_true", help="show why each result ranks where it does"
    )
    c.add_argument("--cursor", help="continue an answer cut to its size (the --cursor it printed)")

    c = sub.add_parser("links", help="the link graph: a page of notes, or --around one note")
    c.add_argument("--status", default="active",
                   choices=["active", "promoted", "archived", "note", "all"])  # fmt: skip
    c.add_argument("--limit", type=int, default=100)
    c.add_argument("--page", type=int)
    c.add_argument("--page-size", type=int)
    c.add_argument("--around", metavar="NOTE", help="a note's neighbourhood (path, title or id)")
    c.add_argument("--hops", type=int, default=1)
    c.add_argument("--no-scores", action="store_true")
    c.add_argument("--cursor", help="continue after a page (its next_cursor)")
    c.add_argument("--max-chars", type=int,
                   help="size budget of a page in characters of JSON (default 40000)")  # fmt: skip

    sub.add_parser("status", help="index and watcher status, and every note that could not be read")
    return {"search-all": _search_all, "links": _graph, "status": _status}
