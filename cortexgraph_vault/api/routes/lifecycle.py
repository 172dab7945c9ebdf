"""How memories live and die: observed use, promotion, garbage collection."""

from __future__ import annotations

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import RouteTable
from cortexgraph_vault.models import GcResult, LastSync, ObserveResult, PromoteResult, SyncResult
from cortexgraph_vault.operations import GC, OBSERVE_MEMORY_USAGE, PROMOTE_MEMORY, SYNC_VAULT
from cortexgraph_vault.service import MemoryService

ROUTES = RouteTable()


@ROUTES.post("/api/v1/observe", "Record that memories were used", errors=(400, 409, 422, 503))
def observe(service: MemoryService, body: s.Observe) -> ObserveResult:
    return service.run(OBSERVE_MEMORY_USAGE, body.to_request())


@ROUTES.post(
    "/api/v1/memories/{ref}/promote", "Promote one memory", errors=(400, 404, 409, 422, 503)
)
def promote_memory(service: MemoryService, ref: str, body: s.PromoteOne) -> PromoteResult:
    """Moves it to the long-term folder if the rules ask for it (or `force`); `dry_run`
    only says what would happen."""
    return service.run(PROMOTE_MEMORY, body.to_request(memory_id=ref))


@ROUTES.post("/api/v1/promote", "Promote every candidate", errors=(422, 503))
def promote_all(service: MemoryService, body: s.PromoteAll) -> PromoteResult:
    return service.run(PROMOTE_MEMORY, body.to_request())


@ROUTES.post("/api/v1/gc", "Forget faded memories (preview by default)", errors=(400, 422, 503))
def gc(service: MemoryService, body: s.Gc) -> GcResult:
    """`dry_run` (default true) lists what would be forgotten and why. A run is one git
    commit; `skip_paths` (files open in editor tabs) are left alone."""
    return service.run(GC, body.to_request())


@ROUTES.post("/api/v1/sync", "Sync memories with the git remote", errors=(409, 422, 503))
def sync(service: MemoryService, body: s.Sync) -> SyncResult:
    """Records pending reinforcements, fetches, merges memory notes field by field and pushes.
    409 when it cannot (no remote, refused credentials, an unmergeable history, your own
    uncommitted notes), with the reason; nothing is changed then."""
    return service.run(SYNC_VAULT, body.to_request())


@ROUTES.get("/api/v1/sync", "The last sync of this vault on this device")
def last_sync(service: MemoryService) -> LastSync:
    """Whatever ran it (the plugin, the CLI, an MCP client): when it ended, what it did or why
    it failed; `at` is null when this vault was never synced here."""
    return service.last_sync()
