"""The sentence encoder's note vectors (minilm.py), made behind the searches.

A long note costs the encoder about half a second of one core, so a vault's vectors are made
behind the searches, a slice at a time, by a low-priority worker process
(encoder_worker.py) a thread of this one feeds, and kept in a file beside the index
cache (`<cache>.meaning`) so a restart embeds only what changed. A search uses them only
when every note has its vector (`ready`: a few new ones, a memory just saved, are embedded on
the spot); until then it uses the word vectors exactly as before, so quality never drops
below theirs while these are made.

A note's vector is keyed by the hash of the text it was made from (semantic.py `text_key`,
the same text as the word vectors'): the file is checked against the notes as they are
when loaded, and a note changed since is embedded again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.index.vectors.embedder import ModelUnavailable
from cortexgraph_vault.index.vectors.minilm import MAX_CHARS

if TYPE_CHECKING:
    from cortexgraph_vault.index.vectors.embedder import VectorModel
    from cortexgraph_vault.index.vectors.semantic import SemanticIndex
    from cortexgraph_vault.index.vectors.vector_rows import ExportedVectors

log = logging.getLogger(__name__)

# A search embeds the notes waiting itself when they are this few and this short (a memory
# just saved); an edited page or more goes to the thread, the word vectors meanwhile.
ON_THE_SPOT = 16
ON_THE_SPOT_CHARS = 2000
SLICE = 64  # notes embedded between two saves of the file
# The fill starts this long after the search that asked for it, which answers first: the
# fill's first step (every note's text and its hash) would hold the interpreter meanwhile.
START_AFTER = 1.0


class MeaningVectors:
    def __init__(
        self,
        loader: Callable[[], VectorModel] | None,
        known: Callable[[], Iterable[str]],
        text_of: Callable[[str], str | None],
    ) -> None:
        self.loader = loader
        self.known = known
        self.text_of = text_of
        self.file: Path | None = None  # set by the index cache
        self.behind = True  # a process that makes one call starts no thread
        self._index: SemanticIndex | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.broken: str | None = None  # why the last fill failed: none is tried again

    @property
    def index(self) -> SemanticIndex:
        """Made when first needed, from the file when there is one; every note is then
        marked, so the next fill checks each one's text against its vector's key."""
        with self._lock:
            if self._index is None:
                from cortexgraph_vault.index.vectors.semantic import SemanticIndex

                index = SemanticIndex(self.loader)
                known = list(self.known())
                if self.loader is not None and self.file is not None and self.file.exists():
                    try:
                        index.restore(_read(self.file), known)
                    except Exception as exc:  # a damaged file costs an embedding
                        log.warning("%s unusable (%s); embedding again", self.file, exc)
                        index = SemanticIndex(self.loader)
                for path in known:
                    index.mark(path)
                self._index = index
            return self._index

    def reset(self) -> None:
        """Every note anew (the catalogue took over another state): made again from the file."""
        if self._index is not None:
            self.save()
            self._index = None

    def mark(self, path: str) -> None:
        if self._index is not None:  # else marked when made
            self._index.mark(path)

    def drop(self, path: str) -> None:
        if self._index is not None:
            self._index.drop(path)

    @property
    def filling(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def ready(self) -> SemanticIndex | None:
        """The index when every note has its vector (a few missing are made now), else None
        and the missing ones are made behind."""
        if self.loader is None or self.filling or self.broken is not None:
            return None
        index = self.index
        waiting = index.waiting() if index.pending <= ON_THE_SPOT else None
        texts = [self.text_of(path) or "" for path in waiting or ()]
        if waiting is None or sum(min(len(t), MAX_CHARS) for t in texts) > ON_THE_SPOT_CHARS:
            self.fill_behind()
            return None
        try:
            index.sync(self.text_of)
        except ModelUnavailable as exc:  # this process's copy (the worker's loaded)
            log.warning("sentence encoder unavailable: %s", exc)
            self.broken = str(exc)
            return None
        return index if index.available and not index.pending else None

    def wait(self) -> SemanticIndex | None:
        """`ready`, once the thread has made every vector (a benchmark, a test); None when
        the model cannot be loaded or turned off."""
        while (found := self.ready()) is None and self.loader is not None:
            thread = self.fill_behind()
            if thread is None or self.index.problem is not None or self.broken is not None:
                return None
            thread.join()
        return found

    def fill_behind(self) -> threading.Thread | None:
        """Start making the missing vectors on a thread of their own (one at a time)."""
        if self.loader is None or not self.behind or self.broken is not None:
            return None
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._fill, name="cgv-meaning", daemon=True)
                self._thread.start()
            return self._thread

    def _fill(self) -> None:
        time.sleep(START_AFTER)
        index = self.index
        try:
            made = index.sync(self.text_of, lambda done, _: self.save(), SLICE)
            if made or not index.count:
                self.save()
        except Exception as exc:  # the word vectors serve the searches; the cause to the log
            log.exception("making the sentence encoder's note vectors failed")
            self.broken = f"making the sentence encoder's note vectors failed ({exc})"
        finally:
            model = index.embedder()
            if model is not None:
                model.let_go(0.0)  # its worker process ends

    def save(self) -> None:
        """The vectors to the file (written aside, then renamed over it)."""
        import numpy as np

        index = self._index
        exported = index.export() if index is not None else None
        if self.file is None or exported is None:
            return
        used = [i for i, path in enumerate(exported["paths"]) if path is not None]
        aside = self.file.with_name(f"{self.file.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with aside.open("wb") as f:
                np.savez(
                    f,
                    paths=np.array([exported["paths"][i] for i in used], dtype=str),
                    keys=exported["keys"][used],
                    notes=exported["notes"][used],
                )
            os.replace(aside, self.file)
        except OSError as exc:
            log.warning("%s: the note vectors could not be kept (%s)", self.file, exc)
            aside.unlink(missing_ok=True)


def _read(path: Path) -> ExportedVectors:
    import numpy as np

    with np.load(path, allow_pickle=False) as found:
        paths: list[str | None] = [str(p) for p in found["paths"]]
        return {"paths": paths, "keys": found["keys"], "notes": found["notes"], "pending": []}
