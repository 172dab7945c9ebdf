"""Output shapes shared by every door. One module per area; all re-exported here."""

from cortexgraph_vault.models.browse import *  # noqa: F403
from cortexgraph_vault.models.consolidation import *  # noqa: F403
from cortexgraph_vault.models.graph import *  # noqa: F403
from cortexgraph_vault.models.intelligence import *  # noqa: F403
from cortexgraph_vault.models.maintenance import *  # noqa: F403
from cortexgraph_vault.models.memory import *  # noqa: F403
from cortexgraph_vault.models.metrics import *  # noqa: F403
from cortexgraph_vault.models.notes import *  # noqa: F403
from cortexgraph_vault.models.sync import *  # noqa: F403
