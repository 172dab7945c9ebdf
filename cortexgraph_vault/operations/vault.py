"""Operations over the whole vault: unified search over memories and notes, reading a note, the
graph, the index's status and statistics, the timings of calls, sync."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import Effect, Rest, declared_in, operation
from cortexgraph_vault.requests import NoArguments

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import (
        LastSync,
        NoteRead,
        PerformanceMetrics,
        SearchResult,
        SyncResult,
        SyncSummary,
        VaultStats,
    )
    from cortexgraph_vault.models.graph import GraphResult, VaultStatus
    from cortexgraph_vault.requests.vault import (
        ReadGraphRequest,
        ReadNoteRequest,
        SearchUnifiedRequest,
        SyncVaultRequest,
    )


@operation(
    "Search memories and notes",
    Effect.READ,
    rest=Rest(
        "GET",
        "/api/v1/search",
        "Unified search over memories and notes",
        name="search",
        tag="vault",
        errors=(400, 404, 422),
        rename={"query": "q"},
        read_process=True,
    ),
)
def search_unified(engine: VaultEngine, request: SearchUnifiedRequest) -> SearchResult:
    """Search memories and every other vault note at once; each result has its source (stm,
    ltm, note), path, score and matched fields. Read a note in full with read_note(path)."""
    from cortexgraph_vault.handlers.search import search

    return search.search_unified(engine, request)


@operation(
    "Read a note",
    Effect.READ,
    rest=Rest(
        "GET",
        "/api/v1/notes/read",
        "Any note of the vault, a page at a time",
        tag="vault",
        errors=(400, 404, 409, 422),
        read_process=True,
        description="Found by path, title or alias as Obsidian resolves a link, or by memory "
        "id: frontmatter,\na page of the body with a cursor for the next, links and "
        "backlinks. A cursor given before\nthe note changed is refused (409).",
    ),
)
def read_note(engine: VaultEngine, request: ReadNoteRequest) -> NoteRead:
    """Read any vault note (a path from search_unified, a title, alias or [[link]]):
    frontmatter, body, links and backlinks within max_chars; more: pass the cursor given."""
    from cortexgraph_vault.handlers.browse import notes

    return notes.read_note(engine, request)


@operation("Read the memory graph", Effect.READ)
def read_graph(engine: VaultEngine, request: ReadGraphRequest) -> GraphResult:
    """Notes with the links and typed relations from them, and whole-vault graph statistics.
    At most `limit` notes and `max_chars` characters; more: pass next_cursor as cursor."""
    from cortexgraph_vault.handlers.graph import graph

    return graph.read_graph(engine, request)


@operation(
    "Vault status",
    Effect.READ,
    rest=Rest(
        "GET",
        "/api/v1/status",
        "Watcher heartbeat, counts, unparseable files",
        name="status",
        tag="vault",
    ),
)
def vault_status(engine: VaultEngine, _: NoArguments) -> VaultStatus:
    """The index's health: watcher heartbeat, counts, cache, and every file it could not read, with why."""
    from cortexgraph_vault.handlers.graph import graph

    return graph.vault_status(engine)


@operation("Performance metrics", Effect.READ)
def get_performance_metrics(engine: VaultEngine, _: NoArguments) -> PerformanceMetrics:
    """Calls served per tool since this server started, and how long they took."""
    return engine.metrics.snapshot()


def sync_summary(done: SyncResult) -> SyncSummary:
    """What the model is told of a sync (the MCP tool's output schema is this type)."""
    from cortexgraph_vault.models import SyncSummary

    return SyncSummary(message=done.message, merged=done.merged_count)


@operation(
    "Sync",
    Effect.WRITE,
    open_world=True,
    mcp_answer=sync_summary,  # a model needs the outcome in words; REST and the CLI get all
    rest=Rest(
        "POST",
        "/api/v1/sync",
        "Sync memories with the git remote",
        name="sync",
        tag="lifecycle",
        errors=(409, 422, 503),
        description="Records pending reinforcements, fetches, merges memory notes field by "
        "field and pushes.\n409 when it cannot (no remote, refused credentials, an "
        "unmergeable history, your own\nuncommitted notes), with the reason; nothing is "
        "changed then.",
    ),
)
def sync_vault(engine: VaultEngine, request: SyncVaultRequest) -> SyncResult:
    """Sync memories via git; uses add up."""
    from cortexgraph_vault.handlers.sync import sync

    return sync.sync(engine, request)


@operation("Vault statistics", Effect.READ, mcp_tool=False)
def vault_stats(engine: VaultEngine, _: NoArguments) -> VaultStats:
    """Counts by status and folder, the score histogram, and notes with problems."""
    from cortexgraph_vault.handlers.browse import vault_stats as statistics

    return statistics.stats(engine)


@operation(
    "The last sync",
    Effect.READ,
    mcp_tool=False,
    rest=Rest(
        "GET",
        "/api/v1/sync",
        "The last sync of this vault on this device",
        tag="lifecycle",
        description="Whatever ran it (the plugin, the CLI, an MCP client): when it ended, "
        "what it did or why\nit failed; `at` is null when this vault was never synced here.",
    ),
)
def last_sync(engine: VaultEngine, _: NoArguments) -> LastSync:
    """The last sync of this vault on this device, by any door or process."""
    from cortexgraph_vault.handlers.sync import sync_record

    return sync_record.last_sync(engine)


OPERATIONS = declared_in(vars())
