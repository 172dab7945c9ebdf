"""What the operations for browsing the vault take (the plugin's views, the CLI)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import MemoryId

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


class MemoryDetailRequest(Request):
    memory_id: MemoryId


class MemoryAtPathRequest(Request):
    path: Annotated[
        VaultPath, Field(description="vault-relative path of a note, e.g. _stm/Coffee.md")
    ]


class RelatedToNoteRequest(Request):
    path: Annotated[
        VaultPath, Field(description="vault-relative path of a note, e.g. Projects/Atlas.md")
    ]
    limit: Annotated[int, Field(ge=1, le=50)] = 10


class GraphNeighbourhoodRequest(Request):
    path: Annotated[
        VaultPath, Field(description="vault path of a note, or a memory id / prefix / title")
    ]
    hops: Annotated[int, Field(ge=1, le=5)] = 1
    max_nodes: Annotated[int, Field(ge=1, le=1000, description="notes at most")] = 200
    include_scores: Annotated[bool, Field(description="live decay scores")] = True
