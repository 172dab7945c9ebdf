"""Tools that save, find, reinforce and change memories."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.mcp.params import (
    Entities,
    ExpectedHash,
    MemoryId,
    MemoryIds,
    MinScore,
    Page,
    PageSize,
    PreviewLength,
    ReviewCandidates,
    Status,
    TagFilter,
    Tags,
    TopK,
    WindowDays,
)
from cortexgraph_vault.mcp.tool_calls import DESTRUCTIVE, READ_ONLY, WRITES, WRITES_IDEMPOTENT
from cortexgraph_vault.models import (
    DeleteResult,
    ObserveResult,
    OpenResult,
    RelationResult,
    SaveResult,
    SearchResult,
    TouchResult,
    UpdateResult,
)

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry

Content = Annotated[
    str,
    Field(min_length=1, max_length=50_000, description="the memory, in plain words or Markdown"),
]
Strength = Annotated[
    float | None,
    Field(ge=0, le=2, description="importance multiplier: 1 normal, up to 2 for what must last"),
]
Force = Annotated[
    bool,
    Field(
        description="save even though a field looks like a credential: a password, PIN, card "
        "number, API key (it would stay in git; only the user should ask for this)"
    ),
]
RelationType = Literal[
    "related", "causes", "supports", "contradicts", "has_decision", "consolidated_from"
]
MetaValue = str | int | float | bool


def register(tool: ToolRegistry) -> None:
    service = tool.service

    @tool(WRITES, title="Save a memory")
    def save_memory(
        content: Content,
        tags: Tags = None,
        entities: Entities = None,
        source: Annotated[
            str | None, Field(max_length=500, description="where it came from, e.g. chat")
        ] = None,
        context: Annotated[
            str | None, Field(max_length=1000, description="the situation it was said in")
        ] = None,
        meta: Annotated[
            dict[str, MetaValue] | None, Field(max_length=50, description="extra key/value pairs")
        ] = None,
        strength: Strength = None,
        title: Annotated[
            str | None, Field(max_length=200, description="note title (default: first words)")
        ] = None,
        force: Force = False,
    ) -> SaveResult:
        """Save a new short-term memory as a note in the vault's _stm/ folder.

        Save what the user will want remembered: preferences, decisions, facts about them, their
        people and projects. One idea per memory. It fades unless used; using it again (touch_memory,
        observe_memory_usage) keeps it, and a much-used memory is promoted into the vault for good.
        """
        return service.save(
            content, title=title, tags=tags, entities=entities, source=source, context=context,
            meta=meta, strength=strength, force=force,
        )  # fmt: skip

    @tool(READ_ONLY, title="Search memories")
    def search_memory(
        query: Annotated[
            str | None,
            Field(max_length=2000, description="words to look for; empty lists by score"),
        ] = None,
        tags: TagFilter = None,
        status: Status = None,
        top_k: TopK = 10,
        window_days: WindowDays = None,
        min_score: MinScore = None,
        use_embeddings: Annotated[
            bool,
            Field(
                description="accepted for CortexGraph compatibility; ranking is by text relevance and decay score"
            ),
        ] = False,
        include_review_candidates: ReviewCandidates = True,
        page: Page = None,
        page_size: PageSize = None,
        preview_length: PreviewLength = 300,
    ) -> SearchResult:
        """Search short-term and promoted memories by text, tags and recency, best first.

        Every memory is considered, however old; a query that matches nothing returns nothing.
        Results carry the memory id, a content preview, the decay score and the text similarity.
        """
        return service.search(
            query, tags=tags, status=status, top_k=top_k, window_days=window_days,
            min_score=min_score, page=page, page_size=page_size, preview_length=preview_length,
            include_review_candidates=include_review_candidates,
        )  # fmt: skip

    @tool(READ_ONLY, title="Open memories")
    def open_memories(
        memory_ids: Annotated[
            Annotated[str, Field(min_length=1, max_length=500)]
            | Annotated[
                list[Annotated[str, Field(min_length=1, max_length=500)]],
                Field(min_length=1, max_length=100),
            ],
            Field(
                description="one memory id or a list of up to 100 (ids, unique id prefixes, paths or titles)"
            ),
        ],
        include_relations: Annotated[
            bool, Field(description="relations to and from other memories")
        ] = True,
        include_scores: Annotated[bool, Field(description="live decay scores")] = True,
    ) -> OpenResult:
        """Read memories in full: content, tags, scores, content_hash and relations both ways.

        Ids that match nothing are listed in not_found. Reading does not count as a use; call
        observe_memory_usage after you actually use a memory in an answer.
        """
        ids = [memory_ids] if isinstance(memory_ids, str) else memory_ids
        return service.open(ids, include_relations=include_relations, include_scores=include_scores)

    @tool(WRITES, title="Reinforce a memory")
    def touch_memory(
        memory_id: MemoryId,
        boost_strength: Annotated[
            bool, Field(description="also raise its strength by 0.1 (up to 2)")
        ] = False,
    ) -> TouchResult:
        """Count one use of a memory: use_count + 1 and last_used = now, so it fades more slowly."""
        return service.touch(memory_id, boost=boost_strength)

    @tool(WRITES, title="Record memories used in an answer")
    def observe_memory_usage(
        memory_ids: MemoryIds,
        context_tags: Annotated[
            list[Annotated[str, Field(max_length=200)]] | None,
            Field(max_length=50, description="tags of the current conversation's topic"),
        ] = None,
    ) -> ObserveResult:
        """Tell the memory which memories you used in a response; each counts as a use and a review.

        A memory used outside its own topic (context tags unlike its tags) also gains strength.
        Ids that match nothing are listed in not_found; the others are still recorded.
        """
        return service.observe(memory_ids, context_tags)

    @tool(DESTRUCTIVE, title="Change a memory")
    def update_memory(
        memory_id: MemoryId,
        content: Annotated[
            str | None,
            Field(min_length=1, max_length=50_000, description="new content (replaces the body)"),
        ] = None,
        tags: Tags = None,
        entities: Entities = None,
        strength: Strength = None,
        expected_hash: ExpectedHash = None,
        force: Force = False,
    ) -> UpdateResult:
        """Change a memory's content, tags, entities or strength; only the given fields change.

        Pass expected_hash (the content_hash from open_memories) so a change made meanwhile in
        Obsidian is never overwritten: on a mismatch nothing is written and you should re-read.
        The previous version stays in git (memory_history).
        """
        return service.update(
            memory_id, content=content, tags=tags, entities=entities, strength=strength,
            expected_hash=expected_hash, force=force,
        )  # fmt: skip

    @tool(DESTRUCTIVE, title="Delete a memory")
    def delete_memory(
        memory_id: MemoryId,
        mode: Annotated[
            Literal["archive", "remove"],
            Field(
                description="archive: move to the archive folder (default); remove: delete the file, kept in git"
            ),
        ] = "archive",
        expected_hash: ExpectedHash = None,
    ) -> DeleteResult:
        """Delete a memory the user wants gone: archived by default, or removed (recoverable from git)."""
        return service.delete(memory_id, mode=mode, expected_hash=expected_hash)

    @tool(WRITES_IDEMPOTENT, title="Relate two memories")
    def create_relation(
        from_memory_id: MemoryId,
        to_memory_id: MemoryId,
        relation_type: Annotated[
            RelationType, Field(description="how the first memory relates to the second")
        ],
        strength: Annotated[
            float, Field(ge=0, le=1, description="how strong the relation is")
        ] = 1.0,
        metadata: Annotated[
            dict[str, MetaValue] | None,
            Field(max_length=20, description="notes about the relation"),
        ] = None,
        force: Force = False,
    ) -> RelationResult:
        """Link one memory to another with a typed relation, written as an Obsidian link property.

        Creating a relation that already exists changes nothing and says created: false.
        """
        return service.relate(
            from_memory_id, to_memory_id, relation_type, strength=strength, metadata=metadata,
            force=force,
        )  # fmt: skip
