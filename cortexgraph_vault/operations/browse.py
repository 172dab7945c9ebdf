"""Operations for browsing the vault (the plugin's views, the CLI): a page of memories, one
memory in detail, the memory a file holds, what is related to a note, a note's neighbourhood.
None is an MCP tool: search_memory, open_memories and read_graph serve the model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.models import MemoryDetail, MemoryList, NeighbourhoodResult, SearchResult
from cortexgraph_vault.operations.operation import AnyOperation, Effect, Operation, Request
from cortexgraph_vault.operations.params import MemoryId

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

VaultPath = Annotated[str, Field(min_length=1, max_length=1000)]


class ListMemoriesRequest(Request):
    status: Literal["active", "promoted", "archived", "all"] = "active"
    sort: Annotated[
        Literal["score", "age", "last_used"],
        Field(description="score: highest first; age: newest first; last_used: most recent first"),
    ] = "score"
    tag: Annotated[
        Annotated[str, Field(max_length=200)] | None,
        Field(description="only memories with this tag or a child tag"),
    ] = None
    page: Annotated[int, Field(ge=1, le=100_000)] = 1
    page_size: Annotated[int, Field(ge=1, le=200)] = 50


def _list_memories(service: MemoryService, r: ListMemoriesRequest) -> MemoryList:
    return service.list_memories(
        status=r.status, sort=r.sort, tag=r.tag, page=r.page, page_size=r.page_size
    )


LIST_MEMORIES = Operation(
    name="list_memories",
    title="List memories",
    description="Memories with live scores, filtered by status and tag, sorted, a page at a time.",
    request=ListMemoriesRequest,
    result=MemoryList,
    effect=Effect.READ,
    invoke=_list_memories,
    mcp_tool=False,
)


class MemoryDetailRequest(Request):
    memory_id: MemoryId


def _memory_detail(service: MemoryService, r: MemoryDetailRequest) -> MemoryDetail:
    return service.memory_detail(r.memory_id)


MEMORY_DETAIL = Operation(
    name="memory_detail",
    title="One memory in detail",
    description="One memory with its relations, backlinks and outlook.",
    request=MemoryDetailRequest,
    result=MemoryDetail,
    effect=Effect.READ,
    invoke=_memory_detail,
    mcp_tool=False,
)


class MemoryAtPathRequest(Request):
    path: Annotated[
        VaultPath, Field(description="vault-relative path of a note, e.g. _stm/Coffee.md")
    ]


def _memory_at_path(service: MemoryService, r: MemoryAtPathRequest) -> MemoryDetail:
    return service.memory_at_path(r.path)


MEMORY_AT_PATH = Operation(
    name="memory_at_path",
    title="The memory a vault file holds",
    description="The memory a vault file holds (the file open in Obsidian); not found otherwise.",
    request=MemoryAtPathRequest,
    result=MemoryDetail,
    effect=Effect.READ,
    invoke=_memory_at_path,
    mcp_tool=False,
)


class RelatedToNoteRequest(Request):
    path: Annotated[
        VaultPath, Field(description="vault-relative path of a note, e.g. Projects/Atlas.md")
    ]
    limit: Annotated[int, Field(ge=1, le=50)] = 10


def _related_to_note(service: MemoryService, r: RelatedToNoteRequest) -> SearchResult:
    return service.related_to_note(r.path, r.limit)


RELATED_TO_NOTE = Operation(
    name="related_to_note",
    title="Memories and notes related to a note",
    description="The memories and notes most related to a note, best first, without the note.",
    request=RelatedToNoteRequest,
    result=SearchResult,
    effect=Effect.READ,
    invoke=_related_to_note,
    mcp_tool=False,
)


class GraphNeighbourhoodRequest(Request):
    path: Annotated[
        VaultPath, Field(description="vault path of a note, or a memory id / prefix / title")
    ]
    hops: Annotated[int, Field(ge=1, le=5)] = 1
    include_scores: Annotated[bool, Field(description="live decay scores")] = True


def _graph_neighbourhood(
    service: MemoryService, r: GraphNeighbourhoodRequest
) -> NeighbourhoodResult:
    return service.graph_neighbourhood(r.path, hops=r.hops, include_scores=r.include_scores)


GRAPH_NEIGHBOURHOOD = Operation(
    name="graph_neighbourhood",
    title="Notes and memories around a note",
    description="The notes and memories linked to a note, up to `hops` links away.",
    request=GraphNeighbourhoodRequest,
    result=NeighbourhoodResult,
    effect=Effect.READ,
    invoke=_graph_neighbourhood,
    mcp_tool=False,
)

BROWSE_OPERATIONS: tuple[AnyOperation, ...] = (
    LIST_MEMORIES,
    MEMORY_DETAIL,
    MEMORY_AT_PATH,
    RELATED_TO_NOTE,
    GRAPH_NEIGHBOURHOOD,
)
