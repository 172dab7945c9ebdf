"""Where the notes parsed by worker processes keep their cold fields until the cache holds them.

A worker sends each note's cold fields (frontmatter, body, links, memory) encoded; kept in the
process as bytes, 100k notes held 250 MB until the cache was written (the peak of a cold
start). They go instead to an unnamed temporary file beside the cache as each frame arrives,
and are read back by position when something needs them; the cache writer copies them from
there, and the notes then read the cache. The file has no name (or loses it at once), so a
killed process leaves nothing behind, and it is removed when no note reads it any more.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from cortexgraph_vault.index.notes.records import IndexedNote

log = logging.getLogger(__name__)


class ColdSpool:
    def __init__(self, folder: Path) -> None:
        # created 0600 (the notes' text); an O_TMPFILE file where the system has it
        self._file = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 (lives with the notes)
        self._fd = self._file.fileno()
        self._end = 0
        self._broken = False

    @classmethod
    def beside(cls, folder: Path | None) -> ColdSpool | None:
        """A spool in `folder`, or None (no folder, no positional reads, or it cannot be
        made): the notes then keep their bytes."""
        if folder is None or not hasattr(os, "pread") or os.name == "nt":
            return None
        try:
            return cls(folder)
        except OSError as exc:
            log.info("%s: no room for parsed notes' fields (%s); kept in memory", folder, exc)
            return None

    def bytes_at(self, offset: int, length: int) -> bytes:
        found = os.pread(self._fd, length, offset)
        if len(found) != length:
            raise ValueError("a parsed note's fields are missing from the spool")
        return found

    def keep(self, notes: Iterable[IndexedNote | None]) -> None:
        """The notes holding their fields in bytes of their own read them from here from
        now on (not yet seen by any other thread: they are changed in place)."""
        if self._broken:
            return
        placed = []
        try:
            for note in notes:
                data = note.held_bytes() if note is not None else None
                if data is not None:
                    self._file.write(data)
                    placed.append((note, self._end, len(data)))
                    self._end += len(data)
            self._file.flush()
        except OSError as exc:  # a full disk: what is not written stays in memory
            log.info("parsed notes' fields kept in memory (%s)", exc)
            self._broken = True
            return
        for note, at, length in placed:
            assert note is not None
            note.moved_to(self, at, length)
