"""Operations over the whole vault: unified search over memories and notes, reading a note, the
graph, the index's status, the timings of calls."""

from __future__ import annotations

from inspect import cleandoc
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.models import (
    GraphResult,
    NoteRead,
    PerformanceMetrics,
    SearchResult,
    SyncResult,
    SyncSummary,
    VaultStatus,
)
from cortexgraph_vault.models.graph import GRAPH_MAX_CHARS
from cortexgraph_vault.operations.operation import AnyOperation, Effect, Operation, Request

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.operations.params import (
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

NoteStatus = Literal["active", "promoted", "archived", "note", "all"]
Weight = Annotated[float | None, Field(ge=0, le=2)]


class SearchUnifiedRequest(Request):
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


def _search_unified(service: MemoryService, r: SearchUnifiedRequest) -> SearchResult:
    return service.search_unified(
        r.query, tags=r.tags, status=r.status, folder=r.folder, limit=r.limit,
        stm_weight=r.stm_weight, ltm_weight=r.ltm_weight, window_days=r.window_days,
        min_score=r.min_score, page=r.page, page_size=r.page_size,
        preview_length=r.preview_length,
        include_review_candidates=r.include_review_candidates, explain=r.explain,
        cursor=r.cursor,
    )  # fmt: skip


SEARCH_UNIFIED = Operation(
    name="search_unified",
    title="Search memories and notes",
    description=cleandoc("""
        Search memories and every other vault note at once; each result has its source (stm,
        ltm, note), path, score and matched fields. Read a note in full with read_note(path).
    """),
    request=SearchUnifiedRequest,
    result=SearchResult,
    effect=Effect.READ,
    invoke=_search_unified,
)


class ReadNoteRequest(Request):
    ref: Annotated[
        str,
        Field(
            min_length=1,
            max_length=1000,
            description="path, title, alias, [[link]] or memory id ",
        ),
    ]
    cursor: Annotated[
        str | None, Field(max_length=64, description="next_cursor of the previous page")
    ] = None
    max_chars: Annotated[int, Field(ge=200, le=100_000, description="body characters per page")] = (
        10_000
    )


def _read_note(service: MemoryService, r: ReadNoteRequest) -> NoteRead:
    return service.read_note(r.ref, cursor=r.cursor, max_chars=r.max_chars)


READ_NOTE = Operation(
    name="read_note",
    title="Read a note",
    description=cleandoc("""
        Read any vault note (a path from search_unified, a title, alias or [[link]]):
        frontmatter, body a page at a time (pass next_cursor), links and backlinks.
    """),
    request=ReadNoteRequest,
    result=NoteRead,
    effect=Effect.READ,
    invoke=_read_note,
)


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


def _read_graph(service: MemoryService, r: ReadGraphRequest) -> GraphResult:
    return service.read_graph(
        status=r.status, include_scores=r.include_scores, limit=r.limit, page=r.page,
        page_size=r.page_size, cursor=r.cursor, max_chars=r.max_chars,
    )  # fmt: skip


READ_GRAPH = Operation(
    name="read_graph",
    title="Read the memory graph",
    description=cleandoc("""
        Notes with the links and typed relations from them, and whole-vault graph statistics.
        At most `limit` notes and `max_chars` characters; more: pass next_cursor as cursor.
    """),
    request=ReadGraphRequest,
    result=GraphResult,
    effect=Effect.READ,
    invoke=_read_graph,
)


class NoArguments(Request):
    pass


VAULT_STATUS = Operation(
    name="vault_status",
    title="Vault status",
    description="The index's health: watcher heartbeat, counts, cache, and every file it could not read, with why.",
    request=NoArguments,
    result=VaultStatus,
    effect=Effect.READ,
    invoke=lambda service, _: service.vault_status(),
)

GET_PERFORMANCE_METRICS = Operation(
    name="get_performance_metrics",
    title="Performance metrics",
    description="Calls served per tool since this server started, and how long they took.",
    request=NoArguments,
    result=PerformanceMetrics,
    effect=Effect.READ,
    invoke=lambda service, _: service.performance_metrics(),
)


class SyncVaultRequest(Request):
    # "remote": tools/list is read in every session; the REST spec says the same in few words
    remote: Annotated[str | None, Field(max_length=200, description="remote")] = None


def _sync_vault(service: MemoryService, r: SyncVaultRequest) -> SyncResult:
    return service.sync(remote=r.remote)


def _sync_summary(done: SyncResult) -> SyncSummary:
    return SyncSummary(message=done.message, merged=done.merged_count)


SYNC_VAULT = Operation(
    name="sync_vault",
    title="Sync",
    description="Sync memories via git; uses add up.",
    request=SyncVaultRequest,
    result=SyncResult,
    effect=Effect.WRITE,
    invoke=_sync_vault,
    # a model needs the outcome in words; REST and the CLI get every field
    mcp_answer=_sync_summary,
)

VAULT_OPERATIONS: tuple[AnyOperation, ...] = (
    SEARCH_UNIFIED,
    READ_NOTE,
    READ_GRAPH,
    VAULT_STATUS,
    GET_PERFORMANCE_METRICS,
    SYNC_VAULT,
)
