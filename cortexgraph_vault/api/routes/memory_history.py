"""The history of memories, from the vault's git history."""

from __future__ import annotations

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import RouteTable
from cortexgraph_vault.models import ForgottenList, HistoryResult, RestoreResult, VersionResult
from cortexgraph_vault.operations import (
    FORGOTTEN_MEMORIES,
    MEMORY_HISTORY,
    MEMORY_VERSION,
    RESTORE_MEMORY,
)
from cortexgraph_vault.operations.memory_history import MemoryVersionRequest
from cortexgraph_vault.service import MemoryService

ROUTES = RouteTable()
ONE = "/api/v1/memories/{ref}"
GIT = (400, 404, 409, 422, 503)


@ROUTES.get(ONE + "/history", "Commits that changed a memory", errors=GIT)
def memory_history(service: MemoryService, ref: str, query: s.HistoryQuery) -> HistoryResult:
    """Followed across renames and moves by its id; works for forgotten memories too."""
    return service.run(MEMORY_HISTORY, query.to_request(memory_id=ref))


@ROUTES.get(ONE + "/versions/{commit}", "A memory as it was at a commit", errors=GIT)
def memory_version(service: MemoryService, ref: str, commit: str) -> VersionResult:
    # the path's commit is checked by the service (not found, ambiguous, not a sha)
    return service.run(
        MEMORY_VERSION, MemoryVersionRequest.model_construct(memory_id=ref, commit=commit)
    )


@ROUTES.post(ONE + "/restore", "Bring a memory back", errors=GIT)
def restore_memory(service: MemoryService, ref: str, body: s.Restore) -> RestoreResult:
    """From the given commit, or (default) from the last version before it was deleted."""
    return service.run(RESTORE_MEMORY, body.to_request(memory_id=ref))


@ROUTES.get("/api/v1/forgotten", "Memories gc or delete removed", errors=(422, 503))
def forgotten(service: MemoryService, query: s.ForgottenQuery) -> ForgottenList:
    """Archived ones (still in the archive folder) and deleted ones (found in git history),
    newest first, to pick one to restore."""
    return service.run(FORGOTTEN_MEMORIES, query.to_request())
