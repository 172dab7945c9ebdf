"""The daemon's connections: each is counted, one left silent is closed, and a flood of them
never takes the room a new client needs.

uvicorn closes a connection after an answer and `timeout_keep_alive` of silence, but one that
never sends a request, or stops half-way through its headers, it keeps forever: each is an
open file, and enough of them use up the process's file limit, after which nothing is
accepted, not even `/health`. So every connection passes through `GuardedProtocol`:

- **idle**: a connection silent for `idle_seconds` while no request of its own is being
  answered is closed (an MCP event stream or a long gc is being answered, so it stays);
- **room**: at most `max_total` at once, below the file limit. When a new one comes and there
  is no room, the connection that has been idle longest is closed to make room; only when
  every connection is busy answering is the new one refused, with a 503 saying why;
- **per client**: a client that can be told apart (any address but loopback, where every local
  process shares 127.0.0.1) holds at most `max_per_client`, by the same rule.

Whether a connection is answering a request is told by `ConnectionBook.watch`, an ASGI
wrapper around the whole app, from the client address uvicorn puts in the request's scope.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("cortexgraph_vault.daemon")

Peer = tuple[str, int]
LOOPBACK = ("127.0.0.1", "::1", "::ffff:127.0.0.1")
# Files the daemon needs beside its connections: notes being written, git, the index cache,
# its read processes, the watcher.
FILES_KEPT_FOR_THE_VAULT = 256
REFUSAL_BODY = (
    b'{"error":"too_many_connections","detail":"the daemon holds as many connections as it '
    b'allows and every one is answering a request; try again in a moment"}'
)
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
    b"connection: close\r\ncontent-length: "
    + str(len(REFUSAL_BODY)).encode()
    + b"\r\n\r\n"
    + REFUSAL_BODY
)


def connection_room(wanted: int, file_limit: int | None = None) -> int:
    """`wanted`, or fewer when the open-file limit leaves less room beside the vault's files."""
    if file_limit is None:
        file_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if file_limit == resource.RLIM_INFINITY:
        return wanted
    return max(8, min(wanted, file_limit - FILES_KEPT_FOR_THE_VAULT, file_limit // 2))


@dataclass(frozen=True)
class ConnectionLimits:
    idle_seconds: float
    max_total: int
    max_per_client: int


@dataclass
class _Open:
    """One connection as the book sees it."""

    peer: Peer
    close: Callable[[], None]
    last_heard: float
    busy: int = 0

    @property
    def client(self) -> str:
        return self.peer[0]


@dataclass
class ConnectionBook:
    """Every open connection, by peer address; `clock` is monotonic seconds."""

    limits: ConnectionLimits
    clock: Callable[[], float] = time.monotonic
    open: dict[Peer, _Open] = field(default_factory=dict)
    refused: int = 0

    def admit(self, peer: Peer, close: Callable[[], None]) -> bool:
        """Count a new connection in, closing the longest idle one when there is no room;
        False (refuse it) when every connection in its way is answering a request."""
        if peer[0] not in LOOPBACK:
            mine = [c for c in self.open.values() if c.client == peer[0]]
            if len(mine) >= self.limits.max_per_client and not self._make_room(mine):
                self.refused += 1
                return False
        if len(self.open) >= self.limits.max_total and not self._make_room(self.open.values()):
            self.refused += 1
            return False
        self.open[peer] = _Open(peer, close, self.clock())
        return True

    def _make_room(self, among: Any) -> bool:
        idle = [c for c in among if c.busy == 0]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.last_heard)
        self.forget(oldest.peer)
        oldest.close()
        return True

    def heard(self, peer: Peer) -> None:
        found = self.open.get(peer)
        if found is not None:
            found.last_heard = self.clock()

    def forget(self, peer: Peer) -> None:
        self.open.pop(peer, None)

    def silent_for(self, peer: Peer) -> float | None:
        """Seconds since the connection last sent or was last answered; None while it is
        being answered (or is gone)."""
        found = self.open.get(peer)
        if found is None or found.busy:
            return None
        return self.clock() - found.last_heard

    def watch(self, app: ASGIApp) -> ASGIApp:
        """`app`, telling the book which connections are being answered."""

        async def watched(scope: Scope, receive: Receive, send: Send) -> None:
            client = scope.get("client")
            found = self.open.get((client[0], client[1])) if client else None
            if found is None:
                await app(scope, receive, send)
                return
            found.busy += 1
            try:
                await app(scope, receive, send)
            finally:
                found.busy -= 1
                found.last_heard = self.clock()

        return watched


class GuardedProtocol(asyncio.Protocol):
    """uvicorn's protocol for one connection, counted in the book and closed when idle."""

    def __init__(self, inner: asyncio.Protocol, book: ConnectionBook) -> None:
        self.inner = inner
        self.book = book
        self.peer: Peer | None = None
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio's classes, only alike
        self.transport = cast(asyncio.Transport, transport)
        address = transport.get_extra_info("peername")
        self.peer = (str(address[0]), int(address[1])) if address else ("?", id(self))
        if not self.book.admit(self.peer, self._close):
            log.warning("refused a connection from %s: no room", self.peer[0])
            self.transport.write(REFUSAL)
            self.transport.close()
            self.peer = None
            return
        self.inner.connection_made(transport)
        self._check_later(self.book.limits.idle_seconds)

    def _check_later(self, seconds: float) -> None:
        self.timer = asyncio.get_running_loop().call_later(seconds, self._check)

    def _check(self) -> None:
        if self.peer is None:
            return
        silent = self.book.silent_for(self.peer)
        idle = self.book.limits.idle_seconds
        if silent is not None and silent >= idle:
            self._close()
        else:
            self._check_later(idle - silent if silent is not None else idle)

    def _close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.peer is not None:
            self.book.heard(self.peer)
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.peer is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.peer is not None:
            self.book.forget(self.peer)
            self.peer = None
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


def guarded(protocol_class: Callable[..., asyncio.Protocol], book: ConnectionBook) -> Any:
    """What `uvicorn.Config(http=...)` takes: it makes each connection's protocol with
    uvicorn's arguments; this wraps each in a `GuardedProtocol`."""

    def make(*args: Any, **kwargs: Any) -> GuardedProtocol:
        return GuardedProtocol(protocol_class(*args, **kwargs), book)

    return make
