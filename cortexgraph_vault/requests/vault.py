"""What the operations over the whole vault take: unified search, a note, the graph, sync."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cortexgraph_vault.models.limits import GRAPH_MAX_CHARS
from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import (
    Cursor,
    Explain,
    MinScore,
    Page,
    PageSize,
    PreviewLength,
    Query,
    ReviewCandidates,
    TagFilter,
    WindowDays,
)
from cortexgraph_vault.requests.memories import SearchWindow

NoteStatus = Literal["active", "promoted", "archived", "note", "all"]


Weight = Annotated[float | None, Field(ge=0, le=2)]


class SearchUnifiedRequest(Request, SearchWindow):
    query: Query
    tags: TagFilter = None
    status: Annotated[
        NoteStatus | list[NoteStatus] | None,
        Field(
            description="memories (active, promoted, archived), other notes (note) or all; default: all but archived"
        ),
    ] = None
    folder: Annotated[
        str | None, Field(max_length=500, description="only notes inside this vault folder")
    ] = None
    limit: Annotated[int, Field(ge=1, le=100, description="how many results at most")] = 10
    stm_weight: Annotated[
        Weight, Field(description="weight of short-term memories (default 1.0)")
    ] = None
    ltm_weight: Annotated[
        Weight,
        Field(description="weight of promoted memories and notes (default 0.7)"),
    ] = None
    window_days: WindowDays = None
    min_score: MinScore = None
    page: Page = None
    page_size: PageSize = None
    preview_length: PreviewLength = 300
    include_review_candidates: ReviewCandidates = True
    explain: Explain = False
    cursor: Cursor = None


class ReadNoteRequest(Request):
    ref: Annotated[
        str,
        Field(
            min_length=1,
            max_length=1000,
            description="path, title, alias, [[link]] or memory id",
        ),
    ]
    cursor: Annotated[
        str | None,
        Field(max_length=64, description="next_cursor, links_cursor or backlinks_cursor"),
    ] = None
    max_chars: Annotated[
        int, Field(ge=1_000, le=100_000, description="answer size in characters (default 10000)")
    ] = 10_000


class ReadGraphRequest(Request):
    status: Annotated[
        NoteStatus,
        Field(description="which notes: active, promoted, archived memories, other notes, or all"),
    ] = "active"
    include_scores: Annotated[bool, Field(description="live decay scores")] = True
    limit: Annotated[int, Field(ge=1, le=1000, description="notes at most")] = 100
    page: Page = None
    page_size: Annotated[int | None, Field(ge=1, le=1000, description="notes per page")] = None
    cursor: Cursor = None
    max_chars: Annotated[
        int,
        Field(
            ge=2_000,
            le=1_000_000,
            description="answer size in characters (default 40000)",
        ),
    ] = GRAPH_MAX_CHARS


class SyncVaultRequest(Request):
    # "remote": tools/list is read in every session; the REST spec says the same in few words
    remote: Annotated[str | None, Field(max_length=200, description="remote")] = None
