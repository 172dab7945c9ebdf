"""The vault as a whole: health, search, graph, status, config, message analysis."""

from __future__ import annotations

from typing import Any

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import RouteTable
from cortexgraph_vault.models import (
    AutoRecallResult,
    MessageAnalysis,
    NeighbourhoodResult,
    NoteRead,
    RecallAnalysis,
    ReviewResult,
    SearchResult,
    VaultStatus,
)
from cortexgraph_vault.operations import (
    ANALYZE_FOR_RECALL,
    ANALYZE_MESSAGE,
    AUTO_RECALL_PROCESS_MESSAGE,
    GRAPH_NEIGHBOURHOOD,
    READ_NOTE,
    RELATED_TO_NOTE,
    REVIEW_MEMORIES,
    SEARCH_UNIFIED,
    VAULT_STATUS,
)
from cortexgraph_vault.operations.vault import NoArguments
from cortexgraph_vault.service import MemoryService

ROUTES = RouteTable()


@ROUTES.get("/health", "Is the daemon up", public=True, uses_service=False)
def health(service: MemoryService) -> s.Health:
    """No token needed; says nothing but that it is up."""
    return s.Health(ok=True)


@ROUTES.get(
    "/api/v1/search",
    "Unified search over memories and notes",
    errors=(400, 404, 422),
    read_process=True,
)
def search(service: MemoryService, query: s.SearchQuery) -> SearchResult:
    return service.run(SEARCH_UNIFIED, query.to_request())


@ROUTES.get(
    "/api/v1/related",
    "Memories and notes related to a note",
    errors=(400, 404, 422),
    read_process=True,
)
def related(service: MemoryService, query: s.RelatedQuery) -> SearchResult:
    """Best first, in the shape of /api/v1/search's answer, without the note itself; 404 when
    no Markdown note is at `path`."""
    return service.run(RELATED_TO_NOTE, query.to_request())


@ROUTES.get(
    "/api/v1/graph/neighbourhood",
    "Notes and memories around a note",
    errors=(400, 404, 409, 422),
    read_process=True,
)
def neighbourhood(service: MemoryService, query: s.NeighbourhoodQuery) -> NeighbourhoodResult:
    return service.run(GRAPH_NEIGHBOURHOOD, query.to_request())


@ROUTES.get(
    "/api/v1/notes/read",
    "Any note of the vault, a page at a time",
    errors=(400, 404, 409, 422),
    read_process=True,
)
def read_note(service: MemoryService, query: s.NoteQuery) -> NoteRead:
    """Found by path, title or alias as Obsidian resolves a link, or by memory id: frontmatter,
    a page of the body with a cursor for the next, links and backlinks. A cursor given before
    the note changed is refused (409)."""
    return service.run(READ_NOTE, query.to_request())


@ROUTES.post(
    "/api/v1/analyze",
    "Should this message be remembered",
    errors=(400, 422),
)
def analyze(service: MemoryService, body: s.Analyze) -> MessageAnalysis:
    return service.run(ANALYZE_MESSAGE, body.to_request())


@ROUTES.post(
    "/api/v1/analyze/recall",
    "Should memory be searched for this message",
    errors=(400, 422),
)
def analyze_recall(service: MemoryService, body: s.Analyze) -> RecallAnalysis:
    return service.run(ANALYZE_FOR_RECALL, body.to_request())


@ROUTES.post(
    "/api/v1/recall",
    "Recall and reinforce the memories a message is about",
    errors=(400, 422),
)
def recall(service: MemoryService, body: s.Recall) -> AutoRecallResult:
    return service.run(AUTO_RECALL_PROCESS_MESSAGE, body.to_request())


@ROUTES.get(
    "/api/v1/review",
    "Memories due for review, most urgent first",
    errors=(400, 422),
)
def review(service: MemoryService, query: s.ReviewQuery) -> ReviewResult:
    return service.run(REVIEW_MEMORIES, query.to_request())


@ROUTES.get(
    "/api/v1/status",
    "Watcher heartbeat, counts, unparseable files",
)
def status(service: MemoryService) -> VaultStatus:
    return service.run(VAULT_STATUS, NoArguments())


@ROUTES.get("/api/v1/config", "The effective configuration")
def config(service: MemoryService) -> s.SettingsList:
    """Every setting with its environment variable, value and where the value came from."""
    return s.SettingsList(settings=[s.SettingRow(**row) for row in service.effective_config()])


@ROUTES.get("/api/v1/openapi.json", "This API's OpenAPI spec", uses_service=False)
def openapi(service: MemoryService) -> Any:
    """The same text as docs/openapi.json in the repository."""
    from cortexgraph_vault.api.openapi import openapi_spec

    return openapi_spec()
