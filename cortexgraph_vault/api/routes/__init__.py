"""Every REST route: those of the catalogue's operations (their `rest` bindings), the health
check and the spec, and any operation by its name."""

from __future__ import annotations

import functools

from cortexgraph_vault.api.endpoints import Endpoint, operation_endpoints
from cortexgraph_vault.api.routes import operations, vault
from cortexgraph_vault.operations import OPERATIONS


@functools.cache
def rest_endpoints() -> tuple[Endpoint, ...]:
    """In matching order: a fixed path before one with a `{segment}` that would take it
    (`/api/v1/memories/lookup` before `/api/v1/memories/{ref}`)."""
    made = [*vault.ROUTES.endpoints, *operation_endpoints(OPERATIONS), *operations.ROUTES.endpoints]
    return tuple(sorted(made, key=lambda e: e.path.count("{")))
