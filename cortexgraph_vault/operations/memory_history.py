"""Operations on the history of memories, from the vault's git history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from cortexgraph_vault.models import ForgottenList, HistoryResult, RestoreResult, VersionResult
from cortexgraph_vault.operations.operation import AnyOperation, Effect, Operation, Request
from cortexgraph_vault.operations.params import MemoryId

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

Commit = Annotated[
    str,
    Field(
        min_length=4,
        max_length=64,
        pattern="^[0-9a-fA-F]+$",
        description="a commit sha or its prefix",
    ),
]


class MemoryHistoryRequest(Request):
    memory_id: MemoryId
    limit: Annotated[
        int, Field(ge=1, le=500, description="newest commits first, at most this many")
    ] = 50


def _memory_history(service: MemoryService, r: MemoryHistoryRequest) -> HistoryResult:
    return service.history(r.memory_id, limit=r.limit)


MEMORY_HISTORY = Operation(
    name="memory_history",
    title="History of a memory",
    description="Git commits that changed a memory, live or forgotten, across renames; see one with\nmemory_version.",
    request=MemoryHistoryRequest,
    result=HistoryResult,
    effect=Effect.READ,
    invoke=_memory_history,
)


class MemoryVersionRequest(Request):
    memory_id: MemoryId
    commit: Commit


def _memory_version(service: MemoryService, r: MemoryVersionRequest) -> VersionResult:
    return service.version(r.memory_id, r.commit)


MEMORY_VERSION = Operation(
    name="memory_version",
    title="A memory as it was",
    description="The full note text of a memory at one commit of its history.",
    request=MemoryVersionRequest,
    result=VersionResult,
    effect=Effect.READ,
    invoke=_memory_version,
)


class ForgottenMemoriesRequest(Request):
    limit: Annotated[int, Field(ge=1, le=500, description="most recently forgotten first")] = 50


def _forgotten_memories(service: MemoryService, r: ForgottenMemoriesRequest) -> ForgottenList:
    return service.forgotten(limit=r.limit)


FORGOTTEN_MEMORIES = Operation(
    name="forgotten_memories",
    title="Forgotten memories",
    description="Memories gc or delete_memory removed (archived or deleted); restore_memory brings one back.",
    request=ForgottenMemoriesRequest,
    result=ForgottenList,
    effect=Effect.READ,
    invoke=_forgotten_memories,
)


class RestoreMemoryRequest(Request):
    memory_id: MemoryId
    commit: Annotated[
        str | None,
        Field(
            min_length=4,
            max_length=64,
            pattern="^[0-9a-fA-F]+$",
            description="restore the version at this commit (default: the last one before it was forgotten)",
        ),
    ] = None


def _restore_memory(service: MemoryService, r: RestoreMemoryRequest) -> RestoreResult:
    return service.restore(r.memory_id, commit=r.commit)


RESTORE_MEMORY = Operation(
    name="restore_memory",
    title="Restore a memory",
    description="Bring a forgotten or archived memory back into _stm/, fresh again; not a use toward promotion.",
    request=RestoreMemoryRequest,
    result=RestoreResult,
    effect=Effect.WRITE,
    invoke=_restore_memory,
)

HISTORY_OPERATIONS: tuple[AnyOperation, ...] = (
    MEMORY_HISTORY,
    MEMORY_VERSION,
    FORGOTTEN_MEMORIES,
    RESTORE_MEMORY,
)
