"""The REST routes, one module per area; `TABLES` in matching order (fixed paths first)."""

from cortexgraph_vault.api.routes import lifecycle, memories, memory_history, operations, vault

TABLES = (vault.ROUTES, memories.ROUTES, lifecycle.ROUTES, memory_history.ROUTES, operations.ROUTES)
