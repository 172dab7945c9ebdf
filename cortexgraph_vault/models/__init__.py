"""Output shapes shared by every door. One module per area; all re-exported here."""

from cortexgraph_vault.models.memory import *  # noqa: F403
