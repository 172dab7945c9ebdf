"""Human output of clustering and consolidation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.cli.text_layout import commit_line, short, table
from cortexgraph_vault.core import wording

if TYPE_CHECKING:
    from cortexgraph_vault.models import ClusterResult, ConsolidateResult, PipelineResult

# What to do next, in the command line's words (the result's message says it in MCP's).
ACT_ON_ONE = "`cortexgraph-vault consolidate --cluster-id ID` previews merging one"


def _cluster_result(result: ClusterResult) -> str:
    if result.find_duplicates:
        head = wording.duplicate_pairs(
            len(result.duplicate_pairs),
            result.memories_considered,
            result.duplicate_threshold or 0.0,
            then=ACT_ON_ONE,
        )
    else:
        merges = sum(1 for c in result.clusters if c.suggested_action == "merge")
        head = wording.clusters_found(
            len(result.clusters), result.memories_considered, merges, then=ACT_ON_ONE
        )
    lines = [head]
    if result.clusters:
        rows = [
            (c.id, c.size, f"{c.cohesion:.2f}", c.suggested_action, short(" | ".join(c.titles), 60))
            for c in result.clusters
        ]
        lines.append(table(rows, ["cluster id", "size", "cohesion", "action", "members"]))
    if result.duplicate_pairs:
        pairs = [
            (p.cluster_id, f"{p.similarity:.2f}", short(" | ".join(p.titles), 60))
            for p in result.duplicate_pairs
        ]
        lines.append(table(pairs, ["cluster id", "similarity", "pair"]))
    return "\n".join(lines)


def _consolidate_result(result: ConsolidateResult) -> str:
    if result.mode == "preview":
        then = "run it again with --mode apply (or --mode link)"
        lines = [wording.consolidate_preview(len(result.results), then=then)]
    else:
        lines = [result.message]
    for r in result.results:
        lines.append(
            f"{r.action} {r.cluster_id} (cohesion {r.cohesion:.2f}): {', '.join(r.titles)}"
        )
        if r.preview and r.action == "previewed":
            lines += [
                f"  → {r.preview.title}: strength {r.preview.strength:g}, uses "
                f"{r.preview.use_count}, tags {', '.join(r.preview.tags) or '-'}",
                "",
                r.preview.content,
                "",
            ]
        if r.new_path:
            lines.append(f"  → {r.new_path}; originals: {', '.join(r.archived.values())}")
        lines += [f"  {c}" for c in commit_line(r.commit)]
    return "\n".join(lines)


def _pipeline_result(result: PipelineResult) -> str:
    lines = [result.summary.rstrip(), "", result.message]
    if result.summary_path:
        lines.append(f"summary: {result.summary_path}")
    return "\n".join(lines)
