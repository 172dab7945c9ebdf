"""Human output of the index commands: the link graph, a neighbourhood, the index's status."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.cli.text_layout import short, table
from cortexgraph_vault.core import wording

if TYPE_CHECKING:
    from cortexgraph_vault.models import (
        GraphResult,
        NeighbourhoodResult,
        ReindexResult,
        VaultStatus,
    )


def _graph_result(result: GraphResult) -> str:
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
        f"unresolved: {u.target} ({wording.count(u.count, 'link')}) ← " + ", ".join(u.sources)
        for u in result.unresolved
    ]
    return "\n".join(lines)


def _neighbourhood_result(result: NeighbourhoodResult) -> str:
    rows = [(n.distance, n.path, n.source, n.backlinks) for n in result.nodes]
    head = wording.neighbourhood(result.center.path, len(result.nodes), result.hops)
    if result.truncated:
        head += " (more exist)"
    return head + "\n" + table(rows, ["hops", "path", "where", "backlinks"])


def _vault_status(result: VaultStatus) -> str:
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


def _reindex_result(result: ReindexResult) -> str:
    return f"{result.message}; cache {result.cache}"
