"""The limits every door checks a request against (the operation catalogue's parameters name
them), kept apart from the operations that use them: a door builds its request models without
importing the operations themselves (their regular expressions, numpy, git)."""

from __future__ import annotations

MAX_CONTENT = 50_000
MAX_TAGS = 50
MAX_ENTITIES = 100
MAX_MEMORY_IDS = 100  # per open_memories or observe_memory_usage call
MAX_MESSAGE = 50_000
MAX_QUERY_CHARS = 2000
