"""The note vectors' matrix (index/vectors/semantic.py): a row per note, named by its path, with
the key of the text it was made from, and a journal of the names that got or lost a row (what
`SemanticIndex.rows_of` brings its rows up to date from)."""

from __future__ import annotations

import sys
from typing import TypedDict

import numpy as np

KEY_BYTES = 12
# names whose row changed, kept for `rows_of` to bring its rows up to date from; past this
# many since its rows were made (or older than the journal holds), they are made again
RENAMED_MAX = 256


class ExportedVectors(TypedDict):
    """The vectors as the cache holds them (`SemanticIndex.export`, `cache_records`): `paths`
    names each row of the arrays, None for a free one; `pending` waits to be embedded again."""

    paths: list[str | None]
    keys: np.ndarray
    notes: np.ndarray
    pending: list[str]


class VectorRows:
    """Unit vectors by name in a growing matrix, each with the key of the text it was made
    from (a row of `keys`: 12 bytes, not a bytes object and a dict entry); freed rows are
    reused.

    The matrix is handed to the cache writer as it is, not copied (100k notes: 100 MB);
    the first change after that copies it instead (`shared`), so the writer's view never
    changes under it.
    """

    def __init__(
        self, dim: int, matrix: np.ndarray | None = None, keys: np.ndarray | None = None
    ) -> None:
        self.matrix = matrix if matrix is not None else np.zeros((0, dim), dtype=np.float32)
        rows = self.matrix.shape[0]
        self.keys = keys if keys is not None else np.zeros((rows, KEY_BYTES), dtype=np.uint8)
        self.row_of: dict[str, int] = {}
        self.names: list[str | None] = []
        self.free: list[int] = []
        self.shared = False
        self.named = 0  # bumped when a name gets or loses its row (rows of names kept)
        # the name of each of the last bumps of `named`: `renamed[i]` is bump
        # `renamed_base + i + 1` (trimmed by half past 2 * RENAMED_MAX)
        self.renamed: list[str] = []
        self.renamed_base = 0

    def __len__(self) -> int:
        return len(self.row_of)

    def reserve(self, names: list[str]) -> None:
        """Room for these names in one step (a cold start: no doublings). A name with a row
        keeps it and a new one takes a free row first: an edit never copies the matrix (100
        MB at 100k notes); growing it, by a quarter at least, as `_grow` does."""
        n = len(self.names)
        rows = n + max(0, sum(1 for name in names if name not in self.row_of) - len(self.free))
        if rows > self.matrix.shape[0]:
            self._resize(max(rows, n + n // 4))

    def _resize(self, rows: int) -> None:
        n = len(self.names)
        # np.zeros pages are not touched (not resident) until written
        bigger = np.zeros((rows, self.matrix.shape[1]), dtype=np.float32)
        bigger[:n] = self.matrix[:n]
        keys = np.zeros((rows, KEY_BYTES), dtype=np.uint8)
        keys[:n] = self.keys[:n]
        self.matrix, self.keys = bigger, keys
        self.shared = False

    def _own(self) -> None:
        # Copied only while the cache writer still holds its views (each holds the array
        # as its `base`): once it is done, the first change after an export copies nothing.
        if self.shared and (sys.getrefcount(self.matrix) > 2 or sys.getrefcount(self.keys) > 2):
            self.matrix = self.matrix.copy()
            self.keys = self.keys.copy()
        self.shared = False

    def key_of(self, name: str) -> bytes | None:
        row = self.row_of.get(name)
        return None if row is None else self.keys[row].tobytes()

    def put(self, names: list[str], vectors: np.ndarray, keys: list[bytes]) -> None:
        self._own()
        for name, vec, key in zip(names, vectors, keys, strict=True):
            row = self.row_of.get(name)
            if row is None:
                row = self.free.pop() if self.free else self._grow()
                self.row_of[name] = row
                self.names[row] = name
                self._renamed(name)
            self.matrix[row] = vec
            self.keys[row] = np.frombuffer(key.ljust(KEY_BYTES, b"\0")[:KEY_BYTES], np.uint8)

    def _renamed(self, name: str) -> None:
        self.named += 1
        self.renamed.append(name)
        if len(self.renamed) > 2 * RENAMED_MAX:
            del self.renamed[:RENAMED_MAX]
            self.renamed_base += RENAMED_MAX

    def renamed_since(self, named: int) -> list[str] | None:
        """The names that got or lost a row since `named` was the count, or None when the
        journal no longer reaches back that far."""
        if named < self.renamed_base:
            return None
        return self.renamed[named - self.renamed_base :]

    def _grow(self) -> int:
        n = len(self.names)
        if n == self.matrix.shape[0]:
            # by a quarter, not double: at 100k notes a doubling is 100 MB for one new note
            self._resize(max(64, n + n // 4))
        self.names.append(None)
        return n

    def remove(self, name: str) -> None:
        row = self.row_of.pop(name, None)
        if row is not None:
            self._renamed(name)
            self._own()
            self.names[row] = None
            self.matrix[row] = 0.0
            self.keys[row] = 0
            self.free.append(row)

    def used(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows in use so far (free ones are zero) and their keys, as views, marked
        shared."""
        self.shared = True
        n = len(self.names)
        return self.matrix[:n], self.keys[:n]

    def scores(self, vec: np.ndarray) -> np.ndarray:
        """Cosine of `vec` with every row (0 for free rows). einsum, not BLAS: a threaded
        matrix-vector product stalls on a busy machine (its slowest calls, not its median)."""
        cosines: np.ndarray = np.einsum("ij,j->i", self.matrix[: len(self.names)], vec)
        return cosines
