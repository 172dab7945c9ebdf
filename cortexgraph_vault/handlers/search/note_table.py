"""What ranking reads of every note, as arrays: one row a note.

Ranking a broad query at 100k notes looks at 40–60k matches; reading five attributes of each
note object in Python cost most of the search. The table is built once per change of what
notes say (catalog.generation: a save, a touch, an edit) and shared by every search until
the next. A restamp (same bytes, new file time) does not move the counter, so the file time
of a note is not kept here: a search that filters notes by time reads it from the note.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.graph.catalog_memo import CatalogMemo
from cortexgraph_vault.index.catalog.change_log import ADDED, Changes
from cortexgraph_vault.index.notes.records import IndexedNote, MemoryState

NOTE = -1  # status code of a note that is not a memory
COLUMNS = ("status", "use_base", "last_used", "strength", "created")


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
    # rows of removed notes (unreachable; their notes kept, so their ids are not reused)
    dead: frozenset[int]

    @functools.cached_property
    def live(self) -> np.ndarray:
        """The rows of the notes the table holds (not those of removed notes), in the
        catalogue's order. A table's lookups do not change once it is made, so this is worked
        out once per table, not by each list and episode order that asks for it."""
        return np.fromiter(self.row_of.values(), np.int64, len(self.row_of))

    def rows(self, paths: list[str]) -> np.ndarray:
        """The row of each path, -1 for one the table does not hold (looked up in C)."""
        get = self.row_of.get
        return np.fromiter(map(get, paths, repeat(-1)), np.int64, len(paths))

    def status_mask(self, statuses: set[str]) -> np.ndarray:
        """Per status code (shifted by one, NOTE first): whether it is wanted."""
        return np.array(["note" in statuses] + [s in statuses for s in self.status_names])


def _fill(table: NoteTable, codes: dict[str, int], i: int, note: IndexedNote) -> None:
    row = _values(codes, table.status_names, note)
    for column, value in zip(COLUMNS, row, strict=True):
        getattr(table, column)[i] = value


def _fill_memories(table: NoteTable, notes: list[IndexedNote]) -> None:
    """`_fill` for every memory among `notes` (the rest keep a plain note's values), each
    column set in one step: 3,000 memories at 10k notes, five array items each."""
    rows: list[int] = []
    states: list[MemoryState] = []
    for i, note in enumerate(notes):
        state = note.memory_state
        if state is not None:
            rows.append(i)
            states.append(state)
    if not rows:
        return
    codes: dict[str, int] = {}
    for state in states:  # numbered in order of first appearance, as `_fill` numbers them
        if state.status not in codes:
            codes[state.status] = len(codes)
            table.status_names.append(state.status)
    at = np.array(rows, dtype=np.int64)
    table.status[at] = [codes[s.status] for s in states]
    table.use_base[at] = [float(max(1, s.use_count)) for s in states]
    table.last_used[at] = [s.last_used.timestamp() for s in states]
    table.strength[at] = [s.strength for s in states]
    table.created[at] = [s.created.timestamp() if s.created else math.nan for s in states]


def build_table(notes: list[IndexedNote]) -> NoteTable:
    """The table of `notes`, in their order."""
    n = len(notes)
    paths = [note.path for note in notes]
    table = NoteTable(
        paths,
        dict(zip(paths, range(n), strict=True)),
        list(notes),
        np.full(n, NOTE, np.int16),
        [],
        np.ones(n),
        np.zeros(n),
        np.zeros(n),
        np.full(n, math.nan),
        frozenset(),
    )
    _fill_memories(table, notes)
    return table


def _append(table: NoteTable, codes: dict[str, int], note: IndexedNote) -> None:
    """A note given the next row of the table."""
    row = len(table.paths)
    table.paths.append(note.path)
    table.notes.append(note)
    table.row_of[note.path] = row
    _fill(table, codes, row, note)


def _without(before: NoteTable, gone: list[int]) -> NoteTable:
    """The table after changes that only removed notes (a gc forgetting 1,000 memories, each
    removal a change a reader beside it builds a table for): no row is added or filled, so
    the rows' paths, notes and arrays are the last table's, shared (neither changes them); only
    the lookups lose the removed paths: copies of them, made again and again while a gc ran,
    were the warm peak."""
    row_of = dict(before.row_of)
    for i in gone:
        old = before.notes[i]
        if row_of.get(old.path) == i:
            del row_of[old.path]
    table = NoteTable(
        before.paths,
        row_of,
        before.notes,
        before.status,
        before.status_names,
        before.use_base,
        before.last_used,
        before.strength,
        before.created,
        before.dead.union(gone),
    )
    _live_after(before, table, gone, 0)
    return table


def _live_after(before: NoteTable, table: NoteTable, gone: list[int], added: int) -> None:
    """`table.live` from `before.live` when that was worked out: the rows of `gone` left out
    and the `added` last rows put at the end, as the lookups of `table` hold them: a save
    does not read every row's lookup again."""
    if "live" not in before.__dict__:
        return
    live = before.live
    if gone:
        kept = np.ones(len(before.paths), dtype=bool)
        kept[gone] = False
        live = live[kept[live]]
    if added:
        end = len(table.paths)
        live = np.concatenate([live, np.arange(end - added, end, dtype=np.int64)])
    table.__dict__["live"] = live


def updated_table(before: NoteTable, changes: Changes) -> NoteTable | None:
    """`before` brought up to date with the changes made since its state (the catalogue's
    log): only the changed paths' rows are read. The rows come in the catalogue's order, as a
    table built afresh has them: a note replaced where it was keeps its row; a new one (or one
    removed and put back: the catalogue puts it last) takes a row at the end, in the order
    they came. None: a change it cannot place (rebuilt)."""
    row_of = before.row_of
    last_added: dict[str, int] = {}
    for i, (path, flags) in enumerate(changes.changes):
        if flags & ADDED:
            last_added[path] = i
    replaced: list[tuple[int, IndexedNote]] = []
    gone: list[int] = []
    for path, note in changes.notes.items():
        row = row_of.get(path)
        if row is None:
            if note is not None and path not in last_added:
                return None  # held when the table was made, yet not in it: not its state
            continue
        if note is None or path in last_added:
            gone.append(row)
        elif before.notes[row] is not note:
            replaced.append((row, note))
    new = [
        note
        for path in sorted(last_added, key=last_added.__getitem__)
        if (note := changes.notes[path]) is not None
    ]
    if not replaced and not gone and not new:
        return before
    if not replaced and not new:  # notes only went away (a gc): the rows are shared
        return _without(before, gone)
    if not gone and not new:
        return _replaced(before, replaced)
    paths, row_of = list(before.paths), dict(row_of)
    for row in gone:
        del row_of[before.paths[row]]
    table = _grown(before, len(new), paths, row_of, gone)
    codes = {name: i for i, name in enumerate(table.status_names)}
    for row, note in replaced:
        table.notes[row] = note
        _fill(table, codes, row, note)
    for note in new:
        _append(table, codes, note)
    _live_after(before, table, gone, len(new))
    return table


def _grown(
    before: NoteTable,
    grow: int,
    paths: list[str],
    row_of: dict[str, int],
    gone: list[int],
) -> NoteTable:
    """A copy of `before` with `grow` rows more, each a plain note's until it is filled in,
    and the rows of `gone` dead."""

    def copied(a: np.ndarray, fill: float) -> np.ndarray:
        return np.concatenate([a, np.full(grow, fill, dtype=a.dtype)]) if grow else a.copy()

    return NoteTable(
        paths,
        row_of,
        list(before.notes),
        copied(before.status, NOTE),
        list(before.status_names),
        copied(before.use_base, 1.0),
        copied(before.last_used, 0.0),
        copied(before.strength, 0.0),
        copied(before.created, math.nan),
        before.dead.union(gone),
    )


def _replaced(before: NoteTable, replaced: list[tuple[int, IndexedNote]]) -> NoteTable:
    """`before` with notes replaced where they were (touches, edits). Its lookups are
    shared, and so is each column whose values stay (a touch leaves the status and the
    save time as they were: the rows of a status, worked out per status column, are kept)."""
    names = list(before.status_names)
    codes = {name: i for i, name in enumerate(names)}
    rows = [row for row, _ in replaced]
    values = [_values(codes, names, note) for _, note in replaced]
    columns = []
    for k, name in enumerate(COLUMNS):
        column: np.ndarray = getattr(before, name)
        wanted = [v[k] for v in values]
        # compared as Python numbers (a few rows: array steps cost more than the work);
        # a float64 and an int16 of a status code are exactly the Python values they hold
        if not _same_values(column[rows].tolist(), wanted):
            column = column.copy()
            column[rows] = wanted
        columns.append(column)
    notes = list(before.notes)
    for row, note in replaced:
        notes[row] = note
    status, use_base, last_used, strength, created = columns
    table = NoteTable(
        before.paths,
        before.row_of,
        notes,
        status,
        names,
        use_base,
        last_used,
        strength,
        created,
        before.dead,
    )
    if "live" in before.__dict__:  # the same lookups: the same live rows
        table.__dict__["live"] = before.live
    return table


def _same_values(held: list[float], wanted: list[float]) -> bool:
    """Whether the values are equal, NaN equal to NaN (`np.array_equal(equal_nan=True)`)."""
    return all(a == b or (a != a and b != b) for a, b in zip(held, wanted, strict=True))


def _values(
    codes: dict[str, int], names: list[str], note: IndexedNote
) -> tuple[int, float, float, float, float]:
    """A note's row, one value a column (`COLUMNS`); the memory's hot fields: no memory
    decoded to build the table."""
    m = note.memory_state
    if m is None:
        return NOTE, 1.0, 0.0, 0.0, math.nan
    code = codes.get(m.status)
    if code is None:
        code = codes[m.status] = len(codes)
        names.append(m.status)
    created = m.created.timestamp() if m.created else math.nan
    return code, float(max(1, m.use_count)), m.last_used.timestamp(), m.strength, created


def _built(engine: VaultEngine) -> tuple[int, NoteTable]:
    generation, notes = engine.catalog.notes_now()
    return generation, build_table(notes)


# The table of the catalogue as it is now: made again once per change of what notes say
# (catalog.generation), from the last table and the paths changed since.
note_table = CatalogMemo(lambda catalog: catalog.generation, _built, updated_table)
note_table_at = note_table.at  # with the catalogue generation it is the table of
