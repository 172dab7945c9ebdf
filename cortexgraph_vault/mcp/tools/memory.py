"""Tools that save, find, reinforce and change memories."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.mcp.params import (
    Cursor,
    Entities,
    ExpectedHash,
    Explain,
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
        description="save despite a credential (password, PIN, card, key) — it stays in git; "
        "only if the user asks"
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
        """Save a new memory (a note in _stm/): a preference, decision or fact about the user,
        their people or projects. One idea, in their words. Search first: if it is already
        remembered, touch_memory or update_memory instead of a duplicate. It fades unless used."""
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
            Field(description="ignored: vectors are always used"),
        ] = False,
        include_review_candidates: ReviewCandidates = True,
        page: Page = None,
        page_size: PageSize = None,
        preview_length: PreviewLength = 300,
        explain: Explain = False,
        cursor: Cursor = None,
    ) -> SearchResult:
        """Search memories by words, tags and recency, best first (however old; no match, no
        results). Before answering about the user and before save_memory. Full text: open_memories;
        after a result shaped your answer: observe_memory_usage."""
        return service.search(
            query, tags=tags, status=status, top_k=top_k, window_days=window_days,
            min_score=min_score, page=page, page_size=page_size, preview_length=preview_length,
            include_review_candidates=include_review_candidates, explain=explain, cursor=cursor,
        )  # fmt: skip

    @tool(READ_ONLY, title="Open memories")
    def open_memories(
        memory_ids: Annotated[
            Annotated[str, Field(min_length=1, max_length=500)]
            | Annotated[
                list[Annotated[str, Field(min_length=1, max_length=500)]],
                Field(min_length=1, max_length=100),
            ],
            Field(description="one memory id or a list (ids, unique id prefixes, paths or titles)"),
        ],
        include_relations: Annotated[
            bool, Field(description="relations to and from other memories")
        ] = True,
        include_scores: Annotated[bool, Field(description="live decay scores")] = True,
        cursor: Cursor = None,
    ) -> OpenResult:
        """Read memories in full: content, tags, scores, content_hash, relations; unknown ids in
        not_found. Not a use: observe_memory_usage once one shaped your answer."""
        ids = [memory_ids] if isinstance(memory_ids, str) else memory_ids
        return service.open(
            ids, include_relations=include_relations, include_scores=include_scores, cursor=cursor
        )

    @tool(WRITES, title="Reinforce a memory")
    def touch_memory(
        memory_id: MemoryId,
        boost_strength: Annotated[
            bool, Field(description="also raise its strength by 0.1 (up to 2)")
        ] = False,
    ) -> TouchResult:
        """The user repeated or confirmed a memory: count one use, so it fades more slowly."""
        return service.touch(memory_id, boost=boost_strength)

    @tool(WRITES, title="Record memories used in an answer")
    def observe_memory_usage(
        memory_ids: MemoryIds,
        context_tags: Annotated[
            list[Annotated[str, Field(max_length=200)]] | None,
            Field(max_length=50, description="tags of the current conversation's topic"),
        ] = None,
    ) -> ObserveResult:
        """Call after answering from memories, with the ids you used: each counts as a use and
        stays alive (used outside its topic, it also gains strength). Unknown ids: not_found."""
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
        """Correct a memory: content, tags, entities or strength (only those given). Pass
        expected_hash (content_hash from open_memories); on a conflict, re-read. Old text stays in git."""
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
        """Only when the user asks: archive a memory (default) or remove it; restore_memory undoes it."""
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
        """Link two memories with a typed relation (an Obsidian link property); an existing one
        is left as it is (created: false)."""
        return service.relate(
            from_memory_id, to_memory_id, relation_type, strength=strength, metadata=metadata,
            force=force,
        )  # fmt: skip
