"""What ranking reads of every note, as arrays: one row a note.

Ranking a broad query at 100k notes looks at 40–60k matches; reading five attributes of each
note object in Python cost most of the search. The table is built once per change of what
notes say (catalog.generation: a save, a touch, an edit) and shared by every search until
the next. A restamp (same bytes, new file time) does not move the counter, so the file time
of a note is not kept here: a search that filters notes by time reads it from the note.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.records import IndexedNote
from cortexgraph_vault.ops.catalog_memo import CatalogMemo

NOTE = -1  # status code of a note that is not a memory


@dataclass(frozen=True)
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

    def rows(self, paths: list[str]) -> np.ndarray:
        """The row of each path, -1 for one the table does not hold (looked up in C)."""
        get = self.row_of.get
        return np.fromiter(map(get, paths, repeat(-1)), np.int64, len(paths))

    def status_mask(self, statuses: set[str]) -> np.ndarray:
        """Per status code (shifted by one, NOTE first): whether it is wanted."""
        return np.array(["note" in statuses] + [s in statuses for s in self.status_names])


def build_table(engine: VaultEngine) -> NoteTable:
    notes = engine.catalog.notes()
    n = len(notes)
    codes: dict[str, int] = {}
    status = np.full(n, NOTE, np.int16)
    use_base = np.ones(n)
    last_used = np.zeros(n)
    strength = np.zeros(n)
    created = np.full(n, math.nan)
    for i, note in enumerate(notes):
        m = note.memory
        if m is None:
            continue
        code = codes.get(m.status)
        if code is None:
            code = codes[m.status] = len(codes)
        status[i] = code
        use_base[i] = float(max(1, m.use_count))
        last_used[i] = m.last_used.timestamp()
        strength[i] = m.strength
        if m.created:
            created[i] = m.created.timestamp()
    paths = [note.path for note in notes]
    return NoteTable(paths, dict(zip(paths, range(n), strict=True)), notes, status, list(codes),
                     use_base, last_used, strength, created)  # fmt: skip


note_table = CatalogMemo(lambda catalog: catalog.generation, build_table)
