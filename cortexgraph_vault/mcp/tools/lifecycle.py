"""Tools that end a memory's short-term life: forget (gc), promote, cluster and consolidate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.mcp.tool_calls import DESTRUCTIVE, READ_ONLY, WRITES
from cortexgraph_vault.models import ClusterResult, ConsolidateResult, GcResult, PromoteResult

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry

Similarity = Annotated[float, Field(ge=0, le=1)]


def register(tool: ToolRegistry) -> None:
    service = tool.service

    @tool(DESTRUCTIVE, title="Forget faded memories")
    def gc(
        dry_run: Annotated[
            bool, Field(description="only list what would be forgotten (default)")
        ] = True,
        archive_instead: Annotated[
            bool, Field(description="move them to the archive folder instead of deleting")
        ] = False,
        limit: Annotated[
            int | None,
            Field(ge=1, le=10_000, description="forget at most this many, lowest score first"),
        ] = None,
    ) -> GcResult:
        """Forget faded short-term memories. Preview first (dry_run, the default) and ask the user
        before a real run: one git commit; restore_memory brings any back."""
        return service.gc(dry_run=dry_run, archive_instead=archive_instead, limit=limit)

    @tool(WRITES, title="Promote memories")
    def promote_memory(
        memory_id: Annotated[
            str | None,
            Field(max_length=500, description="the memory to promote; omit with auto_detect"),
        ] = None,
        auto_detect: Annotated[
            bool, Field(description="promote every memory that qualifies")
        ] = False,
        dry_run: Annotated[bool, Field(description="only list what would be promoted")] = False,
        target: Annotated[
            Literal["obsidian"], Field(description="where to: the vault's long-term folder")
        ] = "obsidian",
        force: Annotated[
            bool, Field(description="promote memory_id even though it does not qualify yet")
        ] = False,
    ) -> PromoteResult:
        """Keep memories that proved their worth (used again and scoring high, or used often within
        two weeks): moved from _stm/ to the long-term folder, where they no longer fade. dry_run first."""
        return service.promote(memory_id, auto_detect=auto_detect, dry_run=dry_run, force=force)

    @tool(READ_ONLY, title="Find clusters of similar memories")
    def cluster_memories(
        strategy: Annotated[
            Literal["similarity"], Field(description="how to group memories")
        ] = "similarity",
        threshold: Annotated[
            Similarity | None,
            Field(description="similarity that links two memories (default 0.83)"),
        ] = None,
        max_cluster_size: Annotated[
            int | None, Field(ge=2, le=100, description="largest cluster (default 12)")
        ] = None,
        find_duplicates: Annotated[
            bool, Field(description="list near-duplicate pairs instead")
        ] = False,
        duplicate_threshold: Annotated[
            Similarity | None,
            Field(description="similarity from which two memories are duplicates (default 0.88)"),
        ] = None,
    ) -> ClusterResult:
        """Group similar short-term memories (or find duplicates); pass a cluster id to
        consolidate_memories (ids are stable)."""
        return service.cluster(
            strategy=strategy, threshold=threshold, max_cluster_size=max_cluster_size,
            find_duplicates=find_duplicates, duplicate_threshold=duplicate_threshold,
        )  # fmt: skip

    @tool(DESTRUCTIVE, title="Consolidate a cluster")
    def consolidate_memories(
        cluster_id: Annotated[
            str | None, Field(max_length=200, description="a cluster id from cluster_memories")
        ] = None,
        mode: Annotated[
            Literal["preview", "apply", "link"],
            Field(
                description="preview the merge, apply it (originals archived, linked from the merged note), or only link the members"
            ),
        ] = "preview",
        auto_detect: Annotated[
            bool, Field(description="consolidate every cluster above cohesion_threshold")
        ] = False,
        cohesion_threshold: Annotated[
            Similarity, Field(description="least cohesion for auto_detect")
        ] = 0.75,
    ) -> ConsolidateResult:
        """Merge a cluster into one memory (preview first); the originals are archived, never lost."""
        return service.consolidate(
            cluster_id=cluster_id, mode=mode, auto_detect=auto_detect,
            cohesion_threshold=cohesion_threshold,
        )  # fmt: skip
