"""Shapes of consolidation: clusters, duplicate pairs, merges, pipeline plans and their outcome.

`cluster_memories` and `consolidate_memories` keep CortexGraph's field names (clusters with
id, size, cohesion, suggested_action, memory_ids, previews). A plan is a JSON file a person
reviews and may edit (drop items) before it is applied.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cortexgraph_vault.models.memory import Model

PLAN_FORMAT = "cortexgraph-vault/consolidation-plan"
PLAN_VERSION = 1


class ClusterView(Model):
    id: str = Field(description="stable: derived from the sorted member ids")
    size: int
    cohesion: float = Field(description="mean similarity over every pair of members, 0..1")
    suggested_action: str = Field(description="merge (one fact said again), link, or ignore")
    memory_ids: list[str] = Field(description="member ids (a path for a memory without one)")
    titles: list[str]
    paths: list[str]
    previews: list[str]


class DuplicatePair(Model):
    cluster_id: str = Field(description="consolidate_memories merges the pair by this id")
    memory_ids: list[str]
    similarity: float
    titles: list[str]
    previews: list[str]


class ClusterResult(Model):
    strategy: str
    threshold: float
    max_cluster_size: int
    find_duplicates: bool
    duplicate_threshold: float | None = None
    memories_considered: int = Field(description="active short-term memories looked at")
    pairs_compared: int = Field(
        description="pairs of memories compared (every pair: those sharing too little to reach "
        "the threshold are ruled out without a full score)"
    )
    clusters: list[ClusterView] = Field(default_factory=list)
    duplicate_pairs: list[DuplicatePair] = Field(default_factory=list)
    message: str


class MergePreview(Model):
    title: str = Field(description="file name the merged memory gets in the short-term folder")
    content: str
    tags: list[str]
    entities: list[str]
    created: str
    last_used: str
    use_count: int
    strength: float
    cohesion: float
    source_ids: list[str]
    kept_texts_of: list[str] = Field(description="members whose text the merged content holds")


class ConsolidatedCluster(Model):
    cluster_id: str
    memory_ids: list[str]
    titles: list[str]
    cohesion: float
    action: str = Field(description="previewed | merged | linked")
    preview: MergePreview | None = None
    new_memory_id: str | None = None
    new_path: str | None = None
    archived: dict[str, str] = Field(
        default_factory=dict, description="original path → its path in the archive folder"
    )
    relations_created: int = 0
    commit: str | None = None


class ConsolidateResult(Model):
    success: bool
    mode: str
    cluster_id: str | None = None
    auto_detect: bool = False
    results: list[ConsolidatedCluster] = Field(default_factory=list)
    merged_count: int = 0
    linked_count: int = 0
    message: str


class PlanMemory(Model):
    """A memory as it was when the plan was made; applying refuses it if it changed since."""

    id: str | None = Field(description="memory id (None for a hand-made note without one)")
    path: str
    title: str
    status: str
    content_hash: str = Field(
        description="sha256 of its text, tags and entities when planned (use does not change it)"
    )


class PlanItem(Model):
    id: str = Field(description="stable: stage and member ids")
    stage: str = Field(description="decay | cluster | merge | promote | relations")
    action: str = Field(description="flag | link | merge | promote | relate")
    reason: str
    confidence: float | None = None
    memories: list[PlanMemory]
    details: dict[str, Any] = Field(default_factory=dict)


class ConsolidationPlan(Model):
    format: str = PLAN_FORMAT
    version: int = PLAN_VERSION
    plan_id: str
    created: str
    vault: str
    stages: list[str]
    settings: dict[str, Any] = Field(default_factory=dict)
    items: list[PlanItem]


class ItemOutcome(Model):
    item_id: str
    stage: str
    action: str
    outcome: str = Field(
        description="applied | refused (changed since planning) | failed | reported | deferred"
    )
    reason: str
    memory_ids: list[str]
    new_memory_id: str | None = None


class StageOutcome(Model):
    stage: str
    applied: int
    refused: int
    failed: int = 0
    commit: str | None = None


class PipelineResult(Model):
    dry_run: bool
    plan_id: str
    plan_path: str | None = Field(default=None, description="the plan's JSON file")
    summary_path: str | None = Field(default=None, description="its readable summary")
    items: int
    summary: str = Field(description="the plan (dry run) or what was done, for people")
    outcomes: list[ItemOutcome] = Field(default_factory=list)
    stages: list[StageOutcome] = Field(default_factory=list)
    message: str
