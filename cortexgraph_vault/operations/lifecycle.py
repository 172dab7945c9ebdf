"""Operations that end a memory's short-term life: forget (gc), promote, cluster, consolidate."""

from __future__ import annotations

from inspect import cleandoc
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.models import ClusterResult, ConsolidateResult, GcResult, PromoteResult
from cortexgraph_vault.operations.operation import AnyOperation, Effect, Operation, Request

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

Similarity = Annotated[float, Field(ge=0, le=1)]


class GcRequest(Request):
    dry_run: Annotated[bool, Field(description="only list what would be forgotten (default)")] = (
        True
    )
    archive_instead: Annotated[
        bool, Field(description="move them to the archive folder instead of deleting")
    ] = False
    limit: Annotated[
        int | None,
        Field(ge=1, le=10_000, description="forget at most this many, lowest score first"),
    ] = None
    skip_paths: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=1000)]] | None,
        Field(max_length=1000, description="vault paths open in editor tabs, left alone"),
    ] = None


def _gc(service: MemoryService, r: GcRequest) -> GcResult:
    return service.gc(
        dry_run=r.dry_run, archive_instead=r.archive_instead, limit=r.limit,
        skip_paths=r.skip_paths or (),
    )  # fmt: skip


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
    invoke=_gc,
    unlisted=frozenset({"skip_paths"}),
)


class PromoteMemoryRequest(Request):
    memory_id: Annotated[
        str | None,
        Field(max_length=500, description="the memory to promote; omit with auto_detect"),
    ] = None
    auto_detect: Annotated[bool, Field(description="promote every memory that qualifies")] = False
    dry_run: Annotated[bool, Field(description="only list what would be promoted")] = False
    force: Annotated[
        bool, Field(description="promote memory_id even though it does not qualify yet")
    ] = False


def _promote_memory(service: MemoryService, r: PromoteMemoryRequest) -> PromoteResult:
    return service.promote(r.memory_id, auto_detect=r.auto_detect, dry_run=r.dry_run, force=r.force)


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
    invoke=_promote_memory,
)


class ClusterMemoriesRequest(Request):
    threshold: Annotated[
        Similarity | None,
        Field(description="similarity that links two memories (default 0.83)"),
    ] = None
    max_cluster_size: Annotated[
        int | None, Field(ge=2, le=100, description="largest cluster (default 12)")
    ] = None
    find_duplicates: Annotated[bool, Field(description="list near-duplicate pairs instead")] = False
    duplicate_threshold: Annotated[
        Similarity | None,
        Field(description="similarity from which two memories are duplicates (default 0.88)"),
    ] = None


def _cluster_memories(service: MemoryService, r: ClusterMemoriesRequest) -> ClusterResult:
    return service.cluster(
        threshold=r.threshold, max_cluster_size=r.max_cluster_size,
        find_duplicates=r.find_duplicates, duplicate_threshold=r.duplicate_threshold,
    )  # fmt: skip


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
    invoke=_cluster_memories,
)


class ConsolidateMemoriesRequest(Request):
    cluster_id: Annotated[
        str | None, Field(max_length=200, description="a cluster id from cluster_memories")
    ] = None
    mode: Annotated[
        Literal["preview", "apply", "link"],
        Field(
            description="preview the merge, apply it (originals archived, linked from the merged note), or only link the members"
        ),
    ] = "preview"
    auto_detect: Annotated[
        bool, Field(description="consolidate every cluster above cohesion_threshold")
    ] = False
    cohesion_threshold: Annotated[
        Similarity, Field(description="least cohesion for auto_detect")
    ] = 0.75


def _consolidate_memories(
    service: MemoryService, r: ConsolidateMemoriesRequest
) -> ConsolidateResult:
    return service.consolidate(
        cluster_id=r.cluster_id, mode=r.mode, auto_detect=r.auto_detect,
        cohesion_threshold=r.cohesion_threshold,
    )  # fmt: skip


CONSOLIDATE_MEMORIES = Operation(
    name="consolidate_memories",
    title="Consolidate a cluster",
    description="Merge a cluster into one memory (preview first); the originals are archived, never lost.",
    request=ConsolidateMemoriesRequest,
    result=ConsolidateResult,
    effect=Effect.DESTRUCTIVE,
    invoke=_consolidate_memories,
)

LIFECYCLE_OPERATIONS: tuple[AnyOperation, ...] = (
    GC,
    PROMOTE_MEMORY,
    CLUSTER_MEMORIES,
    CONSOLIDATE_MEMORIES,
)
