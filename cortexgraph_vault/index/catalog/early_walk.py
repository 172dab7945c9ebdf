"""A vault's stat walk begun as a one-call process starts, in a child beside the imports.

A CLI command knows its vault once its settings are read, well before the service is imported
and opened (pydantic, the index, the cache). Its walk (an `lstat` of every note) then runs in
a forked child, on another core, while this process imports; the child sends back what it
found, and the engine's start takes that (`VaultEngine(early_walk=)`) instead of walking
again, unless something may have changed the vault since (a write journal to repair).

A thread would not do: the walk's own Python work and the imports' would take turns on one
interpreter lock. The child is forked only where a fork is plain (Linux) and only from a
process with no other thread, which might hold a lock the child would then wait on forever;
elsewhere the engine walks as it always did (`begin` gives None).
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, NoReturn

from cortexgraph_vault.index.catalog.vault_walk import Walked, cannot_list, walk_vault


class SentStat(NamedTuple):
    """A note's lstat as the child sent it: the fields a walk's reader takes."""

    st_mode: int
    st_size: int
    st_mtime_ns: int


@dataclass(frozen=True)
class Walk:
    """What one walk of the whole vault found, and when it began (`time.monotonic()`)."""

    found: list[Walked]
    began: float


def _walk_and_send(root: Path, fd: int) -> NoReturn:
    """The child: walk, send (notes, attachments, folders not listed) marshalled, and end
    without running anything of the parent's (exit handlers, buffered output)."""
    code = 1
    try:
        gc.disable()  # a collection would touch, and so copy, every page shared with the parent
        unlisted: list[tuple[str, str | None]] = []
        notes: list[tuple[str, int, int, int]] = []
        attachments: list[str] = []
        for rel, st in walk_vault(root, unlisted=unlisted):
            if st is None:
                attachments.append(rel)
            else:
                notes.append((rel, st.st_mode, st.st_size, st.st_mtime_ns))
        with open(fd, "wb") as out:
            out.write(marshal.dumps((notes, attachments, unlisted)))
        code = 0
    except BaseException:  # the parent then walks itself, and meets whatever this was
        pass
    finally:
        os._exit(code)


class EarlyWalk:
    """The walk of `root` in a child process, from now; `result()` waits for it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.began = time.monotonic()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            _walk_and_send(root, write)
        os.close(write)
        self._pid: int | None = pid
        self._read = read

    @classmethod
    def begin(cls, root: Path) -> EarlyWalk | None:
        """The walk begun, where a fork is safe; None elsewhere."""
        if sys.platform != "linux" or threading.active_count() != 1:
            return None
        try:
            return cls(root)
        except OSError:  # no process or pipe to spare: the engine walks itself
            return None

    def result(self) -> Walk | None:
        """The finished walk, the child gone; None when it failed or was left."""
        if self._pid is None:
            return None
        try:
            with open(self._read, "rb") as src:
                data = src.read()
        finally:
            ended = self._end()
        if ended != 0 or not data:
            return None
        notes, attachments, unlisted = marshal.loads(data)
        for folder, reason in unlisted:
            cannot_list(folder, reason)
        found: list[Walked] = [
            (rel, SentStat(mode, size, mtime)) for rel, mode, size, mtime in notes
        ]
        found += [(rel, None) for rel in attachments]
        return Walk(found, self.began)

    def leave(self) -> None:
        """Nobody will take the walk (the daemon answers the command): the child is ended."""
        if self._pid is None:
            return
        with contextlib.suppress(OSError):
            os.kill(self._pid, signal.SIGKILL)
        os.close(self._read)
        self._end()

    def _end(self) -> int:
        """Wait for the child to be gone; its exit status."""
        pid, self._pid = self._pid, None
        if pid is None:
            return -1
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
