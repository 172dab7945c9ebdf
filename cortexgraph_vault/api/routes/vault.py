"""The routes that are no operation of the catalogue: is the daemon up, and this API's spec."""

from __future__ import annotations

from typing import Any

from cortexgraph_vault.api import schemas as s
from cortexgraph_vault.api.endpoints import RouteTable
from cortexgraph_vault.service import MemoryService

ROUTES = RouteTable()


@ROUTES.add("GET", "/health", "Is the daemon up", public=True, uses_service=False)
def health(service: MemoryService) -> s.Health:
    """No token needed; says nothing but that it is up."""
    return s.Health(ok=True)


@ROUTES.add("GET", "/api/v1/openapi.json", "This API's OpenAPI spec", uses_service=False)
def openapi(service: MemoryService) -> Any:
    """The same text as docs/openapi.json in the repository."""
    from cortexgraph_vault.api.openapi import openapi_spec

    return openapi_spec()
