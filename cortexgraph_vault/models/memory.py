"""The shapes every door returns: MCP tool outputs, REST bodies and `--json` output.

Field names follow CortexGraph's tools so existing prompts and scripts keep working.
Times are ISO-8601 UTC strings.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class RelationView(Model):
    id: str
    from_memory_id: str | None
    to_memory_id: str | None
    relation_type: str
    target: str = Field(description="the link target as written in the note")
    strength: float = 1.0
    metadata: dict[str, str] = Field(default_factory=dict)


class Relations(Model):
    outgoing: list[RelationView] = Field(default_factory=list)
    incoming: list[RelationView] = Field(default_factory=list)


class MemoryView(Model):
    id: str | None
    title: str
    path: str
    status: str
    content: str
    tags: list[str]
    entities: list[str]
    source: str | None = None
    context: str | None = None
    created: str
    last_used: str
    use_count: int
    use_days: int = Field(
        default=1,
        description="distinct days of its life it was used on (the save's included); promotion "
        "needs uses spread over days",
    )
    strength: float
    score: float | None = None
    age_days: float
    review_priority: float = 0.0
    days_until_forgotten: float | None = Field(
        default=None, description="days until the score falls below the forget threshold if unused"
    )
    promotable: bool = False
    promote_reason: str | None = None
    content_hash: str
    promoted_at: str | None = None
    review_count: int = 0
    problems: list[str] = Field(default_factory=list)
    relations: Relations | None = None


class LikelyReplacement(Model):
    memory_id: str | None
    title: str
    path: str
    why: str = Field(description="what changed")
    strong: bool = Field(False, description="sure: recorded unasked")


class SupersededMemory(Model):
    memory_id: str | None
    title: str
    path: str


class SupersedeResult(Model):
    success: bool = True
    memory_id: str = Field(description="the memory that is current now")
    title: str
    path: str = Field(description="where it is now (moved to the long-term folder when promoted)")
    superseded: list[SupersededMemory] = Field(
        default_factory=list, description="the memories it replaces from now on"
    )
    already: list[SupersededMemory] = Field(
        default_factory=list, description="memories it was recorded as replacing before"
    )
    promoted: bool = Field(
        default=False, description="it took the promoted place of a memory it replaces"
    )
    use_count: int = Field(description="its uses, now counting those of the memories it replaces")
    commit: str | None = None
    message: str


class SaveResult(Model):
    success: bool
    memory_id: str
    id: str
    path: str
    title: str
    score: float
    message: str
    enrichment_applied: bool = False
    auto_entities: list[str] = Field(default_factory=list)
    calculated_strength: float | None = None
    commit: str | None = None
    may_supersede: list[LikelyReplacement] = Field(
        default_factory=list,
        description="what it likely replaces (confirm: create_relation supersedes)",
    )
    superseded: list[str] = Field(
        default_factory=list,
        description="ids it replaces (if noticed by the save: why, in message)",
    )
    warning: str | None = Field(
        default=None,
        description="set once per session when the vault is not a git repository: forgetting "
        "and restore need `cortexgraph-vault init`",
    )


class OpenResult(Model):
    memories: list[MemoryView]
    not_found: list[str] = Field(default_factory=list)
    next_cursor: str | None = Field(
        None,
        description="the answer was cut to fit its size budget: call again with the same ids "
        "and this cursor for the rest",
    )
    notice: str | None = Field(None, description="that the answer was cut to its size, and where")


class TouchResult(Model):
    success: bool = True
    memory_id: str
    id: str
    path: str
    old_score: float
    new_score: float
    use_count: int
    strength: float


class ObservedMemory(Model):
    memory_id: str
    path: str
    use_count: int
    review_count: int
    strength: float
    cross_domain: bool


class ObserveResult(Model):
    reinforced: int
    memories: list[ObservedMemory]
    not_found: list[str] = Field(default_factory=list)


class Pagination(Model):
    page: int
    page_size: int
    total_count: int
    total_pages: int
    has_more: bool
    has_previous: bool


class RankExplain(Model):
    """Why a hit ranks where it does (README, Scoring: cue-first ranking)."""

    rank: int = Field(description="1-based place in the whole result list")
    lexical: float = Field(
        description="word match (BM25F over title, aliases, tags, entities, text), 0..1"
    )
    vector: float | None = Field(
        None, description="cosine similarity of query and note vectors; null without vectors"
    )
    context: float = Field(
        0.0, description="relevance lent by memories saved just before and after this one"
    )
    relevance: float = Field(
        description="(1 − vector weight) · lexical + vector weight · max(0, vector) + context"
    )
    prior: float = Field(
        description="floor + (1 − floor) · min(1, memory score); 1 for notes and long-term memories"
    )
    memory_score: float | None = Field(None, description="decay score n^β · D(Δt) · s")
    use_count: int | None = None
    decay: float | None = Field(None, description="D(Δt), the decay factor alone")
    strength: float | None = None
    weight: float = Field(1.0, description="folder weight (search_stm_weight / search_ltm_weight)")
    final: float = Field(description="relevance · prior · weight: the sort key")
    matched_terms: list[str] = Field(
        default_factory=list, description="vocabulary terms (stems) the query matched in this note"
    )


class SearchHit(Model):
    id: str | None = Field(description="the memory's id; null for a note that is no memory")
    title: str
    path: str
    source: str = Field(description="stm (short-term memory), ltm (promoted memory) or note")
    status: str | None
    content: str
    tags: list[str]
    score: float = Field(
        description="ranking score: relevance × prior (from the memory score) × weight"
    )
    similarity: float = Field(description="relevance to the query (words and meaning), 0..1")
    memory_score: float | None = None
    use_count: int | None = None
    last_used: str | None = None
    created_at: str | None = None
    age_days: float | None = None
    review_priority: float = 0.0
    review_candidate: bool = False
    matched: list[str] = Field(default_factory=list)
    superseded_by: list[str] = Field(
        default_factory=list, description="no longer true: what replaced it"
    )
    valid_until: str | None = None
    supersedes: list[str] = Field(default_factory=list)
    explain: RankExplain | None = None


class SearchResult(Model):
    success: bool = True
    count: int
    results: list[SearchHit]
    pagination: Pagination | None = None
    semantic: bool | None = Field(None, description="vector similarity took part in the ranking")
    notice: str | None = Field(
        None, description="why search ran by words alone, or that the answer was cut to its size"
    )
    next_cursor: str | None = Field(
        None,
        description="the answer was cut to fit its size budget: call again with the same "
        "arguments and this cursor for the rest of the page",
    )


class ForgetCandidate(Model):
    id: str | None
    title: str
    path: str
    score: float
    use_count: int
    age_days: float
    superseded_by: list[str] = Field(default_factory=list)


class Skipped(Model):
    path: str
    reason: str


class GcResult(Model):
    success: bool = True
    dry_run: bool
    removed_count: int
    archived_count: int
    freed_score_sum: float
    memory_ids: list[str]
    total_affected: int
    candidates: list[ForgetCandidate]
    skipped: list[Skipped] = Field(default_factory=list)
    commit: str | None = None
    message: str


class PromoteCandidate(Model):
    id: str | None
    title: str
    path: str
    preview: str
    reason: str
    score: float
    use_count: int
    age_days: float


class PromoteResult(Model):
    success: bool = True
    dry_run: bool
    candidates_found: int
    promoted_count: int
    promoted_ids: list[str]
    candidates: list[PromoteCandidate]
    moved: dict[str, str] = Field(default_factory=dict, description="old path → new path")
    commit: str | None = None
    message: str


class UpdateResult(Model):
    success: bool = True
    memory_id: str
    path: str
    content_hash: str
    changed: list[str]
    commit: str | None = None
    superseded: list[str] = Field(
        default_factory=list,
        description="ids it replaces (if noticed by the save: why, in message)",
    )


class DeleteResult(Model):
    success: bool = True
    memory_id: str
    mode: str
    path: str
    archived_path: str | None = None
    commit: str | None = None


class RelationResult(Model):
    success: bool = True
    created: bool
    relation: RelationView
    commit: str | None = None


class CommitView(Model):
    sha: str
    short: str
    time: str
    author: str
    summary: str
    change: str
    path: str | None


class HistoryResult(Model):
    memory_id: str
    path: str | None
    exists: bool
    commits: list[CommitView]
    notice: str | None = Field(None, description="that the commits were cut to the answer's size")


class VersionResult(Model):
    memory_id: str
    commit: str
    path: str
    text: str


class RestoreResult(Model):
    success: bool = True
    memory_id: str
    path: str
    restored_from: str
    commit: str | None = None
    message: str


class SnapshotResult(Model):
    commit: str | None
    paths: list[str]
    message: str


class ForgottenView(Model):
    id: str
    title: str
    path: str = Field(description="where it was (deleted) or is (archived)")
    kind: Literal["deleted", "archived"] = Field(
        default="deleted", description="deleted: in git only; archived: in the archive folder"
    )
    deleted_in: str | None = Field(description="the commit that deleted it; null when archived")
    deleted_at: str
    preview: str


class ForgottenList(Model):
    count: int
    forgotten: list[ForgottenView] = Field(description="newest first; restore_memory by id")
    message: str
