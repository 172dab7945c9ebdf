"""A long memory list from the note table's arrays (handlers/search/note_table.py): the
memories of the statuses asked for, chosen by their status codes, and the first page by score
from the arrays (`core/decay_arrays.py`, equal bit for bit to `scores_at`, so the order is the
plain one: highest score first, ties by path), only that page's memories decoded.

Only in a process that keeps its catalogue (a daemon, the MCP server: the table is shared by
its calls) and for long lists; a one-shot command keeps the plain path (no numpy to import).
"""

from __future__ import annotations

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


def memory_rows(engine: VaultEngine, wanted: set[str]) -> tuple[NoteTable, np.ndarray] | None:
    """The note table's rows of the memories of the `wanted` statuses (in no particular order):
    a long list counted and chosen without going through every note of the catalogue; None
    where the plain path applies (a short list, a process without a watcher)."""
    if not engine.watching:
        return None

    from cortexgraph_vault.handlers.search.note_table import note_table

    engine.fresh()
    table = note_table(engine)
    live = table.live
    # status codes shifted by one (a plain note first): whether each row's is wanted
    rows: np.ndarray = live[table.status_mask(wanted)[table.status[live] + 1]]
    return (table, rows) if len(rows) >= LONG_LIST else None


def memories_of(table: NoteTable, rows: np.ndarray) -> list[Memory]:
    found = [table.notes[r].memory for r in rows.tolist()]
    return [m for m in found if m is not None]


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
