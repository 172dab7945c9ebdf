"""Vectors of notes, for search by meaning beside search by words.

One unit vector per note, from its title and the start of its text, in one float32 matrix
(10k notes: 10 MB): a query is one matrix-vector product. Each is keyed by a hash of its text,
so a touch or a note unchanged in the cache is not embedded again. (Word-level vectors put
"boss" nearer "lost" than "manager"; everyday synonyms come from core/synonyms.py.)

The catalogue marks notes as changed; `sync` embeds them in one batch before a search looks
(and the watcher after each batch of edits), so every way a note can change is covered.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from cortexgraph_vault.index.vectors.embedder import ModelUnavailable, VectorModel
from cortexgraph_vault.index.vectors.query_vectors import QUERIES
from cortexgraph_vault.index.vectors.vector_rows import (
    KEY_BYTES,
    RENAMED_MAX,
    ExportedVectors,
    VectorRows,
)

if TYPE_CHECKING:
    from cortexgraph_vault.progress import Progress

log = logging.getLogger(__name__)

EMBED_SLICE = 4096  # notes embedded at once by `sync`


def note_text(title: str, aliases: Iterable[str], body: str) -> str:
    head = " ".join([title, *aliases]).strip()
    return f"{head}\n{body.strip()}" if head else body.strip()


def _same(value: object) -> object:
    return value


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=KEY_BYTES).digest()


class SemanticIndex:
    def __init__(self, embedder: Callable[[], VectorModel] | None) -> None:
        self.loader = embedder
        self._embedder: VectorModel | None = None
        self.problem: str | None = None if embedder else "semantic search is turned off"
        self.lock = threading.RLock()
        # Held by whoever is embedding, without `lock`: a note saved or dropped meanwhile
        # waits for nothing, and a `sync` (before a search) waits for the embedding in flight.
        self.embedding = threading.RLock()
        self._notes: VectorRows | None = None
        # (version, rows' index, its `named` then, the list of paths, their rows)
        self._rows_of: (
            tuple[Callable[[], object], VectorRows | None, int, Sequence[str], np.ndarray] | None
        ) = None
        self._stale: set[str] = set()
        self._queries = QUERIES

    @property
    def available(self) -> bool:
        return self.embedder() is not None

    def embedder(self) -> VectorModel | None:
        if self._embedder is None and self.problem is None and self.loader is not None:
            try:
                self._embedder = self.loader()
            except ModelUnavailable as exc:
                self.problem = str(exc)
                log.warning("semantic search unavailable: %s", exc)
        return self._embedder

    def _rows(self) -> VectorRows | None:
        model = self.embedder()
        if model is None:
            return None
        if self._notes is None or self._notes.matrix.shape[1] != model.dim:
            if self._notes is not None:  # cached by another model: every note again
                self._stale |= set(self._notes.row_of)
            self._notes = VectorRows(model.dim)
        return self._notes

    def mark(self, path: str) -> None:
        with self.lock:
            self._stale.add(path)

    def drop(self, path: str) -> None:
        with self.lock:
            self._stale.discard(path)
            if self._notes is not None:
                self._notes.remove(path)

    @property
    def count(self) -> int:
        return len(self._notes) if self._notes is not None else 0

    @property
    def pending(self) -> int:
        return len(self._stale)

    def waiting(self) -> list[str]:
        """The notes marked to be embedded (again)."""
        with self.lock:
            return list(self._stale)

    def sync(
        self,
        text_of: Callable[[str], str | None],
        progress: Progress | None = None,
        slice_size: int = EMBED_SLICE,
        *,
        embed: bool = True,
        only: Iterable[str] | None = None,
    ) -> int:
        """Embed every note marked as changed whose text is new; the number embedded.
        `progress`: told (embedded, to embed) after each slice of `slice_size` notes.
        Not `embed`: only the marks of notes whose vector is of their text are taken off
        (another process makes the vectors, or they are made a few at a time); the others
        stay marked. `only`: those of these notes; the others stay marked."""
        with self.embedding:
            with self.lock:
                chosen = self._stale if only is None else self._stale.intersection(only)
                if not chosen:
                    return 0
                notes = self._rows()
                if notes is None:
                    self._stale.clear()
                    return 0
                todo = []
                for path in chosen:
                    text = text_of(path)
                    if text is None:
                        notes.remove(path)
                    elif notes.key_of(path) != text_key(text):
                        todo.append(path)
                if only is None:
                    self._stale.clear()
                else:
                    self._stale -= chosen
                if not embed:
                    self._stale.update(todo)
                    return 0
                notes.reserve(todo)
                model = self._embedder
            if not todo:
                return 0
            assert model is not None
            # A slice at a time: the texts and vectors of 100k notes at once would be
            # hundreds of megabytes held only to be copied into the matrix.
            if progress is not None:
                progress(0, len(todo))
            for start in range(0, len(todo), slice_size):
                found = [(path, text_of(path)) for path in todo[start : start + slice_size]]
                texts = {path: text for path, text in found if text is not None}
                vectors = model.embed(list(texts.values()))  # the slow part, `lock` free
                with self.lock:
                    if self._notes is not notes:  # the index was replaced meanwhile
                        return 0
                    # A note dropped meanwhile stays dropped; one changed meanwhile is
                    # marked again and embedded anew by the next sync.
                    kept = [i for i, path in enumerate(texts) if text_of(path) is not None]
                    paths = list(texts)
                    notes.put(
                        [paths[i] for i in kept],
                        vectors[kept],
                        [text_key(texts[paths[i]]) for i in kept],
                    )
                if progress is not None:
                    progress(min(start + slice_size, len(todo)), len(todo))
            return len(todo)

    def made(self, paths: Iterable[str]) -> list[tuple[str, bytes, np.ndarray]]:
        """(path, its text's key, its vector) of each of `paths` that has one: what this
        process made, for another process that searches the same vault."""
        with self.lock:
            notes = self._notes
            if notes is None:
                return []
            found = []
            for path in paths:
                row = notes.row_of.get(path)
                if row is not None:
                    found.append((path, notes.keys[row].tobytes(), notes.matrix[row].copy()))
            return found

    def take(
        self, made: Iterable[tuple[str, bytes, np.ndarray]], text_of: Callable[[str], str | None]
    ) -> list[tuple[str, bytes, np.ndarray]]:
        """Vectors another process made (`made`) put in for the notes whose text they are of
        now, their marks taken off; those of another text are given back (a note whose
        change this process has not taken in yet, or changed again since)."""
        other = []
        with self.lock:
            notes = self._rows()
            if notes is None:
                return []
            paths, vectors, keys = [], [], []
            for path, key, vector in made:
                text = text_of(path)
                if (
                    text is None
                    or text_key(text) != key
                    or vector.shape != (notes.matrix.shape[1],)
                ):
                    other.append((path, key, vector))
                    continue
                paths.append(path)
                vectors.append(vector)
                keys.append(key)
                self._stale.discard(path)
            if paths:
                notes.put(paths, np.stack(vectors), keys)
        return other

    def query_vector(self, text: str) -> np.ndarray | None:
        """The vector of a query (read-only: the last few are remembered by their text)."""
        model = self.embedder()
        return None if model is None else self._queries.of(model, text)

    def vector_of(self, path: str) -> np.ndarray | None:
        with self.lock:
            notes = self._notes
            row = notes.row_of.get(path) if notes is not None else None
            return None if notes is None or row is None else notes.matrix[row].copy()

    def rows_of(
        self, paths: Sequence[str], version: object, index: Mapping[str, int] | None = None
    ) -> np.ndarray:
        """The vector row of each of `paths` (-1 for none), kept while neither `version`
        (whoever asks names the list's state) nor the rows' names change: a table of every
        note asks once per change, not once per search. Call holding `lock`.

        `index`: the position in `paths` of each path the caller will read the row of. With
        it, when `paths` is the last list or that list with paths added at its end (a save),
        only the added paths and the names that got or lost a row since are looked up; a
        position `index` does not name may then keep an older row."""
        notes = self._notes
        named = notes.named if notes is not None else 0
        cached = self._rows_of
        if cached is not None and cached[1] is notes:
            if cached[0]() is version and cached[2] == named:
                return cached[4]
            rows = self._rows_after(cached, paths, index) if index is not None else None
        else:
            rows = None
        if rows is None:
            row_of: dict[str, int] = notes.row_of if notes is not None else {}
            rows = np.fromiter(map(row_of.get, paths, repeat(-1)), dtype=np.int64, count=len(paths))
        # The version by a weak reference: a table of every note (100k notes: ~16 MB) is not
        # kept alive here after its owner has replaced it.
        try:
            held: Callable[[], object] = weakref.ref(version)
        except TypeError:  # a version that takes no weak reference is held
            held = partial(_same, version)
        self._rows_of = (held, notes, named, paths, rows)
        return rows

    def _rows_after(
        self,
        cached: tuple[Callable[[], object], VectorRows | None, int, Sequence[str], np.ndarray],
        paths: Sequence[str],
        index: Mapping[str, int],
    ) -> np.ndarray | None:
        """`rows_of` from the rows made for an earlier list (`cached`), or None."""
        notes, named, before, rows = cached[1], cached[2], cached[3], cached[4]
        if notes is None:
            return None
        renamed = notes.renamed_since(named)
        if renamed is None or len(renamed) > RENAMED_MAX:
            return None
        k = len(before)
        if paths is not before and (len(paths) < k or paths[:k] != before):
            return None  # (the items are compared by identity first: one pass in C)
        row_of = notes.row_of
        added = paths[k:]
        rows = np.concatenate(
            [rows, np.fromiter(map(row_of.get, added, repeat(-1)), np.int64, len(added))]
        )
        for name in renamed:
            at = index.get(name)
            if at is not None and at < len(rows) and paths[at] == name:
                rows[at] = row_of.get(name, -1)
        return rows

    def nearest_arrays(
        self, vec: np.ndarray, k: int, min_cos: float, also: np.ndarray
    ) -> tuple[list[tuple[str, float]], np.ndarray]:
        """The k notes nearest to `vec` (those at least `min_cos`), and the cosine at each
        row of `also` (0.0 for -1, a note with no vector) as an array — no dict of every word
        match. `also`: rows from `rows_of`, under the same hold of `lock`."""
        with self.lock:
            notes = self._notes
            if notes is None or not len(notes):
                return [], np.zeros(len(also))
            sims = notes.scores(vec)
            top: list[tuple[str, float]] = []
            if k > 0:
                k = min(k, sims.shape[0])
                rows = np.argpartition(-sims, k - 1)[:k] if k < sims.shape[0] else range(k)
                for row in rows:
                    name = notes.names[row]
                    if name is not None and sims[row] >= min_cos:
                        top.append((name, float(sims[row])))
            cosines = np.where(also >= 0, sims[np.maximum(also, 0)], 0.0).astype(np.float64)
            return top, cosines

    def export(self) -> ExportedVectors | None:
        """The vectors for the cache: the matrix itself, not a copy (see `VectorRows`); `paths`
        names each row, None for a free one."""
        with self.lock:
            if self._notes is None:
                return None
            matrix, keys = self._notes.used()
            paths, pending = list(self._notes.names), sorted(self._stale)
            return {"paths": paths, "keys": keys, "notes": matrix, "pending": pending}

    def restore(self, data: ExportedVectors, known: Iterable[str]) -> None:
        """Take vectors from the cache; notes it lacks are marked to be embedded. The model
        itself is not loaded here: a command that never searches by meaning never pays for it.
        The matrix given becomes the index's own (a loaded cache's: not copied)."""
        if self.loader is None:
            return
        known = set(known)
        paths, keys, matrix = data["paths"], data["keys"], data["notes"]
        if len(paths) != len(keys) or matrix.ndim != 2 or matrix.shape[0] != len(paths):
            raise ValueError("note vectors are damaged")
        if keys.shape != (len(paths), KEY_BYTES) or keys.dtype != np.uint8:
            raise ValueError("note vector keys are damaged")
        with self.lock:
            usable = matrix.dtype == np.float32 and matrix.flags.c_contiguous
            if self._notes is None and usable and matrix.flags.writeable and keys.flags.writeable:
                # the loaded matrix becomes the index's own (the caller gives it up): no
                # copy of 100 MB
                notes = self._notes = VectorRows(int(matrix.shape[1]), matrix, keys)
                row_of, names, free = notes.row_of, notes.names, notes.free
                for row, path in enumerate(paths):
                    if path is not None and path in known and path not in row_of:
                        row_of[path] = row
                        names.append(path)
                    else:
                        names.append(None)
                        free.append(row)
                if free:  # cleared in one step each, not row by row (a thousand spare rows)
                    matrix[free] = 0.0
                    keys[free] = 0
            else:
                if self._notes is None:
                    self._notes = VectorRows(int(matrix.shape[1]))
                notes = self._notes
                keep = [i for i, p in enumerate(paths) if p is not None and p in known]
                kept = [p for p in paths if p is not None and p in known]
                notes.put(kept, matrix[keep], [keys[i].tobytes() for i in keep])
            self._stale |= (known - set(notes.row_of)) | (set(data["pending"]) & known)
