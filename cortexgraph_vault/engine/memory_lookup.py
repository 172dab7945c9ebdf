"""Finding the one memory a person or a model means: by id, path, title or id prefix."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.errors import Ambiguous, InvalidArgument, NotFound
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.vault.paths import vault_relative

MIN_PREFIX = 4  # shorter, a prefix matches a sixteenth of the memories or more
_HEX = re.compile(r"[0-9a-fA-F-]+")


def find_memory(
    catalog: VaultCatalog, root: Path, stm: str, ref: str, statuses: Iterable[str] | None = None
) -> Memory:
    """The memory `ref` names (among `statuses`, if given); a clear error naming what to do
    when none does, or when several do."""
    ref = (ref or "").strip()
    if not ref:
        raise NotFound(
            "empty memory id; search with search_memory to find one",
            operations=("search_memory",),
        )
    wanted = set(statuses) if statuses else None

    def ok(m: Memory) -> bool:
        return wanted is None or m.status in wanted

    found = catalog.memory_by_id(ref)
    if found and ok(found):
        return found
    if ref.endswith(".md") or "/" in ref:
        rel = vault_relative(root, ref if ref.endswith(".md") else ref + ".md")
        note = catalog.note(rel)
        if note and note.memory and ok(note.memory):
            return note.memory
        if note and not note.memory:
            raise NotFound(f"{rel}: is a note, not a memory (memories live in {stm}/)")

    def memories_where(match: Callable[[IndexedNote], bool]) -> list[Memory]:
        """The memories whose notes match, tested on the notes' hot fields (a memory's title,
        path and id are its note's): only those found are decoded, not every memory."""
        found = []
        for note in catalog.notes():
            state = note.memory_state
            if state is not None and (wanted is None or state.status in wanted) and match(note):
                memory = note.memory
                assert memory is not None  # a note with a memory state has a memory
                found.append(memory)
        return found

    low = name_key(ref)
    by_title = memories_where(
        lambda n: low in (name_key(n.title), name_key(n.path.rsplit("/", 1)[-1][:-3]))
    )
    found = _the_one(
        by_title, f"{len(by_title)} memories are titled {ref!r}; give one of their ids"
    )
    if found is not None:
        return found
    if len(ref) >= MIN_PREFIX:
        by_prefix = memories_where(lambda n: bool(n.memory_id and n.memory_id.startswith(ref)))
        found = _the_one(
            by_prefix,
            f"id prefix {ref!r} matches {len(by_prefix)} memories; give more characters",
        )
        if found is not None:
            return found
    elif _HEX.fullmatch(ref):
        raise InvalidArgument(
            f"{ref!r}: an id prefix needs at least {MIN_PREFIX} characters (no memory is titled "
            f"{ref!r} either); search with search_memory to find its id",
            operations=("search_memory",),
        )
    raise NotFound(
        f"no memory matches {ref!r} (by id, id prefix, path or title); "
        "search with search_memory to find its id",
        operations=("search_memory",),
    )


def _the_one(found: list[Memory], ambiguous: str) -> Memory | None:
    """The memory when exactly one matched, None when none did; several: Ambiguous."""
    if len(found) > 1:
        raise Ambiguous(ambiguous, [f"{m.id} {m.path}" for m in found])
    return found[0] if found else None
