"""Who relates to whom among memories, looked up without a pass over every memory.

A memory names another in a typed property (`related: ["[[Tea]]"]`, `supports: [<id>]`) by
title, path or id. Opening one memory used to test every other memory's relations against it:
16 ms a call at 10k notes. The lookup is built once and kept until a memory's relations, id,
title or path change (the catalogue counts those changes; a touch is not one).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.ops.catalog_memo import CatalogMemo


def target_key(value: str) -> str:
    """How a relation's value is compared with a memory's names (see `memory_keys`)."""
    return link_target(value).lower().removesuffix(".md")


def memory_keys(m: Memory) -> list[str]:
    keys = [m.title.lower(), m.path.lower().removesuffix(".md")]
    if m.id is not None:
        keys.append(m.id.lower())
    return keys


@dataclass(frozen=True)
class Incoming:
    from_memory: Memory
    kind: str
    value: str


@dataclass(frozen=True)
class RelationIndex:
    # key → the first memory (in catalogue order) with that title, path or id
    by_key: dict[str, Memory]
    # key → (order, relation) of every memory's relation values naming that key
    incoming: dict[str, list[tuple[int, Incoming]]]

    def target_of(self, value: str) -> Memory | None:
        return self.by_key.get(target_key(value))

    def pointing_at(self, m: Memory) -> list[Incoming]:
        """Relations of other memories that name `m`, in catalogue order, each once."""
        found: dict[int, Incoming] = {}
        for key in memory_keys(m):
            for order, rel in self.incoming.get(key, ()):
                if rel.from_memory.path != m.path:
                    found.setdefault(order, rel)
        return [found[order] for order in sorted(found)]


def build_relation_index(engine: VaultEngine) -> RelationIndex:
    return relation_index_of(list(engine.catalog.memories()))


def relation_index_of(memories: list[Memory]) -> RelationIndex:
    by_key: dict[str, Memory] = {}
    incoming: dict[str, list[tuple[int, Incoming]]] = defaultdict(list)
    order = 0
    for m in memories:
        for key in memory_keys(m):
            by_key.setdefault(key, m)
        for kind, values in m.relations.items():
            for value in values:
                incoming[target_key(value)].append((order, Incoming(m, kind, value)))
                order += 1
    return RelationIndex(by_key, dict(incoming))


relation_index = CatalogMemo(lambda catalog: catalog.relation_generation, build_relation_index)
