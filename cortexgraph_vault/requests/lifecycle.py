"""What the operations that end a memory's short-term life take: forget (gc), promote,
cluster, consolidate."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import FilePath

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


Agent = Annotated[
    str | None,
    Field(max_length=100, description="run one stage: decay, cluster, merge, promote or relations"),
]
RateLimit = Annotated[
    int | None,
    Field(
        ge=1,
        le=100_000,
        description="writes per minute at most (default: the consolidate_rate_limit setting)",
    ),
]


class RunPipelineRequest(Request):
    agent: Agent = None
    dry_run: Annotated[bool, Field(description="only write the plan")] = True
    plan_out: Annotated[FilePath | None, Field(description="where to write the plan's JSON")] = None
    rate_limit: RateLimit = None


class ApplyPlanRequest(Request):
    plan_file: Annotated[FilePath, Field(description="a plan written by a dry run")]
    rate_limit: RateLimit = None
