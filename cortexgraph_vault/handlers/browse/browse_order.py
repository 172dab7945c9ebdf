"""The first page of a long memory list by score, from the note table's arrays.

Listing by score ordered every memory: a Python tuple and a score per memory, thousands a call,
the largest part of a list under the daemon's load. The note table
(handlers/search/note_table.py) already holds each memory's use count, last use and strength as
arrays, kept once per change of the catalogue for searches; the scores come from
`core/decay_arrays.py`, equal bit for bit to `scores_at`, so the order is the same: highest
score first, ties by path.

Only in a process that keeps its catalogue (a daemon, the MCP server: the table is shared by
its calls) and for long lists; a one-shot command keeps the plain path (no numpy to import).
"""

from __future__ import annotations

import weakref
from datetime import datetime
from typing import TYPE_CHECKING

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.engine import VaultEngine

if TYPE_CHECKING:
    import numpy as np

    from cortexgraph_vault.handlers.search.note_table import NoteTable

# memories: below this the plain ordering costs less than the arrays
LONG_LIST = 100


def _first_places(keys: np.ndarray, end: int, paths: list[str]) -> list[int]:
    """The places of the first `end` keys in order (lowest first, ties by path)."""
    import numpy as np

    if end < len(keys):
        # every row scoring as high as the end-th, ties included, then ordered exactly
        kth = np.partition(keys, end - 1)[end - 1]
        candidates = np.flatnonzero(keys <= kth).tolist()
    else:
        candidates = list(range(len(keys)))
    key_list = keys.tolist()
    candidates.sort(key=lambda i: (key_list[i], paths[i]))
    return candidates[:end]


def listed_memories(engine: VaultEngine, wanted: set[str]) -> list[Memory] | None:
    """The memories of the `wanted` statuses, in no particular order (a list orders them, ties
    by path), from the note table's status codes, not by going through every note of the
    catalogue for its memory. None where the plain path applies (a short list, a process
    without a watcher)."""
    if not engine.watching:
        return None

    from cortexgraph_vault.handlers.search.note_table import note_table

    table = note_table(engine)
    if len(table.row_of) < LONG_LIST:
        return None
    live = table.live
    rows = live[table.status_mask(wanted)[table.status[live] + 1]]
    notes = table.notes
    found = [notes[r].memory for r in rows.tolist()]
    return [m for m in found if m is not None]


def memory_rows(engine: VaultEngine, wanted: set[str]) -> tuple[NoteTable, np.ndarray] | None:
    """The note table's rows of the memories of the `wanted` statuses: a long list counted
    and ordered without decoding every memory; None where the plain path applies (a short
    list, a process without a watcher)."""
    if not engine.watching:
        return None

    from cortexgraph_vault.handlers.search.note_table import note_table

    engine.fresh()
    table = note_table(engine)
    rows = _rows_of_statuses(table, frozenset(wanted))
    return (table, rows) if len(rows) >= LONG_LIST else None


# (the status column, the live rows, the status names, the statuses asked for, their rows):
# the columns do not change once made, and list after list asks for the same statuses; the
# tables that follow touches share both columns
_last_rows: (
    tuple[weakref.ref[np.ndarray], weakref.ref[np.ndarray], list[str], frozenset[str], np.ndarray]
    | None
) = None


def _rows_of_statuses(table: NoteTable, wanted: frozenset[str]) -> np.ndarray:
    global _last_rows
    cached = _last_rows
    live = table.live
    if (
        cached is not None
        and cached[0]() is table.status
        and cached[1]() is live
        and cached[2] == table.status_names
        and cached[3] == wanted
    ):
        return cached[4]
    # status codes shifted by one (a plain note first): whether each row's is wanted
    rows: np.ndarray = live[table.status_mask(set(wanted))[table.status[live] + 1]]
    _last_rows = (
        weakref.ref(table.status),
        weakref.ref(live),
        list(table.status_names),
        wanted,
        rows,
    )
    return rows


def rows_by_score(
    engine: VaultEngine, table: NoteTable, rows: np.ndarray, start: int, end: int, now: datetime
) -> list[Memory]:
    """The memories from `start` to `end` of `rows` by score (highest first), ties by path:
    only those are decoded."""
    from cortexgraph_vault.core.decay_arrays import highest

    if end <= 0:
        return []
    near, scores = highest(
        table.use_base[rows],
        table.last_used[rows],
        table.strength[rows],
        now.timestamp(),
        engine.decay,
        end,
    )
    at, paths = rows[near].tolist(), table.paths
    places = _first_places(-scores, end, [paths[r] for r in at])
    shown = [table.notes[at[i]].memory for i in places[start:]]
    return [m for m in shown if m is not None]
