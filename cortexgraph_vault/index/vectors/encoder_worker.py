"""The sentence encoder's big batches in a worker process, small ones here.

A vault's first fill keeps a core busy for minutes. On a thread of this process it held the
interpreter lock between its numpy calls, and a search waited for it (a touch took twice as
long); lowered in priority, the thread was descheduled while holding the lock, and the search
waited longer still. A worker process shares no lock with the searches and its lower priority
is its own. It is one of index/worker_process.py's: texts go in as JSON, vectors come back
as float32 bytes, each framed by its length. It ends when the fill is done (`let_go`); queries and a few new notes are
embedded in this process.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, TYPE_CHECKING

from cortexgraph_vault.index.vectors.minilm import (
    DIM,
    WEIGHTS,
    SentenceEncoder,
    load_encoder,
    shared_encoder,
)
from cortexgraph_vault.index.worker_process import LENGTH, start_worker

if TYPE_CHECKING:
    import numpy as np

IN_PROCESS = 16  # texts embedded here rather than sent to the worker
NICE = 10


def _frame(out: IO[bytes], data: bytes) -> None:
    out.write(LENGTH.pack(len(data)) + data)
    out.flush()


def _read(source: IO[bytes]) -> bytes | None:
    head = source.read(LENGTH.size)
    if len(head) < LENGTH.size:
        return None
    (size,) = LENGTH.unpack(head)
    data = source.read(size)
    return data if len(data) == size else None


class WorkerEncoder:
    """`SentenceEncoder`'s vectors, the many made by a worker process."""

    dim = DIM

    def __init__(self, source: Path) -> None:
        self.source = str(source)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    @functools.cached_property
    def local(self) -> SentenceEncoder:
        """Loaded here when first needed (a query, a few notes): a process whose vectors are
        still being made keeps only the worker's copy (65 MB)."""
        return shared_encoder(Path(self.source))

    def embed(self, texts: list[str]) -> np.ndarray:
        if len(texts) <= IN_PROCESS:
            return self.local.embed(texts)
        import numpy as np

        with self._lock:
            proc = self._worker()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                _frame(proc.stdin, json.dumps(texts).encode())
                data = _read(proc.stdout)
            except OSError:
                data = None
            if data is None or len(data) != len(texts) * DIM * 4:
                self._stop()
                raise RuntimeError(f"the sentence encoder's worker ended (exit {proc.poll()})")
        return np.frombuffer(data, dtype="<f4").reshape(len(texts), DIM).astype(np.float32)

    def embed_one(self, text: str) -> np.ndarray:
        return self.local.embed_one(text)

    def let_go(self, now: float) -> None:
        """The worker ends: the fill is done."""
        with self._lock:
            self._stop()

    def _worker(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = start_worker(__name__, CORTEXGRAPH_ENCODER_WEIGHTS=self.source)
        return self._proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(OSError):
                assert proc.stdin is not None
                proc.stdin.close()  # the worker's end of input: it exits
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


@functools.cache
def shared_worker_encoder() -> WorkerEncoder:
    """The process's encoder, with a worker; `ModelUnavailable` when its file is missing
    (a damaged one fails its first use: the worker's load, or `shared_encoder` here)."""
    if not WEIGHTS.is_file():
        load_encoder(WEIGHTS)  # raises, naming the file and the fix
    return WorkerEncoder(WEIGHTS)


def worker_main() -> None:
    """A worker: embed each batch of texts read from stdin until it closes."""
    with contextlib.suppress(OSError):
        os.nice(NICE)
    encoder = load_encoder(Path(os.environ["CORTEXGRAPH_ENCODER_WEIGHTS"]))
    source, out = sys.stdin.buffer, sys.stdout.buffer
    while (data := _read(source)) is not None:
        _frame(out, encoder.embed(json.loads(data)).astype("<f4").tobytes())
