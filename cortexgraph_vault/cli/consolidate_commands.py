"""CLI commands for consolidation: `cluster`, and `consolidate` (the pipeline, or one cluster)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.render import short, table
from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.models import PipelineResult
    from cortexgraph_vault.service import MemoryService


def _cluster(s: MemoryService, a: argparse.Namespace) -> Any:
    result = s.cluster(
        threshold=a.threshold, max_cluster_size=a.max_size, find_duplicates=a.duplicates,
        duplicate_threshold=a.duplicate_threshold,
    )  # fmt: skip
    return result if a.json else describe(result)


def _consolidate(s: MemoryService, a: argparse.Namespace) -> Any:
    if a.cluster_id:
        if a.apply or a.scheduled or a.agent:
            raise InvalidArgument(
                "--cluster-id acts on one cluster: leave out --apply, --scheduled and --agent"
            )
        result: Any = s.consolidate(cluster_id=a.cluster_id, mode=a.mode)
    elif a.apply:
        if a.dry_run or a.scheduled or a.plan_out or a.agent:
            raise InvalidArgument(
                "--apply FILE applies that plan as it stands: leave out the other options"
            )
        result = s.apply_plan(a.apply)
    elif a.scheduled:
        return _scheduled(s, a)
    else:
        result = s.run_pipeline(agent=a.agent, dry_run=a.dry_run, plan_out=a.plan_out)
    return result if a.json else describe(result)


def _scheduled(s: MemoryService, a: argparse.Namespace) -> None:
    from cortexgraph_vault.pipeline.scheduler import Scheduler

    if a.interval_hours is None or a.interval_hours <= 0:
        raise InvalidArgument("--scheduled needs --interval-hours N (more than 0)")

    def report(result: PipelineResult) -> None:
        print(result.model_dump_json() if a.json else result.message, flush=True)

    scheduler = Scheduler(s, a.interval_hours, dry_run=a.dry_run, agent=a.agent, on_result=report)
    print(f"consolidating every {a.interval_hours:g} hours; Ctrl-C stops", file=sys.stderr)
    scheduler.start()
    try:
        scheduler.wait()
    except KeyboardInterrupt:
        pass
    finally:
        scheduler.stop()
    return None


def describe(result: object) -> str:
    # imported here, not at the top: `--help` builds the parser without pydantic
    from cortexgraph_vault.models import ClusterResult, ConsolidateResult, PipelineResult

    if isinstance(result, ClusterResult):
        lines = [result.message]
        if result.clusters:
            rows = [(c.id, c.size, f"{c.cohesion:.2f}", c.suggested_action,
                     short(" | ".join(c.titles), 60)) for c in result.clusters]  # fmt: skip
            lines.append(table(rows, ["cluster id", "size", "cohesion", "action", "members"]))
        if result.duplicate_pairs:
            rows = [(p.cluster_id, f"{p.similarity:.2f}", short(" | ".join(p.titles), 60))
                    for p in result.duplicate_pairs]  # fmt: skip
            lines.append(table(rows, ["cluster id", "similarity", "pair"]))
        return "\n".join(lines)
    if isinstance(result, ConsolidateResult):
        lines = [result.message]
        for r in result.results:
            lines.append(
                f"{r.action} {r.cluster_id} (cohesion {r.cohesion:.2f}): {', '.join(r.titles)}"
            )
            if r.preview and r.action == "previewed":
                lines += [f"  → {r.preview.title}: strength {r.preview.strength:g}, uses "
                          f"{r.preview.use_count}, tags {', '.join(r.preview.tags) or '-'}",
                          "", r.preview.content, ""]  # fmt: skip
            if r.new_path:
                lines.append(f"  → {r.new_path}; originals: {', '.join(r.archived.values())}")
            if r.commit:
                lines.append(f"  commit {r.commit[:10]}")
        return "\n".join(lines)
    if isinstance(result, PipelineResult):
        lines = [result.summary.rstrip(), "", result.message]
        if result.summary_path:
            lines.append(f"summary: {result.summary_path}")
        return "\n".join(lines)
    return str(result)


def register(sub: argparse._SubParsersAction) -> dict[str, Any]:  # type: ignore[type-arg]
    c = sub.add_parser("cluster", help="clusters of similar short-term memories (or duplicates)")
    c.add_argument(
        "--threshold", type=float, help="similarity that links two memories (default 0.83)"
    )
    c.add_argument("--max-size", type=int, help="largest cluster (default 12)")
    c.add_argument("--duplicates", action="store_true", help="list near-duplicate pairs instead")
    c.add_argument(
        "--duplicate-threshold", type=float, help="similarity of duplicates (default 0.88)"
    )

    c = sub.add_parser(
        "consolidate",
        help="run the consolidation pipeline (decay, cluster, merge, promote, relations)",
        description="Plan and apply the five consolidation stages. --dry-run writes the plan "
        "(JSON and a readable summary) and changes nothing; --apply FILE applies a reviewed "
        "plan exactly as it stands (delete items you do not want first).",
    )  # fmt: skip
    c.add_argument("--agent", help="run one stage: decay, cluster, merge, promote or relations")
    c.add_argument("--dry-run", action="store_true", help="only write the plan")
    c.add_argument("--plan-out", metavar="FILE", help="where to write the plan's JSON")
    c.add_argument("--apply", metavar="FILE", help="apply a plan written by --dry-run")
    c.add_argument(
        "--scheduled", action="store_true", help="run every --interval-hours until Ctrl-C"
    )
    c.add_argument("--interval-hours", type=float, help="hours between scheduled runs")
    c.add_argument("--cluster-id", help="act on one cluster from `cluster` instead")
    c.add_argument("--mode", choices=["preview", "apply", "link"], default="preview",
                   help="with --cluster-id: preview the merge, apply it, or link the members")  # fmt: skip
    return {"cluster": _cluster, "consolidate": _consolidate}
