"""Resources: one memory by id (`memory://{memory_id}`) and the vault's status and statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from pydantic import BaseModel

from cortexgraph_vault.errors import NotFound, VaultError
from cortexgraph_vault.mcp.tool_calls import explain

if TYPE_CHECKING:
    from collections.abc import Callable

    from cortexgraph_vault.service import MemoryService

JSON = "application/json"


def register(server: MCPServer, service: MemoryService) -> None:
    def read(operation: str, call: Callable[[], BaseModel]) -> str:
        try:
            result = service.call(operation, True, call)
        except NotFound as exc:
            raise ResourceNotFoundError(explain(exc)) from exc
        except VaultError as exc:
            raise ResourceError(explain(exc)) from exc
        return result.model_dump_json(indent=2)

    @server.resource("memory://{memory_id}", title="A memory", mime_type=JSON)
    def memory(memory_id: str) -> str:
        """One memory with its content, scores and relations (reading it is not a use)."""

        def one() -> BaseModel:
            found = service.open([memory_id], include_relations=True)
            if not found.memories:
                raise NotFound(f"no memory matches {memory_id!r}; search with search_memory")
            return found.memories[0]

        return read("resource memory", one)

    @server.resource("vault://status", title="Vault status", mime_type=JSON)
    def vault_status() -> str:
        """Watcher heartbeat, counts and files the index could not read."""
        return read("resource vault status", service.vault_status)

    @server.resource("vault://stats", title="Vault statistics", mime_type=JSON)
    def vault_stats() -> str:
        """Memories by status and folder, the score histogram, what gc and promotion would take."""
        return read("resource vault stats", service.stats)
