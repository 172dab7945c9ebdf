"""Running the pipeline: make a plan, and apply a plan exactly as it stands.

Applying goes stage by stage in the fixed order. Each item is checked first: every memory it
names must still exist with the status and the content hash (text, tags, entities) it had
when planned — else the item is refused and reported, and the others go on. Writes are rate
limited; each stage that changed files is one git commit whose trailers list the plan, the
stage, every item applied or refused and every memory touched.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.core import wording
from cortexgraph_vault.core.cluster import MERGE_COHESION
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument, VaultError
from cortexgraph_vault.handlers.intelligence.shown_clusters import pinned_hash
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.models import (
    ConsolidationPlan,
    ItemOutcome,
    PipelineResult,
    PlanItem,
    PlanMemory,
    StageOutcome,
)
from cortexgraph_vault.pipeline.plan import (
    STAGE_ORDER,
    STAGE_TITLES,
    plan_id,
    read_plan,
    stage_name,
    summarize,
    write_plan,
)
from cortexgraph_vault.pipeline.rate import RateLimiter
from cortexgraph_vault.pipeline.stages import STAGES, PlanContext
from cortexgraph_vault.requests.lifecycle import ApplyPlanRequest, RunPipelineRequest
from cortexgraph_vault.vault.lock import vault_key


@dataclass
class RunControls:
    """How an apply is paced and interrupted: change_lock (the service's lock that changes
    hold one at a time, taken per item so other calls interleave), sleep and stop (the scheduler's)."""

    change_lock: Callable[[], AbstractContextManager[object]] = nullcontext
    sleep: Callable[[float], object] | None = None
    stopped: Callable[[], bool] = lambda: False
    rate_limit: int | None = None
    clock: Callable[[], float] | None = None  # monotonic seconds (tests pass a fake one)


@dataclass
class _Run:
    follow: dict[str, str] = field(default_factory=dict)  # old path → new path, this run
    status_now: dict[str, str] = field(default_factory=dict)  # key → status this run gave it


def make_plan(engine: VaultEngine, stages: list[str]) -> ConsolidationPlan:
    now = engine.now()
    confidence = engine.config.relation_min_confidence
    ctx = PlanContext(engine, now, MERGE_COHESION, confidence)
    items: list[PlanItem] = []
    for name in STAGE_ORDER:
        if name in stages:
            items += STAGES[name].plan(ctx)
        elif name == "merge" and any(s in stages for s in ("promote", "relations")):
            STAGES[name].plan(ctx)  # later stages still leave alone what a merge would take
    created = format_time(now)
    cfg = engine.config
    settings = {
        "cluster_link_threshold": cfg.cluster_link_threshold,
        "cluster_max_size": cfg.cluster_max_size,
        "cohesion_threshold": MERGE_COHESION,
        "relation_min_confidence": confidence,
        "decay_model": cfg.decay_model,
    }
    return ConsolidationPlan(
        plan_id=plan_id(created, items),
        created=created,
        vault=str(engine.root),
        stages=[s for s in STAGE_ORDER if s in stages],
        settings=settings,
        items=items,
    )


def _locate(engine: VaultEngine, pm: PlanMemory, run: _Run) -> Memory | None:
    catalog = engine.catalog
    if pm.id:
        return catalog.memory_by_id(pm.id)
    note = catalog.note(run.follow.get(pm.path, pm.path))
    return note.memory if note is not None else None


def check_item(engine: VaultEngine, item: PlanItem, run: _Run) -> tuple[list[Memory], list[str]]:
    """The item's memories as they are now, and what changed since planning (empty: go)."""
    members: list[Memory] = []
    changed: list[str] = []
    for pm in item.memories:
        key = pm.id or pm.path
        m = _locate(engine, pm, run)
        if m is None:
            changed.append(f"{pm.title} ({key}) no longer exists")
            continue
        if m.status != pm.status and run.status_now.get(key) != m.status:
            changed.append(f"{pm.title} ({key}) is now {m.status}, was {pm.status}")
        elif pinned_hash(m) != pm.content_hash:
            changed.append(f"{pm.title} ({key}) was edited since planning (text, tags or entities)")
        members.append(m)
    return members, changed


def apply_plan(
    engine: VaultEngine,
    plan: ConsolidationPlan,
    controls: RunControls,
    *,
    plan_path: str | None = None,
) -> PipelineResult:
    if Path(plan.vault) != engine.root:
        raise InvalidArgument(
            f"plan {plan.plan_id} was made for the vault {plan.vault}, not {engine.root}; "
            "nothing was applied"
        )
    limiter = RateLimiter(
        controls.rate_limit or engine.config.consolidate_rate_limit,
        clock=controls.clock or time.monotonic,
        sleep=controls.sleep or time.sleep,
        stopped=controls.stopped,
    )
    run = _Run()
    outcomes: list[ItemOutcome] = []
    stages: list[StageOutcome] = []
    stopped = False
    for name in STAGE_ORDER:
        items = [i for i in plan.items if i.stage == name]
        if not items:
            continue
        with controls.change_lock():
            engine.fresh()  # edits a person made meanwhile are seen by the checks
        stage = STAGES[name]
        done: list[ItemOutcome] = []
        touched: list[str] = []
        for item in items:
            keys = [pm.id or pm.path for pm in item.memories]
            outcome = ItemOutcome(
                item_id=item.id,
                stage=name,
                action=item.action,
                outcome="applied",
                reason="",
                memory_ids=keys,
            )
            done.append(outcome)  # its outcome is settled below
            stopped = stopped or controls.stopped()
            if not stopped:
                with controls.change_lock():
                    members, changed = check_item(engine, item, run)
                if changed:
                    outcome.outcome, outcome.reason = "refused", "; ".join(changed)
                    continue
                stopped = stage.writes and not limiter.acquire()
            if stopped:
                outcome.outcome, outcome.reason = "deferred", "the run was stopped first"
                continue
            try:
                with controls.change_lock():
                    applied = stage.apply(engine, item, members)
            except VaultError as exc:
                outcome.outcome, outcome.reason = "failed", str(exc)
                continue
            outcome.outcome = "applied" if stage.writes else "reported"
            outcome.reason, outcome.new_memory_id = applied.note, applied.new_memory_id
            run.follow.update(applied.follow)
            for pm in item.memories:
                m = _locate(engine, pm, run)
                if m is not None:
                    run.status_now[pm.id or pm.path] = m.status
            touched += applied.touched
        commit = None
        if touched:
            with controls.change_lock():
                commit = engine.commit(sorted(set(touched)), stage_message(plan, name, done))
        outcomes += done
        stages.append(
            StageOutcome(
                stage=name,
                applied=sum(o.outcome in ("applied", "reported") for o in done),
                refused=sum(o.outcome == "refused" for o in done),
                failed=sum(o.outcome == "failed" for o in done),
                commit=commit,
            )
        )
    counts = {
        k: sum(o.outcome == k for o in outcomes)
        for k in ("applied", "reported", "refused", "failed", "deferred")
    }
    message = ", ".join(f"{v} {k}" for k, v in counts.items() if v) or "the plan has no items"
    return PipelineResult(
        dry_run=False,
        plan_id=plan.plan_id,
        plan_path=plan_path,
        items=len(plan.items),
        summary=applied_summary(plan, outcomes, stages),
        outcomes=outcomes,
        stages=stages,
        message=f"plan {plan.plan_id}: {message}",
    )


def stage_message(plan: ConsolidationPlan, stage: str, done: list[ItemOutcome]) -> str:
    applied = [o for o in done if o.outcome == "applied"]
    refused = [o for o in done if o.outcome in ("refused", "failed")]
    lines = [f"- {o.action} {', '.join(o.memory_ids)}: {o.reason}" for o in applied]
    lines += [f"- refused {o.item_id}: {o.reason}" for o in refused]
    ids = list(dict.fromkeys(k for o in applied for k in o.memory_ids))
    ids += [o.new_memory_id for o in applied if o.new_memory_id]
    extra = [f"Cortexgraph-Plan: {plan.plan_id}", f"Cortexgraph-Stage: {stage}"]
    extra += [f"Cortexgraph-Item: {o.item_id}" for o in applied]
    extra += [f"Cortexgraph-Refused: {o.item_id}" for o in refused]
    return (
        wording.stage_applied_subject(STAGE_TITLES[stage], len(applied), plan.plan_id)
        + "\n\n"
        + "\n".join(lines)
        + "\n\n"
        + trailers(f"consolidate-{stage}", ids)
        + "\n"
        + "\n".join(extra)
    )


def applied_summary(
    plan: ConsolidationPlan, outcomes: list[ItemOutcome], stages: list[StageOutcome]
) -> str:
    lines = [f"Applied plan {plan.plan_id}"]
    for s in stages:
        commit = f", commit {s.commit[:10]}" if s.commit else ""
        lines.append(
            f"{STAGE_TITLES[s.stage]}: {s.applied} done, {s.refused} refused, {s.failed} failed{commit}"
        )
        lines += [
            f"  - {o.outcome} {o.item_id}: {o.reason}" for o in outcomes if o.stage == s.stage
        ]
    return "\n".join(lines) + "\n"


def controls_of(engine: VaultEngine, rate_limit: int | None = None) -> RunControls:
    """An apply that takes the engine's change lock per item, paced at `rate_limit`."""
    return RunControls(change_lock=lambda: engine.change_lock, rate_limit=rate_limit)


def run_pipeline(
    engine: VaultEngine, req: RunPipelineRequest, controls: RunControls | None = None
) -> PipelineResult:
    """Make a plan and write it (JSON and summary); unless dry_run, apply it at once.
    `controls`: how the caller paces and stops it (the scheduler's); by default the engine's
    change lock per item and the request's rate limit."""
    controls = controls or controls_of(engine, req.rate_limit)
    agent = req.agent
    stages = [stage_name(agent)] if agent and agent.strip().lower() != "all" else STAGE_ORDER
    with controls.change_lock():
        plan = make_plan(engine, list(stages))
    path = req.plan_out.expanduser() if req.plan_out else None
    path = path or user_cache_dir() / "plans" / vault_key(engine.root) / f"{plan.plan_id}.json"
    summary = write_plan(plan, path)
    if req.dry_run:
        return PipelineResult(
            dry_run=True,
            plan_id=plan.plan_id,
            plan_path=str(path),
            summary_path=str(summary),
            items=len(plan.items),
            summary=summarize(plan),
            message=wording.plan_written(len(plan.items), str(path)),
        )
    result = apply_plan(engine, plan, controls, plan_path=str(path))
    result.summary_path = str(summary)
    return result


def apply_plan_file(
    engine: VaultEngine, req: ApplyPlanRequest, controls: RunControls | None = None
) -> PipelineResult:
    """Apply a reviewed plan file: exactly its items; changed memories are refused."""
    plan = read_plan(req.plan_file.expanduser())
    controls = controls or controls_of(engine, req.rate_limit)
    return apply_plan(engine, plan, controls, plan_path=str(req.plan_file))
