"""Operations over the whole vault: unified search over memories and notes, reading a note, the
graph, the index's status and statistics, the timings of calls, sync."""

from __future__ import annotations

from inspect import cleandoc
from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
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
from cortexgraph_vault.operations.operation import (
    Effect,
    Operation,
    Rest,
    declared_in,
    without_request,
)
from cortexgraph_vault.requests import NoArguments
from cortexgraph_vault.requests.vault import (
    ReadGraphRequest,
    ReadNoteRequest,
    SearchUnifiedRequest,
    SyncVaultRequest,
)

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.browse import notes, vault_stats
    from cortexgraph_vault.handlers.graph import graph
    from cortexgraph_vault.handlers.search import search
    from cortexgraph_vault.handlers.sync import sync, sync_record
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    graph = deferred_functions("cortexgraph_vault.handlers.graph.graph")
    notes = deferred_functions("cortexgraph_vault.handlers.browse.notes")
    search = deferred_functions("cortexgraph_vault.handlers.search.search")
    sync = deferred_functions("cortexgraph_vault.handlers.sync.sync")
    sync_record = deferred_functions("cortexgraph_vault.handlers.sync.sync_record")
    vault_stats = deferred_functions("cortexgraph_vault.handlers.browse.vault_stats")

SEARCH_UNIFIED = Operation(
    name="search_unified",
    title="Search memories and notes",
    description=cleandoc("""
        Search memories and every other vault note at once; each result has its source (stm,
        ltm, note), path, score and matched fields. Read a note in full with read_note(path).
    """),
    request=SearchUnifiedRequest,
    result=SearchResult,
    effect=Effect.READ,
    invoke=search.search_unified,
    rest=(
        Rest(
            "GET",
            "/api/v1/search",
            "Unified search over memories and notes",
            name="search",
            tag="vault",
            errors=(400, 404, 422),
            rename={"query": "q"},
            read_process=True,
        ),
    ),
)

READ_NOTE = Operation(
    name="read_note",
    title="Read a note",
    description=cleandoc("""
        Read any vault note (a path from search_unified, a title, alias or [[link]]):
        frontmatter, body, links and backlinks within max_chars; more: pass the cursor given.
    """),
    request=ReadNoteRequest,
    result=NoteRead,
    effect=Effect.READ,
    invoke=notes.read_note,
    rest=(
        Rest(
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
    ),
)

READ_GRAPH = Operation(
    name="read_graph",
    title="Read the memory graph",
    description=cleandoc("""
        Notes with the links and typed relations from them, and whole-vault graph statistics.
        At most `limit` notes and `max_chars` characters; more: pass next_cursor as cursor.
    """),
    request=ReadGraphRequest,
    result=GraphResult,
    effect=Effect.READ,
    invoke=graph.read_graph,
)

VAULT_STATUS = Operation(
    name="vault_status",
    title="Vault status",
    description="The index's health: watcher heartbeat, counts, cache, and every file it could not read, with why.",
    request=NoArguments,
    result=VaultStatus,
    effect=Effect.READ,
    invoke=without_request(graph.vault_status),
    rest=(
        Rest(
            "GET",
            "/api/v1/status",
            "Watcher heartbeat, counts, unparseable files",
            name="status",
            tag="vault",
        ),
    ),
)

GET_PERFORMANCE_METRICS = Operation(
    name="get_performance_metrics",
    title="Performance metrics",
    description="Calls served per tool since this server started, and how long they took.",
    request=NoArguments,
    result=PerformanceMetrics,
    effect=Effect.READ,
    invoke=lambda engine, _: engine.metrics.snapshot(),
)


def sync_summary(done: SyncResult) -> SyncSummary:
    """What the model is told of a sync (the MCP tool's output schema is this type)."""
    return SyncSummary(message=done.message, merged=done.merged_count)


SYNC_VAULT = Operation(
    name="sync_vault",
    title="Sync",
    description="Sync memories via git; uses add up.",
    request=SyncVaultRequest,
    result=SyncResult,
    effect=Effect.WRITE,
    invoke=sync.sync,
    open_world=True,
    # a model needs the outcome in words; REST and the CLI get every field
    mcp_answer=sync_summary,
    rest=(
        Rest(
            "POST",
            "/api/v1/sync",
            "Sync memories with the git remote",
            name="sync",
            tag="lifecycle",
            errors=(409, 422, 503),
            body="Sync",
            description="Records pending reinforcements, fetches, merges memory notes field by "
            "field and pushes.\n409 when it cannot (no remote, refused credentials, an "
            "unmergeable history, your own\nuncommitted notes), with the reason; nothing is "
            "changed then.",
        ),
    ),
)

VAULT_STATS = Operation(
    name="vault_stats",
    title="Vault statistics",
    description="Counts by status and folder, the score histogram, and notes with problems.",
    request=NoArguments,
    result=VaultStats,
    effect=Effect.READ,
    invoke=without_request(vault_stats.stats),
    mcp_tool=False,
)

LAST_SYNC = Operation(
    name="last_sync",
    title="The last sync",
    description="The last sync of this vault on this device, by any door or process.",
    request=NoArguments,
    result=LastSync,
    effect=Effect.READ,
    invoke=without_request(sync_record.last_sync),
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/sync",
            "The last sync of this vault on this device",
            tag="lifecycle",
            description="Whatever ran it (the plugin, the CLI, an MCP client): when it ended, "
            "what it did or why\nit failed; `at` is null when this vault was never synced here.",
        ),
    ),
)

OPERATIONS = declared_in(vars())
