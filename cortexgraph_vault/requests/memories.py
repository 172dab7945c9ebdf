"""What the operations on memories one at a time take: save, search, open, reinforce, change,
delete, relate."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.core.relation_types import RelationType
from cortexgraph_vault.models.limits import MAX_CONTENT, MAX_MEMORY_IDS, MAX_QUERY_CHARS
from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import (
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
    ReviewCandidates,
    Status,
    Strength,
    Supersedes,
    TagFilter,
    Tags,
    TopK,
    WindowDays,
    days_before,
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


class SearchWindow:
    """What the two searches' `window_days` asks."""

    if TYPE_CHECKING:  # the field itself is declared by each search, in its own place
        window_days: float | None

    def used_since(self, now: datetime) -> datetime | None:
        """The earliest last use a result may have (a note's: its file time)."""
        return days_before(now, self.window_days)


class SearchMemoryRequest(Request, SearchWindow):
    query: Annotated[
        str | None,
        Field(max_length=MAX_QUERY_CHARS, description="words to look for; empty lists by score"),
    ] = None
    tags: TagFilter = None
    status: Status = None
    top_k: TopK = 10
    window_days: WindowDays = None
    min_score: MinScore = None
    include_review_candidates: ReviewCandidates = True
    page: Page = None
    page_size: PageSize = None
    preview_length: PreviewLength = 300
    explain: Explain = False
    cursor: Cursor = None


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


class TouchMemoryRequest(Request):
    memory_id: MemoryId
    boost_strength: Annotated[
        bool, Field(description="also raise its strength by 0.1 (up to 2)")
    ] = False


class ObserveMemoryUsageRequest(Request):
    memory_ids: MemoryIds
    context_tags: Annotated[
        list[Annotated[str, Field(max_length=200)]] | None,
        Field(max_length=50, description="tags of the current conversation's topic"),
    ] = None


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


class DeleteMemoryRequest(Request):
    memory_id: MemoryId
    mode: Annotated[
        Literal["archive", "remove"],
        Field(
            description="archive: move to the archive folder (default); remove: delete the file, kept in git"
        ),
    ] = "archive"
    expected_hash: ExpectedHash = None


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


class SupersedeRequest(Request):
    new_id: Annotated[MemoryId, Field(description="the memory that replaces the others")]
    old_ids: Annotated[
        list[OneId],
        Field(min_length=1, max_length=MAX_MEMORY_IDS, description="the memories it replaces"),
    ]
