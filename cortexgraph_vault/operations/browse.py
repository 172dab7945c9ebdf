"""Operations for browsing the vault (the plugin's views, the CLI): a page of memories, one
memory in detail, the memory a file holds, what is related to a note, a note's neighbourhood.
None is an MCP tool: search_memory, open_memories and read_graph serve the model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
from cortexgraph_vault.models import MemoryDetail, MemoryList, NeighbourhoodResult, SearchResult
from cortexgraph_vault.operations.operation import (
    AS_OPERATION,
    Effect,
    Operation,
    Rest,
    declared_in,
)
from cortexgraph_vault.requests.browse import (
    GraphNeighbourhoodRequest,
    ListMemoriesRequest,
    MemoryAtPathRequest,
    MemoryDetailRequest,
    RelatedToNoteRequest,
)

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.browse import browse
    from cortexgraph_vault.handlers.graph import graph, related
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    browse = deferred_functions("cortexgraph_vault.handlers.browse.browse")
    graph = deferred_functions("cortexgraph_vault.handlers.graph.graph")
    related = deferred_functions("cortexgraph_vault.handlers.graph.related")

LIST_MEMORIES = Operation(
    name="list_memories",
    title="List memories",
    description="Memories with live scores, filtered by status and tag, sorted, a page at a time.",
    request=ListMemoriesRequest,
    result=MemoryList,
    effect=Effect.READ,
    invoke=browse.list_memories,
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/memories",
            tag="memories",
            errors=(422,),
            read_process=True,
            description=AS_OPERATION,
        ),
    ),
)

MEMORY_DETAIL = Operation(
    name="memory_detail",
    title="One memory in detail",
    description="One memory with its relations, backlinks and outlook.",
    request=MemoryDetailRequest,
    result=MemoryDetail,
    effect=Effect.READ,
    invoke=browse.memory_detail,
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/memories/{ref}",
            name="get_memory",
            tag="memories",
            errors=(400, 404, 409),
            read_process=True,
            description="`ref` is an id, a unique id prefix or a title. With relations, "
            "backlinks and outlook.",
        ),
    ),
)

MEMORY_AT_PATH = Operation(
    name="memory_at_path",
    title="The memory a vault file holds",
    description="The memory a vault file holds (the file open in Obsidian); not found otherwise.",
    request=MemoryAtPathRequest,
    result=MemoryDetail,
    effect=Effect.READ,
    invoke=browse.memory_at_path,
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/memories/lookup",
            name="lookup_memory",
            tag="memories",
            errors=(400, 404, 422),
            read_process=True,
            description="For the active file in Obsidian: 404 when that file is not a memory.",
        ),
    ),
)

RELATED_TO_NOTE = Operation(
    name="related_to_note",
    title="Memories and notes related to a note",
    description="The memories and notes most related to a note, best first, without the note.",
    request=RelatedToNoteRequest,
    result=SearchResult,
    effect=Effect.READ,
    invoke=related.related_to_note,
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/related",
            name="related",
            tag="vault",
            errors=(400, 404, 422),
            read_process=True,
            description="Best first, in the shape of /api/v1/search's answer, without the note "
            "itself; 404 when\nno Markdown note is at `path`.",
        ),
    ),
)

GRAPH_NEIGHBOURHOOD = Operation(
    name="graph_neighbourhood",
    title="Notes and memories around a note",
    description="The notes and memories linked to a note, up to `hops` links away.",
    request=GraphNeighbourhoodRequest,
    result=NeighbourhoodResult,
    effect=Effect.READ,
    invoke=graph.neighbourhood,
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/graph/neighbourhood",
            name="neighbourhood",
            tag="vault",
            errors=(400, 404, 409, 422),
            read_process=True,
        ),
    ),
)

OPERATIONS = declared_in(vars())
