"""Room for a new MCP session over HTTP, however many the clients before it left open.

The SDK's session manager holds at most `max_sessions` sessions and refuses another with a 503
until one ends or stays idle for its timeout; every client of the daemon holds the same token,
so one of them, opening sessions and never closing them, kept every other client out for as
long as that timeout. `SessionRoom` stands in front of the SDK's app and, when a client asks
for a new session while all are taken, ends the one least recently used, with the DELETE the
protocol gives a client to end its own session, so the SDK frees its room the way it always
does. A session with a request being answered is never ended; one that only holds its event
stream open (as a waiting client does) is ended only when no session is idle. When every
session is answering a request, the new one is refused with the SDK's 503.

A client whose session was ended is answered 404 on its next request, as after an idle
timeout, and opens a new one (the protocol's rule).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_HEADER = b"mcp-session-id"


@dataclass
class _Session:
    last_used: float
    answering: int = 0  # requests being answered, event streams aside
    streams: int = 0  # GET event streams held open


@dataclass
class SessionRoom:
    app: ASGIApp
    max_sessions: int
    idle_seconds: float
    clock: Callable[[], float] = time.monotonic
    sessions: dict[str, _Session] = field(default_factory=dict)
    _admitting: anyio.Lock = field(default_factory=anyio.Lock)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sid = _header(scope, SESSION_HEADER)
        if sid is None:
            if scope["method"] == "POST":  # the SDK opens a session for it
                async with self._admitting:
                    await self._make_room(scope)
            await self.app(scope, receive, self._learning(send))
            return
        session = self.sessions.get(sid)
        if session is None:
            await self.app(scope, receive, send)
            return
        streaming = scope["method"] == "GET"
        if streaming:
            session.streams += 1
        else:
            session.answering += 1
        session.last_used = self.clock()
        try:
            await self.app(scope, receive, self._watching(sid, send))
            if scope["method"] == "DELETE":
                self.sessions.pop(sid, None)
        finally:
            if streaming:
                session.streams -= 1
            else:
                session.answering -= 1
                session.last_used = self.clock()

    def _learning(self, send: Send) -> Send:
        """Send, noting the session a successful opening request was given."""

        async def learn(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                sid = _header(message, SESSION_HEADER)
                if sid is not None:
                    self.sessions[sid] = _Session(self.clock())
            await send(message)

        return learn

    def _watching(self, sid: str, send: Send) -> Send:
        """Send, forgetting a session the SDK no longer knows (404) or that the client ended."""

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 404:
                self.sessions.pop(sid, None)
            await send(message)

        return watch

    async def _make_room(self, scope: Scope) -> None:
        now = self.clock()
        # the SDK has already ended these for their silence
        for sid, s in list(self.sessions.items()):
            if not s.answering and not s.streams and now - s.last_used > self.idle_seconds:
                del self.sessions[sid]
        while len(self.sessions) >= self.max_sessions:
            victim = self._least_recently_used()
            if victim is None:
                return  # every session is answering: the SDK refuses the new one
            del self.sessions[victim]
            await self._end(scope, victim)

    def _least_recently_used(self) -> str | None:
        idle = [(s.last_used, sid) for sid, s in self.sessions.items() if not s.answering]
        quiet = [(t, sid) for t, sid in idle if not self.sessions[sid].streams]
        chosen = min(quiet or idle, default=None)
        return chosen[1] if chosen else None

    async def _end(self, scope: Scope, sid: str) -> None:
        """The protocol's DELETE for the session, with the asking request's Host and Origin
        (which the SDK checks)."""
        kept = [(k, v) for k, v in scope["headers"] if k in (b"host", b"origin", b"authorization")]
        ending: Scope = {
            **scope,
            "method": "DELETE",
            "headers": [*kept, (SESSION_HEADER, sid.encode()), (b"content-length", b"0")],
            "query_string": b"",
        }

        async def nothing_more() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def dropped(message: Message) -> None:
            return None

        await self.app(ending, nothing_more, dropped)


def _header(carrier: Scope | Message, name: bytes) -> str | None:
    for key, value in carrier.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None
