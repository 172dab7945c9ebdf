"""Memories one at a time: list, look up by path, read, create, change, delete, reinforce."""

from __future__ import annotations

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import RouteTable
from cortexgraph_vault.models import (
    DeleteResult,
    MemoryDetail,
    MemoryList,
    SaveResult,
    TouchResult,
    UpdateResult,
)
from cortexgraph_vault.operations import (
    DELETE_MEMORY,
    LIST_MEMORIES,
    MEMORY_AT_PATH,
    MEMORY_DETAIL,
    SAVE_MEMORY,
    TOUCH_MEMORY,
    UPDATE_MEMORY,
)
from cortexgraph_vault.operations.browse import MemoryDetailRequest
from cortexgraph_vault.service import MemoryService

ROUTES = RouteTable()
ONE = "/api/v1/memories/{ref}"


@ROUTES.get("/api/v1/memories", "List memories", errors=(422,), read_process=True)
def list_memories(service: MemoryService, query: s.ListQuery) -> MemoryList:
    """Memories with live scores, filtered by status and tag, sorted, a page at a time."""
    return service.run(LIST_MEMORIES, query.to_request())


# Before ONE, which would otherwise take "lookup" for a memory reference.
@ROUTES.get(
    "/api/v1/memories/lookup",
    "The memory a vault file holds",
    errors=(400, 404, 422),
    read_process=True,
)
def lookup_memory(service: MemoryService, query: s.LookupQuery) -> MemoryDetail:
    """For the active file in Obsidian: 404 when that file is not a memory."""
    return service.run(MEMORY_AT_PATH, query.to_request())


@ROUTES.get(ONE, "One memory in detail", errors=(400, 404, 409), read_process=True)
def get_memory(service: MemoryService, ref: str) -> MemoryDetail:
    """`ref` is an id, a unique id prefix or a title. With relations, backlinks and outlook."""
    return service.run(MEMORY_DETAIL, MemoryDetailRequest.model_construct(memory_id=ref))


@ROUTES.post("/api/v1/memories", "Save a new memory", status=201, errors=(400, 404, 409, 422, 503))
def create_memory(service: MemoryService, body: s.CreateMemory) -> SaveResult:
    """Written to the short-term folder and committed; a credential in any field (a password,
    PIN, card number, API key) is refused (422) unless `force` is set."""
    return service.run(SAVE_MEMORY, body.to_request())


@ROUTES.patch(ONE, "Change a memory", errors=(400, 404, 409, 422, 503))
def update_memory(service: MemoryService, ref: str, body: s.UpdateMemory) -> UpdateResult:
    """Give `expected_hash` (the `content_hash` you read): if the note changed since, nothing
    is written and 409 returns both hashes and the current text. A credential in any field is
    refused (422) unless `force` is set."""
    return service.run(UPDATE_MEMORY, body.to_request(memory_id=ref))


@ROUTES.delete(ONE, "Archive or remove a memory", errors=(400, 404, 409, 422, 503))
def delete_memory(service: MemoryService, ref: str, query: s.DeleteQuery) -> DeleteResult:
    """`archive` moves it to the archive folder; `remove` deletes it (git keeps it, restore
    brings it back)."""
    return service.run(DELETE_MEMORY, query.to_request(memory_id=ref))


@ROUTES.post(ONE + "/touch", "Reinforce a memory (a use)", errors=(400, 404, 409, 422, 503))
def touch_memory(service: MemoryService, ref: str, body: s.Touch) -> TouchResult:
    return service.run(TOUCH_MEMORY, body.to_request(memory_id=ref))
