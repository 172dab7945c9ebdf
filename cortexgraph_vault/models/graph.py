"""Shapes of the vault graph, a note's neighbourhood and the live index's status."""

from __future__ import annotations

from pydantic import Field

from cortexgraph_vault.models.limits import GRAPH_MAX_CHARS
from cortexgraph_vault.models.memory import Model, Pagination, Skipped


class GraphNode(Model):
    path: str
    title: str
    source: str = Field(description="stm, ltm, archive (memories) or note (any other note)")
    id: str | None = Field(default=None, description="the memory id (memories only)")
    status: str | None = None
    tags: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    outgoing: int = Field(description="links from this note that resolve")
    backlinks: int = Field(description="notes that link to this one")
    unresolved: int = Field(description="links from this note to nothing that exists")
    created: str | None = None
    last_used: str | None = None
    use_count: int | None = None
    strength: float | None = None
    score: float | None = None


class GraphRelation(Model):
    id: str
    from_path: str
    from_memory_id: str | None = None
    to_path: str | None = Field(description="the file the link resolves to; None if unresolved")
    to_memory_id: str | None = None
    relation_type: str = Field(
        description="the frontmatter property of a typed relation (related, supports, ...), "
        "or link / embed for links in the text"
    )
    target: str = Field(description="the link target as written")
    heading: str | None = None
    block: str | None = Field(default=None, description="a block reference's id (`^id`)")
    resolved: bool
    strength: float = Field(default=1.0, description="a typed relation's strength (0..1)")
    metadata: dict[str, str] = Field(default_factory=dict)


class UnresolvedTarget(Model):
    target: str = Field(description="the missing note's name as its links write it (no .md)")
    count: int = Field(description="links pointing to it")
    notes: int = Field(default=0, description="notes holding those links")
    sources: list[str] = Field(description="those notes (the first 10)")


class GraphStats(Model):
    notes: int
    memories: dict[str, int]
    attachments: int = 0
    links: int
    resolved_links: int
    unresolved_links: int
    unresolved_targets: int
    orphans: int
    tags: int
    entities: int
    top_tags: dict[str, int] = Field(
        default_factory=dict, description="the most used tags; nested tags count for parents"
    )


class GraphResult(Model):
    memories: list[GraphNode] = Field(description="the notes of this page (memories and notes)")
    relations: list[GraphRelation] = Field(description="links from the notes of this page")
    stats: GraphStats
    count: int
    total_count: int
    pagination: Pagination | None = None
    relations_truncated: bool = False
    unresolved: list[UnresolvedTarget] = Field(
        default_factory=list, description="missing link targets, most linked first (first call)"
    )
    orphans: list[str] = Field(default_factory=list)
    next_cursor: str | None = Field(
        default=None,
        description="more notes follow: call again with this cursor to continue after this page",
    )
    max_chars: int = Field(
        default=GRAPH_MAX_CHARS, description="the size budget of this answer, in characters"
    )


class NeighbourNode(GraphNode):
    distance: int = Field(description="links between this note and the centre")


class NeighbourhoodResult(Model):
    center: NeighbourNode
    hops: int
    nodes: list[NeighbourNode]
    relations: list[GraphRelation]
    backlinks: list[str] = Field(description="notes linking to the centre")
    truncated: bool = Field(
        description="more is in reach than shown: notes past max_nodes, or notes, links and "
        "backlinks past the answer's size budget (result_max_chars)"
    )


class WatcherStatus(Model):
    running: bool
    started_at: str | None = None
    heartbeat_at: str | None = None
    heartbeat_age_seconds: float | None = None
    events: int = 0
    batches: int = 0
    paths_checked: int = 0
    pending: int = 0
    last_batch_at: str | None = None
    last_batch_ms: float | None = None
    reconciliations: int = 0
    last_reconcile_at: str | None = None
    last_reconcile_changes: int = 0
    errors: list[str] = Field(default_factory=list)


class CacheStatus(Model):
    path: str
    loaded_at_start: bool
    load_seconds: float
    saved_at: str | None = None
    save_seconds: float | None = None
    notes_parsed: int = Field(description="notes parsed by this process (the rest came cached)")
    changes_since_save: int


class SemanticStatus(Model):
    enabled: bool = Field(description="CORTEXGRAPH_SEMANTIC_SEARCH")
    available: bool = Field(description="the vector model loaded; false: search runs by words")
    vectors: int = Field(description="notes with a vector")
    pending: int = Field(description="changed notes waiting to be embedded (at the next search)")
    model: str | None = Field(None, description="where the model's files were loaded from")
    problem: str | None = Field(None, description="why vectors are unavailable, and the fix")


class MeaningStatus(Model):
    """The sentence encoder's note vectors: searches rank by them once every note has one."""

    enabled: bool = Field(description="CORTEXGRAPH_MEANING_SEARCH")
    ready: bool = Field(
        description="searches rank by the sentence encoder now (else by words and word vectors)"
    )
    vectors: int = Field(description="notes whose sentence vector is of their text as it is")
    notes: int = Field(description="notes in the vault")
    problem: str | None = Field(None, description="why there are none, and the fix")


class VaultStatus(Model):
    vault: str
    notes: int
    memories: dict[str, int]
    links: int
    unresolved_links: int
    orphans: int
    tags: int
    vocabulary: int = Field(description="distinct words in the search index")
    watcher: WatcherStatus
    cache: CacheStatus
    semantic: SemanticStatus | None = None
    meaning: MeaningStatus | None = None
    unparseable: list[Skipped] = Field(
        description="every file indexed only in part or not at all, with the reason"
    )


class ReindexResult(Model):
    notes: int
    memories: int
    seconds: float
    cache: str
    message: str
