"""Any operation of the catalogue by its name: what the CLI sends to the daemon serving its vault.

The body is the operation's request (its MCP tool's arguments), checked by the same request
model as every door (a refusal names the parameter, `params` in the error body); the answer is
the result model's JSON, its model named in the X-Result-Model header. The service runs it as
`service.run` does for every door: a read takes no lock, a change holds the change lock.
"""

from __future__ import annotations

from typing import Any

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import RouteTable
from cortexgraph_vault.errors import NotFound
from cortexgraph_vault.operations import OPERATIONS
from cortexgraph_vault.service import MemoryService

ROUTES = RouteTable()


@ROUTES.add(
    "POST",
    "/api/v1/operations/{name}",
    "Run any operation of the catalogue",
    errors=(400, 404, 409, 422, 501, 503),
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
