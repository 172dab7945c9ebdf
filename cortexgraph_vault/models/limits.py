"""Sizes of answers that doors and the service use as defaults (no pydantic here: the service
names them when it starts, before any result is built)."""

from __future__ import annotations

# read_graph's default budget: about 10k tokens of compact JSON per call.
GRAPH_MAX_CHARS = 40_000
