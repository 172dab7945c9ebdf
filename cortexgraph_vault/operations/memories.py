"""Operations on memories one at a time: save, search, open, reinforce, change, delete, relate."""

from __future__ import annotations

from inspect import cleandoc
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

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
from cortexgraph_vault.operations.operation import AnyOperation, Effect, Operation, Request
from cortexgraph_vault.ops.limits import MAX_CONTENT, MAX_MEMORY_IDS, MAX_QUERY_CHARS

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.operations.params import (
    Content,
    Cursor,
    Entities,
    ExpectedHash,
    Explain,
    Force,
    MemoryId,
    MemoryIds,
    MetaValue,
    MinScore,
    Page,
    PageSize,
    PreviewLength,
    RelationType,
    ReviewCandidates,
    Status,
    Strength,
    Supersedes,
    TagFilter,
    Tags,
    TopK,
    WindowDays,
)

OneId = Annotated[str, Field(min_length=1, max_length=500)]


class SaveMemoryRequest(Request):
    content: Content
    tags: Tags = None
    entities: Entities = None
    source: Annotated[
        str | None, Field(max_length=500, description="where it came from, e.g. chat")
    ] = None
    context: Annotated[
        str | None, Field(max_length=1000, description="the situation it was said in")
    ] = None
    meta: Annotated[
        dict[str, MetaValue] | None, Field(max_length=50, description="extra key/value pairs")
    ] = None
    strength: Strength = None
    title: Annotated[
        str | None, Field(max_length=200, description="note title (default: first words)")
    ] = None
    force: Force = False
    supersedes: Supersedes = None


def _save_memory(service: MemoryService, r: SaveMemoryRequest) -> SaveResult:
    return service.save(
        r.content, title=r.title, tags=r.tags, entities=r.entities, source=r.source,
        context=r.context, meta=r.meta, strength=r.strength, force=r.force,
        supersedes=r.supersedes,
    )  # fmt: skip


SAVE_MEMORY = Operation(
    name="save_memory",
    title="Save a memory",
    description=cleandoc("""
        Save a new memory: a preference, decision or fact about the user,
        their people or projects. One idea, in their words. Search first: if it is already
        remembered, touch_memory or update_memory instead of a duplicate; if it corrects one,
        pass its id in supersedes. It fades unless used.
    """),
    request=SaveMemoryRequest,
    result=SaveResult,
    effect=Effect.WRITE,
    invoke=_save_memory,
)


class SearchMemoryRequest(Request):
    query: Annotated[
        str | None,
        Field(max_length=MAX_QUERY_CHARS, description="words to look for; empty lists by score"),
    ] = None
    tags: TagFilter = None
    status: Status = None
    top_k: TopK = 10
    window_days: WindowDays = None
    min_score: MinScore = None
    use_embeddings: Annotated[
        bool,
        Field(description="ignored"),
    ] = False
    include_review_candidates: ReviewCandidates = True
    page: Page = None
    page_size: PageSize = None
    preview_length: PreviewLength = 300
    explain: Explain = False
    cursor: Cursor = None


def _search_memory(service: MemoryService, r: SearchMemoryRequest) -> SearchResult:
    return service.search(
        r.query, tags=r.tags, status=r.status, top_k=r.top_k, window_days=r.window_days,
        min_score=r.min_score, page=r.page, page_size=r.page_size,
        preview_length=r.preview_length,
        include_review_candidates=r.include_review_candidates, explain=r.explain,
        cursor=r.cursor,
    )  # fmt: skip


SEARCH_MEMORY = Operation(
    name="search_memory",
    title="Search memories",
    description=cleandoc("""
        Search memories by words, tags and recency, best first (however old; no match, no
        results). Before answering about the user and before save_memory. Full text: open_memories;
        after a result shaped your answer: observe_memory_usage.
    """),
    request=SearchMemoryRequest,
    result=SearchResult,
    effect=Effect.READ,
    invoke=_search_memory,
)


class OpenMemoriesRequest(Request):
    memory_ids: Annotated[
        OneId | Annotated[list[OneId], Field(min_length=1, max_length=MAX_MEMORY_IDS)],
        Field(description="one memory id or a list (ids, unique id prefixes, paths or titles)"),
    ]
    include_relations: Annotated[
        bool, Field(description="relations to and from other memories")
    ] = True
    include_scores: Annotated[bool, Field(description="live decay scores")] = True
    cursor: Cursor = None

    @property
    def ids(self) -> list[str]:
        return [self.memory_ids] if isinstance(self.memory_ids, str) else self.memory_ids


def _open_memories(service: MemoryService, r: OpenMemoriesRequest) -> OpenResult:
    return service.open(
        r.ids, include_relations=r.include_relations, include_scores=r.include_scores,
        cursor=r.cursor,
    )  # fmt: skip


OPEN_MEMORIES = Operation(
    name="open_memories",
    title="Open memories",
    description=cleandoc("""
        Read memories in full: content, tags, scores, content_hash, relations; unknown ids in
        not_found. Not a use: observe_memory_usage once one shaped your answer.
    """),
    request=OpenMemoriesRequest,
    result=OpenResult,
    effect=Effect.READ,
    invoke=_open_memories,
)


