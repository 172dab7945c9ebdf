"""CLI commands for consolidation: `cluster`, and `consolidate` (the pipeline, or one cluster)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, runs
from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.cli.operation_calls import Operations
    from cortexgraph_vault.models import PipelineResult
    from cortexgraph_vault.service import MemoryService


def _consolidate(ops: Operations, r: Request) -> Any:
    p = r.params
    if p["cluster_id"]:
        if p["apply"] or p["scheduled"] or p["agent"]:
            raise InvalidArgument(
                "--cluster-id acts on one cluster: leave out --apply, --scheduled and --agent"
            )
        return ops.run("consolidate_memories", {"cluster_id": p["cluster_id"], "mode": p["mode"]})
    # The pipeline reads and writes plan files: always in this process.
    if p["apply"]:
        if p["dry_run"] or p["scheduled"] or p["plan_out"] or p["agent"]:
            raise InvalidArgument(
                "--apply FILE applies that plan as it stands: leave out the other options"
            )
        return ops.local.run("apply_plan", {"plan_file": p["apply"]})
    if p["scheduled"]:
        return _scheduled(ops.local.service(), r)
    asked = {"agent": p["agent"], "dry_run": p["dry_run"], "plan_out": p["plan_out"]}
    return ops.local.run("run_pipeline", asked)


def _scheduled(s: MemoryService, r: Request) -> None:
    from cortexgraph_vault.cli.text_layout import terminal_safe
    from cortexgraph_vault.pipeline.scheduler import Scheduler

    hours = r.params["interval_hours"]
    if hours is None or hours <= 0:
        raise InvalidArgument("--scheduled needs --interval-hours N (more than 0)")

    def report(result: PipelineResult) -> None:
        # one line per run, not the whole summary: a log a person can follow
        text = result.model_dump_json() if r.as_json else terminal_safe(result.message)
        print(text, flush=True)

    scheduler = Scheduler(
        s.engine, hours, dry_run=r.params["dry_run"], agent=r.params["agent"], on_result=report
    )
    print(f"consolidating every {hours:g} hours; Ctrl-C stops", file=sys.stderr)
    scheduler.start()
    try:
        scheduler.wait()
    except KeyboardInterrupt:
        pass
    finally:
        scheduler.stop()
    return None


COMMANDS = (
    runs(
        "cluster",
        "clusters of similar short-term memories (or duplicates)",
        "cluster_memories",
        Arg("--threshold", "similarity that links two memories (default 0.83)", type=float),
        Arg("--max-size", "largest cluster (default 12)", param="max_cluster_size", type=int),
        Arg(
            "--duplicates",
            "list near-duplicate pairs instead",
            param="find_duplicates",
            flag=True,
        ),
        Arg("--duplicate-threshold", "similarity of duplicates (default 0.88)", type=float),
    ),
    Command(
        "consolidate",
        "run the consolidation pipeline (decay, cluster, merge, promote, relations)",
        _consolidate,
        operation="consolidate_memories",
        also=("run_pipeline", "apply_plan"),
        description="Plan and apply the five consolidation stages. --dry-run writes the plan "
        "(JSON and a readable summary) and changes nothing; --apply FILE applies a reviewed "
        "plan exactly as it stands (delete items you do not want first).",
        args=(
            Arg("--agent", "run one stage: decay, cluster, merge, promote or relations"),
            Arg("--dry-run", "only write the plan", flag=True),
            Arg("--plan-out", "where to write the plan's JSON", type=Path, metavar="FILE"),
            Arg("--apply", "apply a plan written by --dry-run", local=True, metavar="FILE"),
            Arg("--scheduled", "run every --interval-hours until Ctrl-C", flag=True, local=True),
            Arg("--interval-hours", "hours between scheduled runs", type=float, local=True),
            Arg("--cluster-id", "act on one cluster from `cluster` instead"),
            Arg(
                "--mode",
                "with --cluster-id: preview the merge, apply it, or link the members",
                choices=["preview", "apply", "link"],
                default="preview",
            ),
        ),
    ),
)
