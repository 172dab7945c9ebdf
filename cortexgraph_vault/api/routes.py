"""Every REST route: those of the catalogue's operations (their `rest` bindings), and the few
that are no operation: the health check, the spec, and any operation by its name, which is what
the CLI sends to the daemon serving its vault. The body of that route is the operation's request
(its MCP tool's arguments), checked by the same request model as every door; the service runs
it as `service.run` does for every door: a read takes no lock, a change holds the change lock.
"""

from __future__ import annotations

import functools
from typing import Any

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import Endpoint, RouteTable, operation_endpoints
from cortexgraph_vault.errors import NotFound
from cortexgraph_vault.operations import OPERATIONS, Rest
from cortexgraph_vault.service import MemoryService

VAULT = RouteTable()
BY_NAME = RouteTable()


@VAULT.add(Rest("GET", "/health", "Is the daemon up", tag="vault"), public=True, uses_service=False)
def health(service: MemoryService) -> s.Health:
    """No token needed; says nothing but that it is up."""
    return s.Health(ok=True)


@VAULT.add(
    Rest("GET", "/api/v1/openapi.json", "This API's OpenAPI spec", tag="vault"), uses_service=False
)
def openapi(service: MemoryService) -> Any:
    """The same text as docs/openapi.json in the repository."""
    from cortexgraph_vault.api.openapi import openapi_spec

    return openapi_spec()


@BY_NAME.add(
    Rest(
        "POST",
        "/api/v1/operations/{name}",
        "Run any operation of the catalogue",
        tag="operations",
        errors=(400, 404, 409, 422, 501, 503),
    ),
    own_call=True,
    # a read runs beside other reads, not queued with the changes (RestThreads)
    reads=lambda name, **_: name in OPERATIONS and OPERATIONS[name].effect.read_only,
)
def run_operation(service: MemoryService, name: str, body: s.OperationArguments) -> Any:
    """`name` is an MCP tool's name (or one the plugin and the CLI use: list_memories,
    graph_neighbourhood…); the body its arguments. The answer is that operation's result, as the
    dedicated routes and the MCP tools give it; 422 names the first argument refused."""
    operation = OPERATIONS.get(name)
    if operation is None:
        raise NotFound(f"{name}: no such operation; the MCP tools list names them")
    return service.run(operation, operation.parse(body.root))


@functools.cache
def rest_endpoints() -> tuple[Endpoint, ...]:
    """In matching order: a fixed path before one with a `{segment}` that would take it
    (`/api/v1/memories/lookup` before `/api/v1/memories/{ref}`)."""
    made = [*VAULT.endpoints, *operation_endpoints(OPERATIONS), *BY_NAME.endpoints]
    return tuple(sorted(made, key=lambda e: e.route.path.count("{")))
