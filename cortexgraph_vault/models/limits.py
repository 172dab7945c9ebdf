"""Sizes of answers that doors and the service use as defaults (no pydantic here: the service
names them when it starts, before any result is built)."""

from __future__ import annotations

# read_graph's default budget: about 10k tokens of compact JSON per call.
GRAPH_MAX_CHARS = 40_000

# What one request may carry: the request models declare these (requests/fields.py) and the
# service's own checks name the same constants.
MAX_CONTENT = 50_000
MAX_TAGS = 50
MAX_ENTITIES = 100
MAX_MEMORY_IDS = 100  # per open_memories or observe_memory_usage call
MAX_MESSAGE = 50_000
MAX_QUERY_CHARS = 2000
