"""The REST routes, one module per area; `TABLES` in matching order (fixed paths first)."""

from cortexgraph_vault.api.routes import lifecycle, memories, operations, past, vault

TABLES = (vault.ROUTES, memories.ROUTES, lifecycle.ROUTES, past.ROUTES, operations.ROUTES)
