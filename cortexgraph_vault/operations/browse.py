"""Operations for browsing the vault (the plugin's views, the CLI): a page of memories, one
memory in detail, the memory a file holds, what is related to a note, a note's neighbourhood.
None is an MCP tool: search_memory, open_memories and read_graph serve the model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import (
    AS_OPERATION,
    Effect,
    Rest,
    declared_in,
    operation,
)

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from collections.abc import Callable

    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import MemoryDetail, MemoryList, NeighbourhoodResult, SearchResult
    from cortexgraph_vault.operations.operation import Operation, Req, Res
    from cortexgraph_vault.requests.browse import (
        GraphNeighbourhoodRequest,
        ListMemoriesRequest,
        MemoryAtPathRequest,
        MemoryDetailRequest,
        RelatedToNoteRequest,
    )


def _view(
    title: str,
    path: str,
    *,
    tag: str,
    name: str = "",
    errors: tuple[int, ...],
    description: str = "",
) -> Callable[[Callable[[VaultEngine, Req], Res]], Operation[Req, Res]]:
    """An operation of the plugin's views: a read, not an MCP tool, served at GET `path` by the
    daemon's read processes."""
    route = Rest(
        "GET", path, tag=tag, name=name, errors=errors, description=description, read_process=True
    )
    return operation(title, Effect.READ, mcp_tool=False, rest=route)


@_view("List memories", "/api/v1/memories", tag="memories", errors=(422,), description=AS_OPERATION)
def list_memories(engine: VaultEngine, request: ListMemoriesRequest) -> MemoryList:
    """Memories with live scores, filtered by status and tag, sorted, a page at a time."""
    from cortexgraph_vault.handlers.browse import browse

    return browse.list_memories(engine, request)


@_view(
    "One memory in detail",
    "/api/v1/memories/{ref}",
    name="get_memory",
    tag="memories",
    errors=(400, 404, 409, 422),
    description="`ref` is an id, a unique id prefix or a title. With relations, "
    "backlinks and outlook.",
)
def memory_detail(engine: VaultEngine, request: MemoryDetailRequest) -> MemoryDetail:
    """One memory with its relations, backlinks and outlook."""
    from cortexgraph_vault.handlers.browse import browse

    return browse.memory_detail(engine, request)


@_view(
    "The memory a vault file holds",
    "/api/v1/memories/lookup",
    name="lookup_memory",
    tag="memories",
    errors=(400, 404, 422),
    description="For the active file in Obsidian: 404 when that file is not a memory.",
)
def memory_at_path(engine: VaultEngine, request: MemoryAtPathRequest) -> MemoryDetail:
    """The memory a vault file holds (the file open in Obsidian); not found otherwise."""
    from cortexgraph_vault.handlers.browse import browse

    return browse.memory_at_path(engine, request)


@_view(
    "Memories and notes related to a note",
    "/api/v1/related",
    name="related",
    tag="vault",
    errors=(400, 404, 422),
    description="Best first, in the shape of /api/v1/search's answer, without the note "
    "itself; 404 when\nno Markdown note is at `path`.",
)
def related_to_note(engine: VaultEngine, request: RelatedToNoteRequest) -> SearchResult:
    """The memories and notes most related to a note, best first, without the note."""
    from cortexgraph_vault.handlers.graph import related

    return related.related_to_note(engine, request)


@_view(
    "Notes and memories around a note",
    "/api/v1/graph/neighbourhood",
    name="neighbourhood",
    tag="vault",
    errors=(400, 404, 409, 422),
)
def graph_neighbourhood(
    engine: VaultEngine, request: GraphNeighbourhoodRequest
) -> NeighbourhoodResult:
    """The notes and memories linked to a note, up to `hops` links away."""
    from cortexgraph_vault.handlers.graph import graph

    return graph.neighbourhood(engine, request)


OPERATIONS = declared_in(vars())
