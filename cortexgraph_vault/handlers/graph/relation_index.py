"""Who relates to whom among memories, looked up without a pass over every memory.

A memory names another in a typed property (`related: ["[[Tea]]"]`, `supports: [<id>]`) by
title, path or id. Opening one memory does not test every other memory's relations against
it: the lookup is built once and kept until a memory's relations, id, title or path change
(the catalogue counts those changes; a touch is not one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import SUPERSEDED_BY, Memory
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.graph.catalog_memo import CatalogMemo
from cortexgraph_vault.index.catalog.change_log import ADDED, RELATIONS, Changes
from cortexgraph_vault.index.notes.records import IndexedNote


def target_key(value: str) -> str:
    """How a relation's value is compared with a memory's names (see `memory_keys`)."""
    return link_target(value).lower().removesuffix(".md")


def memory_keys(m: Memory) -> list[str]:
    return note_keys(m.title, m.path, m.id)


def note_keys(title: str, path: str, memory_id: str | None) -> list[str]:
    # the file name too: a link names it (`link_for`), where the title may be an alias
    bare = path.lower().removesuffix(".md")
    keys = [title.lower(), bare, bare.rsplit("/", 1)[-1]]
    if memory_id is not None:
        keys.append(memory_id.lower())
    return keys


class Incoming(NamedTuple):
    from_memory: Memory
    kind: str
    value: str


@dataclass(frozen=True)
class RelationIndex:
    """Built from the memories' notes, their names and `memory_state.relations` (hot fields):
    no memory is decoded to build it, only those an answer names."""

    # key → the note of the first memory (in catalogue order) with that title, path or id
    by_key: dict[str, IndexedNote]
    # key → (order, note, kind, value) of every memory's relation values naming that key
    incoming: dict[str, list[tuple[int, IndexedNote, str, str]]]
    orders: int = 0  # orders given so far (the next relation value's)
    # path → the `superseded_by` values of each memory replaced by another (a few, where
    # every note is many): what search leaves out or marks
    superseded: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def replacements(self, path: str) -> list[str]:
        """The paths of the memories that replaced the one at `path` (those that exist)."""
        found = (self.target_of(v) for v in self.superseded.get(path, ()))
        return [m.path for m in found if m is not None and m.path != path]

    def target_of(self, value: str) -> Memory | None:
        note = self.by_key.get(target_key(value))
        return None if note is None else note.memory

    def pointing_at(self, m: Memory) -> list[Incoming]:
        """Relations of other memories that name `m`, in catalogue order, each once."""
        found: dict[int, tuple[IndexedNote, str, str]] = {}
        for key in memory_keys(m):
            for order, note, kind, value in self.incoming.get(key, ()):
                if note.path != m.path:
                    found.setdefault(order, (note, kind, value))
        pointing: list[Incoming] = []
        for order in sorted(found):
            note, kind, value = found[order]
            memory = note.memory
            assert memory is not None  # a note with a memory state has a memory
            pointing.append(Incoming(memory, kind, value))
        return pointing


def build_relation_index(engine: VaultEngine) -> tuple[int, RelationIndex]:
    generation, notes = engine.catalog.notes_now()
    return generation, relation_index_of(notes)


def relation_index_of(notes: list[IndexedNote]) -> RelationIndex:
    return _added(RelationIndex({}, {}), notes)


def _added(before: RelationIndex, notes: list[IndexedNote]) -> RelationIndex:
    """`before` with memories that come after every one it holds in the catalogue's order (new
    ones: saves). Its lookups are copied, never changed: a reader may hold it still."""
    by_key = dict(before.by_key)
    incoming = dict(before.incoming)
    superseded = dict(before.superseded)
    order = before.orders
    mine: set[str] = set()  # keys whose list is this index's own copy
    for note in notes:
        state = note.memory_state
        if state is None:
            continue
        for key in note_keys(note.title, note.path, note.memory_id):
            by_key.setdefault(key, note)
        for kind, values in state.relations:
            if kind == SUPERSEDED_BY and values:
                superseded[note.path] = values
            for value in values:
                key = target_key(value)
                if key not in mine:
                    incoming[key] = list(incoming.get(key, ()))
                    mine.add(key)
                incoming[key].append((order, note, kind, value))
                order += 1
    return RelationIndex(by_key, incoming, order, superseded)


def updated_relation_index(before: RelationIndex, changes: Changes) -> RelationIndex | None:
    """`before` after `changes`: new memories (a save) are added; None when a memory it
    holds changed its relations, names or place, or went (built again: the first memory with
    a name may then be another). Other changes (a touch) leave it as it is, as the catalogue's
    relation counter does: its notes may be older objects of the same relations."""
    new: dict[str, IndexedNote] = {}
    for path, flags in changes.changes:
        if not flags & RELATIONS:
            continue
        note = changes.notes[path]
        if flags != ADDED | RELATIONS or note is None or path in new:
            return None
        held = before.by_key.get(path.lower().removesuffix(".md"))
        if held is not None and held.path == path:
            return None
        new[path] = note
    return _added(before, list(new.values())) if new else before


relation_index = CatalogMemo(
    lambda catalog: catalog.relation_generation, build_relation_index, updated_relation_index
)
