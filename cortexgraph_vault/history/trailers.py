"""The git trailers every commit we make carries (`Cortexgraph-Operation: save`,
`Cortexgraph-Memory: <id>`), so history can be searched by operation and by memory."""

from __future__ import annotations

from collections.abc import Iterable


def trailers(operation: str, ids: Iterable[str], key: str = "Memory") -> str:
    lines = [f"Cortexgraph-Operation: {operation}"]
    lines += [f"Cortexgraph-{key}: {i}" for i in ids]
    return "\n".join(lines)
