"""What ranking reads of every note, as arrays: one row a note.

Ranking a broad query at 100k notes looks at 40–60k matches; reading five attributes of each
note object in Python cost most of the search. The table is built once per change of what
notes say (catalog.generation: a save, a touch, an edit) and shared by every search until
the next. A restamp (same bytes, new file time) does not move the counter, so the file time
of a note is not kept here: a search that filters notes by time reads it from the note.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass
from itertools import compress, repeat
from operator import not_

import numpy as np

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.records import IndexedNote

NOTE = -1  # status code of a note that is not a memory


@dataclass(frozen=True, eq=False)
class NoteTable:
    paths: list[str]
    row_of: dict[str, int]
    notes: list[IndexedNote]
    status: np.ndarray  # int16: index into status_names, NOTE for a plain note
    status_names: list[str]
    use_base: np.ndarray  # float(max(1, use_count)); 1.0 for notes
    last_used: np.ndarray  # POSIX seconds; 0.0 for notes
    strength: np.ndarray  # 0.0 for notes
    created: np.ndarray  # POSIX seconds of a memory's save; nan when none
    id_row: dict[int, int]  # id() of each note object held → its row

    def rows(self, paths: list[str]) -> np.ndarray:
        """The row of each path, -1 for one the table does not hold (looked up in C)."""
        get = self.row_of.get
        return np.fromiter(map(get, paths, repeat(-1)), np.int64, len(paths))

    def status_mask(self, statuses: set[str]) -> np.ndarray:
        """Per status code (shifted by one, NOTE first): whether it is wanted."""
        return np.array(["note" in statuses] + [s in statuses for s in self.status_names])


def _fill(table: NoteTable, codes: dict[str, int], i: int, note: IndexedNote) -> None:
    m = note.memory_unkept()  # five numbers of each of 30k memories: none kept decoded
    if m is None:
        table.status[i], table.use_base[i], table.last_used[i] = NOTE, 1.0, 0.0
        table.strength[i], table.created[i] = 0.0, math.nan
        return
    code = codes.get(m.status)
    if code is None:
        code = codes[m.status] = len(codes)
        table.status_names.append(m.status)
    table.status[i] = code
    table.use_base[i] = float(max(1, m.use_count))
    table.last_used[i] = m.last_used.timestamp()
    table.strength[i] = m.strength
    table.created[i] = m.created.timestamp() if m.created else math.nan


def build_table(notes: list[IndexedNote], before: NoteTable | None = None) -> NoteTable:
    """The table of `notes`; from `before` (the table of an earlier state), only the notes
    that changed are read again. Notes are immutable records: a changed note is a new
    object, so a note is new when its object is (the old table holds the old objects, so
    their ids cannot be reused meanwhile). Rows of removed notes stay, unreachable."""
    if before is None or len(notes) < len(before.paths) // 2:
        n = len(notes)
        paths = [note.path for note in notes]
        table = NoteTable(paths, dict(zip(paths, range(n), strict=True)), list(notes),
                          np.full(n, NOTE, np.int16), [], np.ones(n), np.zeros(n), np.zeros(n),
                          np.full(n, math.nan), {id(x): i for i, x in enumerate(notes)})  # fmt: skip
        codes: dict[str, int] = {}
        for i, note in enumerate(notes):
            if note.kind != "note":  # a note of a memory folder may have none: _fill says so
                _fill(table, codes, i, note)
        return table
    old_ids = before.id_row
    # set operations and iterators in C: no Python step per unchanged note
    fresh = list(compress(notes, map(not_, map(old_ids.__contains__, map(id, notes)))))
    gone = [old_ids[key] for key in old_ids.keys() - set(map(id, notes))]
    grow = len(fresh)

    def more(a: np.ndarray, fill: float) -> np.ndarray:
        return np.concatenate([a, np.full(grow, fill, dtype=a.dtype)])

    table = NoteTable(list(before.paths), dict(before.row_of), list(before.notes),
                      more(before.status, NOTE), list(before.status_names),
                      more(before.use_base, 1.0), more(before.last_used, 0.0),
                      more(before.strength, 0.0), more(before.created, math.nan),
                      dict(old_ids))  # fmt: skip
    codes = {name: i for i, name in enumerate(table.status_names)}
    for i in gone:
        old = table.notes[i]
        del table.id_row[id(old)]
        if table.row_of.get(old.path) == i:
            del table.row_of[old.path]
    for note in fresh:
        i = len(table.paths)
        table.paths.append(note.path)
        table.notes.append(note)
        table.row_of[note.path] = i
        table.id_row[id(note)] = i
        _fill(table, codes, i, note)
    return table


_tables: weakref.WeakKeyDictionary[VaultEngine, tuple[object, int, NoteTable]] = (
    weakref.WeakKeyDictionary()
)
_lock = threading.Lock()


def note_table(engine: VaultEngine) -> NoteTable:
    """The table of the catalogue as it is now: built again once per change of what notes
    say (catalog.generation), from the last table."""
    catalog = engine.catalog
    # Read before building: a change while building leaves an older count beside the newer
    # table, so the next call builds again rather than keeping a stale one.
    state = (catalog, catalog.generation)
    with _lock:
        cached = _tables.get(engine)
    if cached is not None and cached[:2] == state:
        return cached[2]
    before = cached[2] if cached is not None and cached[0] is catalog else None
    table = build_table(catalog.notes(), before)
    with _lock:
        _tables[engine] = (*state, table)
    return table
