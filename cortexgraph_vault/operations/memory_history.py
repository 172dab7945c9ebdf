"""Operations on the history of memories, from the vault's git history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import ONE_MEMORY, Effect, Rest, declared_in, operation

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import ForgottenList, HistoryResult, RestoreResult, VersionResult
    from cortexgraph_vault.requests.memory_history import (
        ForgottenMemoriesRequest,
        MemoryHistoryRequest,
        MemoryVersionRequest,
        RestoreMemoryRequest,
    )

PAST = "past"  # the published OpenAPI tag of these routes


@operation(
    "History of a memory",
    Effect.READ,
    rest=Rest(
        "GET",
        ONE_MEMORY + "/history",
        "Commits that changed a memory",
        tag=PAST,
        description="Followed across renames and moves by its id; works for forgotten "
        "memories too.",
    ),
)
def memory_history(engine: VaultEngine, request: MemoryHistoryRequest) -> HistoryResult:
    """Git commits that changed a memory, live or forgotten, across renames; see one with
    memory_version."""
    from cortexgraph_vault.handlers.history import memory_past

    return memory_past.history(engine, request)


@operation(
    "A memory as it was",
    Effect.READ,
    rest=Rest("GET", ONE_MEMORY + "/versions/{commit}", "A memory as it was at a commit", tag=PAST),
)
def memory_version(engine: VaultEngine, request: MemoryVersionRequest) -> VersionResult:
    """The full note text of a memory at one commit of its history."""
    from cortexgraph_vault.handlers.history import memory_past

    return memory_past.version(engine, request)


@operation(
    "Forgotten memories",
    Effect.READ,
    rest=Rest(
        "GET",
        "/api/v1/forgotten",
        "Memories gc or delete removed",
        name="forgotten",
        tag=PAST,
        errors=(422, 503),
        description="Archived ones (still in the archive folder) and deleted ones (found in "
        "git history),\nnewest first, to pick one to restore.",
    ),
)
def forgotten_memories(engine: VaultEngine, request: ForgottenMemoriesRequest) -> ForgottenList:
    """Memories gc or delete_memory removed (archived or deleted); restore_memory brings one back."""
    from cortexgraph_vault.handlers.history import memory_past

    return memory_past.forgotten(engine, request)


@operation(
    "Restore a memory",
    Effect.WRITE,
    rest=Rest(
        "POST",
        ONE_MEMORY + "/restore",
        "Bring a memory back",
        tag=PAST,
        body="Restore",
        description="From the given commit, or (default) from the last version before it "
        "was deleted.",
    ),
)
def restore_memory(engine: VaultEngine, request: RestoreMemoryRequest) -> RestoreResult:
    """Bring a forgotten or archived memory back into _stm/, fresh again; not a use toward promotion."""
    from cortexgraph_vault.handlers.history import memory_past

    return memory_past.restore(engine, request)


OPERATIONS = declared_in(vars())
