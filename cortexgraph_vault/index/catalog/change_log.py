"""Which path each recent change of the catalogue was about, by generation.

Under load a daemon's read process takes in a change every few milliseconds (a touch, a
save), and what it derives from the whole catalogue (the note table, who relates to whom, the
episodes) is not made again after each: with the paths a generation changed, those values are
brought up to date for these paths alone. The log is bounded: a value older than what it
holds (or made before the catalogue was taken over whole) is built again.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from cortexgraph_vault.index.notes.records import IndexedNote

ADDED = 1  # the path held no note before this change
REMOVED = 2  # the path holds no note after it
RELATIONS = 4  # what memories say of each other may have changed (relation_generation moved)
LIMIT = 512  # changes kept; a value older than that is built again


@dataclass(frozen=True)
class Changes:
    """The changes after a generation, oldest first, with each changed path's note now."""

    generation: int  # the catalogue's generation they bring a value up to
    changes: list[tuple[str, int]]  # (path, ADDED | REMOVED | RELATIONS flags), one a generation
    notes: dict[str, IndexedNote | None]  # each changed path's note now (None: none)

    @property
    def relations(self) -> bool:
        """Whether any change may have changed what memories say of each other."""
        return any(flags & RELATIONS for _, flags in self.changes)


class ChangeLog:
    """(generation, path, flags) of the last changes, in order. A change of what a note says
    moves the generation by one; a restamp (same bytes, new file time) does not, and is
    recorded with the next generation's changes, so a value made since is not missing it (the
    note objects it holds are the newest). Used under the catalogue's lock."""

    def __init__(self) -> None:
        self._known_after = 0  # changes after this generation are all here
        self._gens: list[int] = []
        self._entries: list[tuple[str, int]] = []

    def record(self, generation: int, path: str, flags: int) -> None:
        last = self._gens[-1] if self._gens else self._known_after
        if not last <= generation <= last + 1:  # a gap: what came between is unknown
            self.reset(generation - 1)
        self._gens.append(generation)
        self._entries.append((path, flags))
        if len(self._entries) > 2 * LIMIT:  # trimmed by half at a time, not at every change
            cut = bisect_right(self._gens, self._gens[LIMIT])
            self._known_after = self._gens[cut - 1]
            del self._gens[:cut], self._entries[:cut]

    def reset(self, generation: int) -> None:
        """Nothing known about the changes up to `generation` (the catalogue taken over whole)."""
        self._known_after = generation
        self._gens, self._entries = [], []

    def since(self, generation: int) -> list[tuple[str, int]] | None:
        """The changes after `generation` (up to now), or None when the log no longer holds
        them all."""
        if generation < self._known_after:
            return None
        return self._entries[bisect_right(self._gens, generation) :]
