"""The clients of the daemon load bench: many keep-alive HTTP/1.1 connections in one event loop.

Each client is a closed loop on its own connection: a request, its whole answer read, the next
request. They share one thread (uvloop where installed), so what they cost is a few tens of
microseconds per answer: on a 2-core machine the clients share the daemon's cores, and 50
threads of `http.client` spent ~0.25 ms per answer (0.9 ms at 10k notes, where a list page is
90 KB), most of it handing one interpreter between threads. The requests are plain HTTP/1.1
as any client sends them (Host, Authorization, Content-Length); an answer is read to the end
of its Content-Length, and its status is kept, so an error cannot pass for an answer.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import cast
from urllib.parse import quote, urlencode

Answer = tuple[str, float, int]  # the request's kind, seconds to its answer's end, status


class Connection(asyncio.Protocol):
    """One keep-alive connection: one request at a time, its answer parsed as it arrives."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[tuple[int, float]] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.waiter is None or self.waiter.done():
            return
        try:
            status = self._answer()
        except ValueError as exc:
            self.waiter.set_exception(exc)
            return
        if status is not None:
            self.waiter.set_result((status, time.perf_counter()))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError(f"the daemon closed the connection: {exc}"))

    def _answer(self) -> int | None:
        """The status of the answer in the buffer once it is all there (and it is taken out)."""
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = bytes(self.buffer[:end]).lower()
        lines = head.split(b"\r\n")
        if b"transfer-encoding: chunked" in lines:
            raise ValueError("a chunked answer: the daemon's REST answers carry a length")
        length = next(
            (int(line[15:]) for line in lines if line.startswith(b"content-length:")), None
        )
        if length is None:
            raise ValueError(f"an answer without Content-Length: {head[:200]!r}")
        total = end + 4 + length
        if len(self.buffer) < total:
            return None
        del self.buffer[:total]
        return int(lines[0].split(b" ", 2)[1])

    async def ask(self, request: bytes) -> tuple[int, float]:
        assert self.transport is not None
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return await self.waiter


def request_bytes(method: str, url: str, head: str, body: str = "") -> bytes:
    data = body.encode()
    return f"{method} {url} HTTP/1.1\r\n{head}Content-Length: {len(data)}\r\n\r\n".encode() + data


async def _client(
    port: int, head: str, ids: list[str], words: list[str], seed: int, until: float,
    out: list[Answer],
) -> None:  # fmt: skip
    """30 % search, 20 % list, 30 % open, 15 % touch, 5 % save, as the reliability suite's
    load scenario mixes them."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    transport, conn = await loop.create_connection(Connection, "127.0.0.1", port)
    try:
        while time.monotonic() < until:
            roll, pick = rng.random(), quote(rng.choice(ids))
            if roll < 0.30:
                kind = "search"
                query = urlencode({"q": " ".join(rng.sample(words, 2))})
                request = request_bytes("GET", f"/api/v1/search?{query}", head)
            elif roll < 0.50:
                kind = "list"
                request = request_bytes("GET", f"/api/v1/memories?page={rng.randint(1, 5)}", head)
            elif roll < 0.80:
                kind, request = "open", request_bytes("GET", f"/api/v1/memories/{pick}", head)
            elif roll < 0.95:
                kind = "touch"
                request = request_bytes("POST", f"/api/v1/memories/{pick}/touch", head, "{}")
            else:
                kind = "save"
                content = f"Load memory {seed} {rng.random()} " + " ".join(rng.sample(words, 5))
                request = request_bytes(
                    "POST", "/api/v1/memories", head, json.dumps({"content": content})
                )
            started = time.perf_counter()
            status, ended = await conn.ask(request)
            out.append((kind, ended - started, status))
    finally:
        transport.close()


async def _clients(
    port: int, token: str, ids: list[str], words: list[str], seeds: list[int], until: float
) -> list[Answer]:
    head = (
        f"Host: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Content-Type: application/json\r\n"
    )
    out: list[Answer] = []
    await asyncio.gather(*(_client(port, head, ids, words, s, until, out) for s in seeds))
    return out


def worker(args: tuple[int, str, list[str], list[str], list[int], float]) -> list[Answer]:
    """One process's clients (one per seed) until `until` (time.monotonic)."""
    import os

    if os.environ.get("CGV_BATCH"):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    try:
        import uvloop
    except ImportError:  # not on Windows: the standard loop does the same, a little slower
        return asyncio.run(_clients(*args))
    return uvloop.run(_clients(*args))
