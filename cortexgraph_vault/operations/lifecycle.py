"""Operations that end a memory's short-term life: forget (gc), promote, cluster, consolidate,
the consolidation pipeline, and the snapshot of uses."""

from __future__ import annotations

from inspect import cleandoc
from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
from cortexgraph_vault.models import (
    ClusterResult,
    ConsolidateResult,
    GcResult,
    PipelineResult,
    PromoteResult,
    SnapshotResult,
)
from cortexgraph_vault.operations.operation import (
    ONE_MEMORY,
    ONE_MEMORY_ERRORS,
    Effect,
    Operation,
    Rest,
    declared_in,
    without_request,
)
from cortexgraph_vault.requests import NoArguments
from cortexgraph_vault.requests.lifecycle import (
    ApplyPlanRequest,
    ClusterMemoriesRequest,
    ConsolidateMemoriesRequest,
    GcRequest,
    PromoteMemoryRequest,
    RunPipelineRequest,
)

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.intelligence import consolidate
    from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle
    from cortexgraph_vault.pipeline import runner
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    consolidate = deferred_functions("cortexgraph_vault.handlers.intelligence.consolidate")
    lifecycle = deferred_functions("cortexgraph_vault.handlers.lifecycle.gc_and_promotion")
    runner = deferred_functions("cortexgraph_vault.pipeline.runner")

GC = Operation(
    name="gc",
    title="Forget faded memories",
    description=cleandoc("""
        Forget faded short-term memories. Preview first (dry_run, the default) and ask the user
        before a real run: one git commit; restore_memory brings any back.
    """),
    request=GcRequest,
    result=GcResult,
    effect=Effect.DESTRUCTIVE,
    invoke=lifecycle.gc,
    unlisted=frozenset({"skip_paths"}),
    rest=(
        Rest(
            "POST",
            "/api/v1/gc",
            "Forget faded memories (preview by default)",
            tag="lifecycle",
            errors=(400, 422, 503),
            body="Gc",
            description="`dry_run` (default true) lists what would be forgotten and why. A run "
            "is one git\ncommit; `skip_paths` (files open in editor tabs) are left alone.",
        ),
    ),
)

PROMOTE_MEMORY = Operation(
    name="promote_memory",
    title="Promote memories",
    description=cleandoc("""
        Keep memories that proved their worth (used again and scoring high, or used often within
        two weeks): moved from _stm/ to the long-term folder, where they no longer fade. dry_run first.
    """),
    request=PromoteMemoryRequest,
    result=PromoteResult,
    effect=Effect.WRITE,
    invoke=lifecycle.promote,
    rest=(
        Rest(
            "POST",
            ONE_MEMORY + "/promote",
            "Promote one memory",
            tag="lifecycle",
            errors=ONE_MEMORY_ERRORS,
            fixed={"auto_detect": False},
            body="PromoteOne",
            description="Moves it to the long-term folder if the rules ask for it (or `force`); "
            "`dry_run`\nonly says what would happen.",
        ),
        Rest(
            "POST",
            "/api/v1/promote",
            "Promote every candidate",
            name="promote_all",
            tag="lifecycle",
            errors=(422, 503),
            body="PromoteAll",
            fixed={"memory_id": None, "auto_detect": True, "force": False},
        ),
    ),
)

CLUSTER_MEMORIES = Operation(
    name="cluster_memories",
    title="Find clusters of similar memories",
    description=cleandoc("""
        Group similar short-term memories (or find duplicates); pass a cluster id to
        consolidate_memories (ids are stable).
    """),
    request=ClusterMemoriesRequest,
    result=ClusterResult,
    effect=Effect.READ,
    invoke=consolidate.cluster_memories,
)

CONSOLIDATE_MEMORIES = Operation(
    name="consolidate_memories",
    title="Consolidate a cluster",
    description="Merge a cluster into one memory (preview first); the originals are archived, never lost.",
    request=ConsolidateMemoriesRequest,
    result=ConsolidateResult,
    effect=Effect.DESTRUCTIVE,
    invoke=consolidate.consolidate,
)

RUN_PIPELINE = Operation(
    name="run_pipeline",
    title="Run the consolidation pipeline",
    description=cleandoc("""
        Plan the five consolidation stages (or one) and write the plan (JSON and a readable
        summary); unless dry_run, apply it, an item at a time.
    """),
    request=RunPipelineRequest,
    result=PipelineResult,
    effect=Effect.DESTRUCTIVE,
    invoke=runner.run_pipeline,
    mcp_tool=False,
    locks_per_item=True,
)

APPLY_PLAN = Operation(
    name="apply_plan",
    title="Apply a consolidation plan",
    description="Apply a reviewed plan file exactly as it stands; memories changed since are refused.",
    request=ApplyPlanRequest,
    result=PipelineResult,
    effect=Effect.DESTRUCTIVE,
    invoke=runner.apply_plan_file,
    mcp_tool=False,
    locks_per_item=True,
)

SNAPSHOT = Operation(
    name="snapshot",
    title="Commit the uses gathered",
    description="Commit the reinforcements (touches, observes) gathered since the last snapshot.",
    request=NoArguments,
    result=SnapshotResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=without_request(lifecycle.snapshot),
    mcp_tool=False,
)

OPERATIONS = declared_in(vars())