class TouchMemoryRequest(Request):
    memory_id: MemoryId
    boost_strength: Annotated[
        bool, Field(description="also raise its strength by 0.1 (up to 2)")
    ] = False


def _touch_memory(service: MemoryService, r: TouchMemoryRequest) -> TouchResult:
    return service.touch(r.memory_id, boost=r.boost_strength)


TOUCH_MEMORY = Operation(
    name="touch_memory",
    title="Reinforce a memory",
    description="The user repeated or confirmed a memory: count one use, so it fades more slowly.",
    request=TouchMemoryRequest,
    result=TouchResult,
    effect=Effect.WRITE,
    invoke=_touch_memory,
)


class ObserveMemoryUsageRequest(Request):
    memory_ids: MemoryIds
    context_tags: Annotated[
        list[Annotated[str, Field(max_length=200)]] | None,
        Field(max_length=50, description="tags of the current conversation's topic"),
    ] = None


def _observe_memory_usage(service: MemoryService, r: ObserveMemoryUsageRequest) -> ObserveResult:
    return service.observe(r.memory_ids, r.context_tags)


OBSERVE_MEMORY_USAGE = Operation(
    name="observe_memory_usage",
    title="Record memories used in an answer",
    description=cleandoc("""
        Call after answering from memories, with the ids you used: each counts as a use and
        stays alive (used outside its topic, it also gains strength). Unknown ids: not_found.
    """),
    request=ObserveMemoryUsageRequest,
    result=ObserveResult,
    effect=Effect.WRITE,
    invoke=_observe_memory_usage,
)


class UpdateMemoryRequest(Request):
    memory_id: MemoryId
    content: Annotated[
        str | None,
        Field(min_length=1, max_length=MAX_CONTENT, description="new content (replaces the body)"),
    ] = None
    tags: Tags = None
    entities: Entities = None
    strength: Strength = None
    expected_hash: ExpectedHash = None
    force: Force = False
    supersedes: Supersedes = None


def _update_memory(service: MemoryService, r: UpdateMemoryRequest) -> UpdateResult:
    return service.update(
        r.memory_id, content=r.content, tags=r.tags, entities=r.entities, strength=r.strength,
        expected_hash=r.expected_hash, force=r.force, supersedes=r.supersedes,
    )  # fmt: skip


UPDATE_MEMORY = Operation(
    name="update_memory",
    title="Change a memory",
    description=cleandoc("""
        Correct a memory: content, tags, entities or strength (only those given). Pass
        expected_hash (content_hash from open_memories); on a conflict, re-read. Old text stays in git.
    """),
    request=UpdateMemoryRequest,
    result=UpdateResult,
    effect=Effect.DESTRUCTIVE,
    invoke=_update_memory,
)


class DeleteMemoryRequest(Request):
    memory_id: MemoryId
    mode: Annotated[
        Literal["archive", "remove"],
        Field(
            description="archive: move to the archive folder (default); remove: delete the file, kept in git"
        ),
    ] = "archive"
    expected_hash: ExpectedHash = None


def _delete_memory(service: MemoryService, r: DeleteMemoryRequest) -> DeleteResult:
    return service.delete(r.memory_id, mode=r.mode, expected_hash=r.expected_hash)


DELETE_MEMORY = Operation(
    name="delete_memory",
    title="Delete a memory",
    description="Only when the user asks: archive a memory (default) or remove it; restore_memory undoes it.",
    request=DeleteMemoryRequest,
    result=DeleteResult,
    effect=Effect.DESTRUCTIVE,
    invoke=_delete_memory,
)


class CreateRelationRequest(Request):
    from_memory_id: MemoryId
    to_memory_id: MemoryId
    relation_type: Annotated[
        RelationType, Field(description="how the first memory relates to the second")
    ]
    strength: Annotated[float, Field(ge=0, le=1, description="how strong the relation is")] = 1.0
    metadata: Annotated[
        dict[str, MetaValue] | None,
        Field(max_length=20, description="notes about the relation"),
    ] = None
    force: Force = False


def _create_relation(service: MemoryService, r: CreateRelationRequest) -> RelationResult:
    return service.relate(
        r.from_memory_id, r.to_memory_id, r.relation_type, strength=r.strength,
        metadata=r.metadata, force=r.force,
    )  # fmt: skip


CREATE_RELATION = Operation(
    name="create_relation",
    title="Relate two memories",
    description=cleandoc("""
        Link two memories with a typed relation (an Obsidian link property); an existing one
        is left as it is (created: false).
    """),
    request=CreateRelationRequest,
    result=RelationResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=_create_relation,
)

# In the order the MCP server lists them.
MEMORY_OPERATIONS: tuple[AnyOperation, ...] = (
    SAVE_MEMORY,
    SEARCH_MEMORY,
    OPEN_MEMORIES,
    TOUCH_MEMORY,
    OBSERVE_MEMORY_USAGE,
    UPDATE_MEMORY,
    DELETE_MEMORY,
    CREATE_RELATION,
)
