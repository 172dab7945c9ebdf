"""The daemon's read processes: REST reads answered beside the daemon, not in it.

One interpreter runs one thread at a time: under many clients a daemon alone uses one core,
and much of its time goes in its threads handing that one interpreter to each other (a
change's every system call lets a read in, and back). Here the
reads that depend only on the notes (routes declared `read_process=True`: searches, listings,
a memory opened) go to other processes, each with its own index of the vault
(api/read_worker.py); the daemon parses the request, hands it over, and sends back the JSON
it gets. Changes stay in the daemon, the one writer.

Read-your-writes: every path the daemon's catalogue takes in (its own writes, and the
watcher's news of everyone else's) is sent to each read process, in order, on the same socket
as the reads, before the answer of the change that caused it leaves the daemon (both go
through the event loop's queue, first in, first out). A read process works through its
socket in order, so a read sent after a change sees it. What the watcher found on disk
(`catalog.noticed`: no call waits for it) is taken in behind the reads instead, as the daemon
itself does: a note of megabytes edited by hand must not hold every read for its parse.

A read process that is not ready yet (its start), that died, or that cannot answer a read
(an error that cannot travel) leaves the read to the daemon, which answers it as it always
did. One that dies is started again (up to `RESTARTS` times in `RESTART_WINDOW`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import pickle
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.api.read_frames import HEADER, pack

if TYPE_CHECKING:
    from cortexgraph_vault.index.vectors.meaning import MadeVector
    from cortexgraph_vault.service import MemoryService

log = logging.getLogger("cortexgraph_vault.daemon")

# a read process that keeps dying (RESTARTS times within RESTART_WINDOW seconds) is not
# started again: the daemon answers reads alone
RESTARTS = 3
RESTART_WINDOW = 600.0
STOP_WAIT = 3.0

Answer = tuple[str | None, bytes, int]  # the result's model name, its JSON, who answered (pid)


@dataclass
class _Link:
    process: subprocess.Popen[bytes]
    writer: asyncio.StreamWriter
    waiting: dict[int, tuple[asyncio.Future[Answer | None], str]] = field(default_factory=dict)
    ready: bool = False


class ReadProcesses:
    def __init__(self, service: MemoryService, count: int) -> None:
        self.service = service
        self.count = count
        self.links: list[_Link] = []
        self.restarts: list[float] = []  # when each was started again (monotonic)
        self._ids = itertools.count()
        self._pending: list[tuple[str, str, bool]] = []
        self._pending_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        # before any read process exists: each starts from the vault as it is, then hears
        # of every change after that
        self.service.engine.catalog.on_change = self._changed
        self.service.engine.catalog.meaning.on_made = self._made
        for _ in range(self.count):
            await self._spawn()

    async def stop(self) -> None:
        self._stopping = True
        self.service.engine.catalog.on_change = None
        self.service.engine.catalog.meaning.on_made = None
        links, self.links = self.links, []
        for link in links:
            link.writer.close()  # the read process ends at its socket's end
        for link in links:
            try:
                await asyncio.to_thread(link.process.wait, STOP_WAIT)
            except subprocess.TimeoutExpired:
                link.process.kill()
                await asyncio.to_thread(link.process.wait)
        for task in list(self._tasks):
            task.cancel()

    async def read(self, route: str, kwargs: dict[str, Any]) -> Answer | None:
        """The route's answer from a read process; None: answer it here."""
        ready = [link for link in self.links if link.ready]
        if not ready:
            return None
        link = min(ready, key=lambda k: len(k.waiting))
        rid = next(self._ids)
        done: asyncio.Future[Answer | None] = asyncio.get_running_loop().create_future()
        link.waiting[rid] = (done, route)
        link.writer.write(pack(("read", rid, route, kwargs)))
        return await done

    def _changed(self, kind: str, rel: str) -> None:
        """Called under the catalogue's lock, on whichever thread changed it."""
        noticed = self.service.engine.catalog.noticed  # found on disk: nobody waits for it
        with self._pending_lock:
            self._pending.append((kind, rel, noticed))
            first = len(self._pending) == 1
        if first and self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the daemon is ending
                self._loop.call_soon_threadsafe(self._send_changes)

    def _made(self, made: list[MadeVector]) -> None:
        """Sentence vectors just made (on the fill's thread): handed to each read process,
        which waits for them rather than embed the notes again."""
        if made and self._loop is not None:
            frame = pack(("vectors", made))
            with contextlib.suppress(RuntimeError):  # the loop is closed: the daemon is ending
                self._loop.call_soon_threadsafe(self._send_all, frame)

    def _send_all(self, frame: bytes) -> None:
        for link in self.links:
            if not link.writer.is_closing():
                link.writer.write(frame)

    def _send_changes(self) -> None:
        with self._pending_lock:
            changes, self._pending = self._pending, []
        if changes:
            frame = pack(("changed", changes))
            for link in self.links:
                # one that died is dropped by `_answers` once it reads the end: not yet here
                if not link.writer.is_closing():
                    link.writer.write(frame)

    async def _spawn(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "cortexgraph_vault.api.read_worker", str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,  # the daemon's stdout is its banner's
            )
        except OSError as exc:
            ours.close()
            log.warning("no read process (%s): the daemon answers reads itself", exc)
            return
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        link = _Link(process, writer)
        writer.write(pack(self.service.engine.config))
        self.links.append(link)
        task = asyncio.create_task(self._answers(link, reader))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answers(self, link: _Link, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
                message = pickle.loads(await reader.readexactly(size))
                kind = message[0]
                if kind == "ready":
                    link.ready = True
                    continue
                done, route = link.waiting.pop(message[1], (None, ""))
                if done is None or done.done():
                    continue  # its client went away
                if kind == "ok":
                    _, _, model, body, seconds, ranked = message
                    done.set_result((model, body, link.process.pid))
                    self.service.metrics.record(f"rest.{route}", seconds)
                    if ranked is not None:  # which ranking the metrics' searches had
                        self.service.metrics.record(f"rest.{route}.{ranked}", seconds)
                elif kind == "error":
                    done.set_exception(pickle.loads(message[2]))
                else:
                    done.set_result(None)
        except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError):
            pass
        finally:
            await self._lost(link)

    async def _lost(self, link: _Link) -> None:
        """Its reads go back to the daemon; it is started again unless the daemon is ending."""
        if link in self.links:
            self.links.remove(link)
        for done, _ in link.waiting.values():
            if not done.done():
                done.set_result(None)
        link.waiting.clear()
        link.writer.close()
        if self._stopping:
            return
        code = await asyncio.to_thread(link.process.wait)
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW]
        if len(self.restarts) >= RESTARTS:
            log.warning("read process ended (exit %s); the daemon answers reads itself", code)
            return
        self.restarts.append(now)
        log.warning("read process ended (exit %s); starting another", code)
        await self._spawn()
