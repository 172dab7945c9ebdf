"""Parsing many notes at once on every core (a cold start, a re-index, a big checkout).

YAML, links, tags and words cost about half a millisecond a note; 10k notes on one core take
longer than a person should wait. Worker processes read and parse slices of the files and
stream back what the index keeps, while this process adds them as they arrive.

The workers are plain `python -c` subprocesses speaking length-prefixed pickles over their
stdin/stdout, not multiprocessing: that would re-run the caller's `__main__` in each worker
(any script without a main guard would spawn itself again), and forking a process that may
run threads is unsafe. Whatever goes wrong with them, the files are parsed here instead.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import pickle
import selectors
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.index.catalog.file_reads import read_note_file
from cortexgraph_vault.index.catalog.vault_walk import Walked
from cortexgraph_vault.index.notes.records import IndexedNote, index_bytes, with_words
from cortexgraph_vault.index.worker_process import LENGTH, start_worker
from cortexgraph_vault.vault.anchored import HeldFolder
from cortexgraph_vault.vault.layout import VaultLayout

if TYPE_CHECKING:  # the word index loads numpy: the workers need it first, not the caller
    from cortexgraph_vault.index.text.document_terms import TermStats
    from cortexgraph_vault.index.text.posting_lists import PostingBlock

log = logging.getLogger(__name__)

# Below this many files, starting processes costs more than it saves.
PARALLEL_MIN = 1500
FRAME = 500  # notes per message parsed here
# A worker's message: about a quarter of its share, within these bounds. Larger messages
# mean fewer (term, message) pairs for the receiving process to add (a term recurs in most of
# them), and that process shares the CPU the workers need.
# Smaller ones, that the first notes arrive sooner (and the progress bar moves more often).
FRAME_MIN, FRAME_MAX = 200, 4000


def frame_size(files: int, workers: int) -> int:
    return max(FRAME_MIN, min(FRAME_MAX, files // (workers * 4)))


if TYPE_CHECKING:
    # (path, parsed note and its words | None when the file is gone, why it is unreadable)
    Parsed = tuple[str, IndexedNote | None, TermStats | None, str | None]
    # Notes parsed together; from a worker, their words come as one block of postings (and
    # each note's own TermStats is None), so the receiving process only renumbers them.
    Frame = tuple[list[Parsed], PostingBlock | None]


def worker_count() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(4, cores or 1)


def parse_file(
    root: Path,
    rel: str,
    layout: VaultLayout,
    max_bytes: int,
    real_root: str | None = None,
    held: HeldFolder | None = None,
) -> Parsed:
    """`real_root`: the root's real path, when the caller resolved it already; `held`: the
    folder of the file parsed before (files parsed in a row)."""
    path = os.path.join(root, rel)
    got = read_note_file(path, real_root or os.path.realpath(root), max_bytes, held=held)
    if got.gone or got.problem is not None:
        return rel, None, None, got.problem
    assert got.st is not None and got.data is not None
    note, stats = with_words(index_bytes(rel, got.data, got.st, layout, max_bytes))
    return rel, note, stats, None


class ParseWorkers:
    """Worker processes, started before their jobs are known: each loads its modules (a fifth
    of a second) while the caller walks the vault, then waits for its job on stdin."""

    def __init__(self, count: int) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []
        try:
            for _ in range(count):
                self.procs.append(start_worker(__name__))
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    # a job half written to a worker that died would fail to flush again
                    with contextlib.suppress(OSError):
                        stream.close()


def start_workers() -> ParseWorkers | None:
    """Workers for a parse that is coming (a walk found enough files), or None when there
    are too few cores or they cannot start (the files are then parsed here)."""
    count = worker_count()
    if count < 2:
        return None
    try:
        return ParseWorkers(count)
    except OSError as exc:
        log.info("cannot start parsing workers (%s); parsing here", exc)
        return None


class EarlyWorkers:
    """Parse workers started while a cold start's walk goes on, as soon as it has found
    enough notes to parse: their start-up overlaps the walk."""

    def __init__(self) -> None:
        self.started: ParseWorkers | None = None

    def walk(self, walked: Iterator[Walked]) -> Iterator[Walked]:
        notes = 0
        try:
            for item in walked:
                if item[1] is not None:
                    notes += 1
                    if notes == PARALLEL_MIN:
                        self.started = start_workers()
                yield item
        except BaseException:  # the walk failed, or was left: no worker is left waiting
            self.stop()
            raise

    def take(self) -> ParseWorkers | None:
        """The workers, for `parse_many` (which stops them)."""
        workers, self.started = self.started, None
        return workers

    def stop(self) -> None:
        workers = self.take()
        if workers is not None:
            workers.stop()


def parse_many(
    layout: VaultLayout, rels: Sequence[str], max_bytes: int, workers: ParseWorkers | None = None
) -> Iterator[Frame]:
    """Every file parsed, a frame at a time: in worker processes when there are enough files
    and cores. `workers`: started already (`start_workers`); stopped here in any case."""
    done: set[str] = set()
    try:
        if workers is None and len(rels) >= PARALLEL_MIN:
            workers = start_workers()
        if workers is not None:
            try:
                for frame in _in_workers(layout, rels, max_bytes, workers):
                    done.update(parsed[0] for parsed in frame[0])
                    yield frame
            except (OSError, EOFError, pickle.PickleError, ValueError) as exc:
                log.info("parsing in worker processes failed (%s); parsing here", exc)
    finally:
        if workers is not None:
            workers.stop()
    left = [rel for rel in rels if rel not in done]
    real_root = os.path.realpath(layout.root)
    with HeldFolder() as held:
        for start in range(0, len(left), FRAME):
            yield (
                [
                    parse_file(layout.root, rel, layout, max_bytes, real_root, held)
                    for rel in left[start : start + FRAME]
                ],
                None,
            )


def _in_workers(
    layout: VaultLayout, rels: Sequence[str], max_bytes: int, workers: ParseWorkers
) -> Iterator[Frame]:
    folders = (layout.stm, layout.ltm, layout.archive)
    procs = workers.procs
    for i, proc in enumerate(procs):
        job = (
            str(layout.root),
            folders,
            max_bytes,
            list(rels[i :: len(procs)]),
            frame_size(len(rels), len(procs)),
        )
        assert proc.stdin is not None
        proc.stdin.write(pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL))
        proc.stdin.close()
    yield from _read_frames(procs)
    for proc in procs:
        if proc.wait() != 0:
            raise OSError(f"a parsing worker exited with {proc.returncode}")


def _read_frames(procs: list[subprocess.Popen[bytes]]) -> Iterator[Frame]:
    selector = selectors.DefaultSelector()
    buffers: dict[int, bytearray] = {}
    for proc in procs:
        assert proc.stdout is not None
        selector.register(proc.stdout, selectors.EVENT_READ)
        buffers[proc.stdout.fileno()] = bytearray()
    open_streams = len(procs)
    while open_streams:
        for key, _ in selector.select():
            fd = key.fd
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                selector.unregister(key.fileobj)
                open_streams -= 1
                if buffers[fd]:
                    raise EOFError("a parsing worker stopped in the middle of a message")
                continue
            buf = buffers[fd]
            buf += chunk
            while len(buf) >= LENGTH.size:
                (size,) = LENGTH.unpack_from(buf)
                if len(buf) < LENGTH.size + size:
                    break
                frame = bytes(buf[LENGTH.size : LENGTH.size + size])
                del buf[: LENGTH.size + size]
                yield pickle.loads(frame)
    selector.close()


def worker_main() -> None:
    """A worker: read one job from stdin, stream the parsed notes to stdout, exit."""
    gc.disable()  # a short life that only builds objects: the collector would only slow it
    # every module a parse needs, loaded before the job comes (the caller is still walking)
    import cortexgraph_vault.core.links
    import cortexgraph_vault.core.note
    import cortexgraph_vault.core.tags  # noqa: F401
    from cortexgraph_vault.index.text.posting_lists import posting_block  # not the whole index

    root, folders, max_bytes, rels, frame = pickle.loads(sys.stdin.buffer.read())
    layout = VaultLayout(Path(root), *folders)
    real_root = os.path.realpath(root)
    out = sys.stdout.buffer
    with HeldFolder() as held:
        for start in range(0, len(rels), frame):
            batch = [
                parse_file(layout.root, rel, layout, max_bytes, real_root, held)
                for rel in rels[start : start + frame]
            ]
            block = posting_block((rel, stats) for rel, _, stats, _ in batch if stats is not None)
            parsed = [(rel, note, None, problem) for rel, note, _, problem in batch]
            data = pickle.dumps((parsed, block), protocol=pickle.HIGHEST_PROTOCOL)
            out.write(LENGTH.pack(len(data)) + data)
            out.flush()
