"""Operations that end a memory's short-term life: forget (gc), promote, cluster, consolidate,
the consolidation pipeline, and the snapshot of uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import ONE_MEMORY, Effect, Rest, declared_in, operation
from cortexgraph_vault.requests import NoArguments

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import (
        ClusterResult,
        ConsolidateResult,
        GcResult,
        PipelineResult,
        PromoteResult,
        SnapshotResult,
    )
    from cortexgraph_vault.requests.lifecycle import (
        ApplyPlanRequest,
        ClusterMemoriesRequest,
        ConsolidateMemoriesRequest,
        GcRequest,
        PromoteMemoryRequest,
        RunPipelineRequest,
    )


@operation(
    "Forget faded memories",
    Effect.DESTRUCTIVE,
    unlisted=frozenset({"skip_paths"}),
    rest=Rest(
        "POST",
        "/api/v1/gc",
        "Forget faded memories (preview by default)",
        tag="lifecycle",
        errors=(400, 422, 503),
        description="`dry_run` (default true) lists what would be forgotten and why. A run "
        "is one git\ncommit; `skip_paths` (files open in editor tabs) are left alone.",
    ),
)
def gc(engine: VaultEngine, request: GcRequest) -> GcResult:
    """Forget faded short-term memories. Preview first (dry_run, the default) and ask the user
    before a real run: one git commit; restore_memory brings any back."""
    from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle

    return lifecycle.gc(engine, request)


@operation(
    "Promote memories",
    Effect.WRITE,
    rest=(
        Rest(
            "POST",
            ONE_MEMORY + "/promote",
            "Promote one memory",
            tag="lifecycle",
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
            fixed={"memory_id": None, "auto_detect": True, "force": False},
        ),
    ),
)
def promote_memory(engine: VaultEngine, request: PromoteMemoryRequest) -> PromoteResult:
    """Keep memories that proved their worth (used again and scoring high, or used often within
    two weeks): moved from _stm/ to the long-term folder, where they no longer fade. dry_run first."""
    from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle

    return lifecycle.promote(engine, request)


@operation("Find clusters of similar memories", Effect.READ)
def cluster_memories(engine: VaultEngine, request: ClusterMemoriesRequest) -> ClusterResult:
    """Group similar short-term memories (or find duplicates); pass a cluster id to
    consolidate_memories (ids are stable)."""
    from cortexgraph_vault.handlers.intelligence import consolidate

    return consolidate.cluster_memories(engine, request)


@operation("Consolidate a cluster", Effect.DESTRUCTIVE)
def consolidate_memories(
    engine: VaultEngine, request: ConsolidateMemoriesRequest
) -> ConsolidateResult:
    """Merge a cluster into one memory (preview first); the originals are archived, never lost."""
    from cortexgraph_vault.handlers.intelligence import consolidate

    return consolidate.consolidate(engine, request)


@operation(
    "Run the consolidation pipeline", Effect.DESTRUCTIVE, mcp_tool=False, locks_per_item=True
)
def run_pipeline(engine: VaultEngine, request: RunPipelineRequest) -> PipelineResult:
    """Plan the five consolidation stages (or one) and write the plan (JSON and a readable
    summary); unless dry_run, apply it, an item at a time."""
    from cortexgraph_vault.pipeline import runner

    return runner.run_pipeline(engine, request)


@operation("Apply a consolidation plan", Effect.DESTRUCTIVE, mcp_tool=False, locks_per_item=True)
def apply_plan(engine: VaultEngine, request: ApplyPlanRequest) -> PipelineResult:
    """Apply a reviewed plan file exactly as it stands; memories changed since are refused."""
    from cortexgraph_vault.pipeline import runner

    return runner.apply_plan_file(engine, request)


@operation("Commit the uses gathered", Effect.WRITE_IDEMPOTENT, mcp_tool=False)
def snapshot(engine: VaultEngine, _: NoArguments) -> SnapshotResult:
    """Commit the reinforcements (touches, observes) gathered since the last snapshot."""
    from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle

    return lifecycle.snapshot(engine)


OPERATIONS = declared_in(vars())
