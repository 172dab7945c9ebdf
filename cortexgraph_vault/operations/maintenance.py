"""Operations that bring memories in and out and look after the vault: imports and exports,
the graph page, a new index, git for the vault, the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import (
    AS_OPERATION,
    Effect,
    Rest,
    declared_in,
    operation,
)
from cortexgraph_vault.requests import NoArguments

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import (
        ExportResult,
        GraphPictureResult,
        ImportResult,
        InitResult,
        SettingsList,
    )
    from cortexgraph_vault.models.graph import ReindexResult
    from cortexgraph_vault.requests.maintenance import (
        ExportCortexgraphRequest,
        ExportJsonRequest,
        GraphHtmlRequest,
        ImportCortexgraphRequest,
        ImportMemoryJsonRequest,
    )


# Files of this machine: the CLI's, never listed as MCP tools nor served over REST.
@operation("Import from CortexGraph", Effect.WRITE_IDEMPOTENT, mcp_tool=False)
def import_cortexgraph(engine: VaultEngine, request: ImportCortexgraphRequest) -> ImportResult:
    """CortexGraph / mnemex JSONL (memories.jsonl + relations.jsonl) into the vault."""
    from cortexgraph_vault.handlers.vault import memory_import

    return memory_import.import_cortexgraph(engine, request)


@operation("Import the MCP memory server's memory.json", Effect.WRITE_IDEMPOTENT, mcp_tool=False)
def import_memory_json(engine: VaultEngine, request: ImportMemoryJsonRequest) -> ImportResult:
    """The entities and relations of the MCP memory server's memory.json, as memories."""
    from cortexgraph_vault.handlers.vault import memory_import

    return memory_import.import_memory_json(engine, request)


@operation("Export for CortexGraph", Effect.READ, mcp_tool=False)
def export_cortexgraph(engine: VaultEngine, request: ExportCortexgraphRequest) -> ExportResult:
    """Every memory as memories.jsonl + relations.jsonl in a folder."""
    from cortexgraph_vault.importers import export

    progress = engine.progress("exporting")
    return export.export_cortexgraph(engine, request.folder, force=request.force, progress=progress)


@operation("Export as JSON", Effect.READ, mcp_tool=False)
def export_json(engine: VaultEngine, request: ExportJsonRequest) -> ExportResult:
    """One JSON file with every memory and link."""
    from cortexgraph_vault.importers import export

    progress = engine.progress("exporting")
    return export.export_json(engine, request.file, force=request.force, progress=progress)


@operation("Draw the memory graph", Effect.READ, mcp_tool=False)
def graph_html(engine: VaultEngine, request: GraphHtmlRequest) -> GraphPictureResult:
    """The memory graph as one offline HTML page."""
    from cortexgraph_vault.handlers.graph import graph_page

    return graph_page.graph_html(engine, request)


@operation("Index the vault again", Effect.WRITE_IDEMPOTENT, mcp_tool=False)
def reindex(engine: VaultEngine, _: NoArguments) -> ReindexResult:
    """Throw the index cache away and parse every note again."""
    from cortexgraph_vault.handlers.graph import graph

    return graph.reindex(engine)


@operation("Make the vault a git repository", Effect.WRITE_IDEMPOTENT, mcp_tool=False)
def init_git(engine: VaultEngine, _: NoArguments) -> InitResult:
    """git init (history and restore need it) and the merge driver for memory notes."""
    from cortexgraph_vault.handlers.vault import vault_setup

    return vault_setup.init_git(engine)


@operation(
    "The effective configuration",
    Effect.READ,
    mcp_tool=False,
    rest=Rest("GET", "/api/v1/config", name="config", tag="vault", description=AS_OPERATION),
)
def effective_config(engine: VaultEngine, _: NoArguments) -> SettingsList:
    """Every setting with its environment variable, value and where the value came from."""
    from cortexgraph_vault.handlers.vault import vault_setup

    return vault_setup.settings(engine)


OPERATIONS = declared_in(vars())
