"""Operations on the history of memories, from the vault's git history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
from cortexgraph_vault.models import ForgottenList, HistoryResult, RestoreResult, VersionResult
from cortexgraph_vault.operations.operation import (
    ONE_MEMORY,
    ONE_MEMORY_ERRORS,
    Effect,
    Operation,
    Rest,
    declared_in,
)
from cortexgraph_vault.requests.memory_history import (
    ForgottenMemoriesRequest,
    MemoryHistoryRequest,
    MemoryVersionRequest,
    RestoreMemoryRequest,
)

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.history import memory_past as memory_history
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    memory_history = deferred_functions("cortexgraph_vault.handlers.history.memory_past")

PAST = "past"  # the published OpenAPI tag of these routes

MEMORY_HISTORY = Operation(
    name="memory_history",
    title="History of a memory",
    description="Git commits that changed a memory, live or forgotten, across renames; see one with\nmemory_version.",
    request=MemoryHistoryRequest,
    result=HistoryResult,
    effect=Effect.READ,
    invoke=memory_history.history,
    rest=(
        Rest(
            "GET",
            ONE_MEMORY + "/history",
            "Commits that changed a memory",
            tag=PAST,
            errors=ONE_MEMORY_ERRORS,
            description="Followed across renames and moves by its id; works for forgotten "
            "memories too.",
        ),
    ),
)

MEMORY_VERSION = Operation(
    name="memory_version",
    title="A memory as it was",
    description="The full note text of a memory at one commit of its history.",
    request=MemoryVersionRequest,
    result=VersionResult,
    effect=Effect.READ,
    invoke=memory_history.version,
    rest=(
        Rest(
            "GET",
            ONE_MEMORY + "/versions/{commit}",
            "A memory as it was at a commit",
            tag=PAST,
            errors=ONE_MEMORY_ERRORS,
        ),
    ),
)

FORGOTTEN_MEMORIES = Operation(
    name="forgotten_memories",
    title="Forgotten memories",
    description="Memories gc or delete_memory removed (archived or deleted); restore_memory brings one back.",
    request=ForgottenMemoriesRequest,
    result=ForgottenList,
    effect=Effect.READ,
    invoke=memory_history.forgotten,
    rest=(
        Rest(
            "GET",
            "/api/v1/forgotten",
            "Memories gc or delete removed",
            name="forgotten",
            tag=PAST,
            errors=(422, 503),
            description="Archived ones (still in the archive folder) and deleted ones (found in "
            "git history),\nnewest first, to pick one to restore.",
        ),
    ),
)

RESTORE_MEMORY = Operation(
    name="restore_memory",
    title="Restore a memory",
    description="Bring a forgotten or archived memory back into _stm/, fresh again; not a use toward promotion.",
    request=RestoreMemoryRequest,
    result=RestoreResult,
    effect=Effect.WRITE,
    invoke=memory_history.restore,
    rest=(
        Rest(
            "POST",
            ONE_MEMORY + "/restore",
            "Bring a memory back",
            tag=PAST,
            errors=ONE_MEMORY_ERRORS,
            body="Restore",
            description="From the given commit, or (default) from the last version before it "
            "was deleted.",
        ),
    ),
)

OPERATIONS = declared_in(vars())
