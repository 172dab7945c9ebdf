"""Operations that bring memories in and out and look after the vault: imports and exports,
the graph page, a new index, git for the vault, the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
from cortexgraph_vault.models import (
    ExportResult,
    GraphPictureResult,
    ImportResult,
    InitResult,
    SettingsList,
)
from cortexgraph_vault.models.graph import ReindexResult
from cortexgraph_vault.operations.operation import (
    AS_OPERATION,
    Effect,
    Operation,
    Rest,
    declared_in,
    without_request,
)
from cortexgraph_vault.requests import NoArguments
from cortexgraph_vault.requests.maintenance import (
    ExportCortexgraphRequest,
    ExportJsonRequest,
    GraphHtmlRequest,
    ImportCortexgraphRequest,
    ImportMemoryJsonRequest,
)

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.graph import graph, graph_page
    from cortexgraph_vault.handlers.vault import memory_export, memory_import, vault_setup
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    graph = deferred_functions("cortexgraph_vault.handlers.graph.graph")
    graph_page = deferred_functions("cortexgraph_vault.handlers.graph.graph_page")
    memory_export = deferred_functions("cortexgraph_vault.handlers.vault.memory_export")
    memory_import = deferred_functions("cortexgraph_vault.handlers.vault.memory_import")
    vault_setup = deferred_functions("cortexgraph_vault.handlers.vault.vault_setup")

# Files of this machine: the CLI's, never listed as MCP tools nor served over REST.
IMPORT_CORTEXGRAPH = Operation(
    name="import_cortexgraph",
    title="Import from CortexGraph",
    description="CortexGraph / mnemex JSONL (memories.jsonl + relations.jsonl) into the vault.",
    request=ImportCortexgraphRequest,
    result=ImportResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=memory_import.import_cortexgraph,
    mcp_tool=False,
)

IMPORT_MEMORY_JSON = Operation(
    name="import_memory_json",
    title="Import the MCP memory server's memory.json",
    description="The entities and relations of the MCP memory server's memory.json, as memories.",
    request=ImportMemoryJsonRequest,
    result=ImportResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=memory_import.import_memory_json,
    mcp_tool=False,
)

EXPORT_CORTEXGRAPH = Operation(
    name="export_cortexgraph",
    title="Export for CortexGraph",
    description="Every memory as memories.jsonl + relations.jsonl in a folder.",
    request=ExportCortexgraphRequest,
    result=ExportResult,
    effect=Effect.READ,
    invoke=memory_export.export_cortexgraph,
    mcp_tool=False,
)

EXPORT_JSON = Operation(
    name="export_json",
    title="Export as JSON",
    description="One JSON file with every memory and link.",
    request=ExportJsonRequest,
    result=ExportResult,
    effect=Effect.READ,
    invoke=memory_export.export_json,
    mcp_tool=False,
)

GRAPH_HTML = Operation(
    name="graph_html",
    title="Draw the memory graph",
    description="The memory graph as one offline HTML page.",
    request=GraphHtmlRequest,
    result=GraphPictureResult,
    effect=Effect.READ,
    invoke=graph_page.graph_html,
    mcp_tool=False,
)

REINDEX = Operation(
    name="reindex",
    title="Index the vault again",
    description="Throw the index cache away and parse every note again.",
    request=NoArguments,
    result=ReindexResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=without_request(graph.reindex),
    mcp_tool=False,
)

INIT_GIT = Operation(
    name="init_git",
    title="Make the vault a git repository",
    description="git init (history and restore need it) and the merge driver for memory notes.",
    request=NoArguments,
    result=InitResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=without_request(vault_setup.init_git),
    mcp_tool=False,
)

EFFECTIVE_CONFIG = Operation(
    name="effective_config",
    title="The effective configuration",
    description="Every setting with its environment variable, value and where the value came from.",
    request=NoArguments,
    result=SettingsList,
    effect=Effect.READ,
    invoke=without_request(vault_setup.settings),
    mcp_tool=False,
    rest=(
        Rest(
            "GET",
            "/api/v1/config",
            name="config",
            tag="vault",
            description=AS_OPERATION,
        ),
    ),
)

OPERATIONS = declared_in(vars())
