"""Messages between the daemon and its read processes: one pickle each, after its length.

The socket is a pair made by the daemon and inherited by the child it starts, so nothing but
those two processes can write to it: pickle is as safe here as a function call, and it carries
the already-validated request models and the errors raised as they are.

Daemon → read process: the `Config` first; then `("changed", [(kind, path, noticed), ...])`
(what the daemon's catalogue took in, index/catalog/vault_catalog.py), `("read", id, route, kwargs)`
and `("vectors", [(path, key, vector), ...])` (sentence vectors the daemon has just made,
index/vectors/meaning.py).
Read process → daemon: `("ready", pid)` once its index is loaded, then for each read
`("ok", id, model name | None, JSON bytes, seconds, ranked)` (`ranked`: a search's ranking,
`by_encoder` or `by_word_vectors`, index/vectors/meaning.py; else None),
`("error", id, pickled VaultError)`
or `("again", id)` (answer it yourself: the daemon does, with the same code).
"""

from __future__ import annotations

import pickle
import socket
import struct

HEADER = struct.Struct("!I")
CHUNK = 1 << 18


def pack(message: object) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


class FrameSocket:
    """The read process's end: blocking, with what one `recv` brought held for the next
    messages (under load several requests come in one read)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = bytearray()
        self.closed = False  # the daemon closed its end (or died)

    def recv(self) -> object | None:
        """The next message; None once the daemon has closed its end (or died)."""
        while True:
            if (message := self._next()) is not None:
                return message
            try:
                chunk = self.sock.recv(CHUNK)
            except ConnectionError:
                chunk = b""
            if not chunk:
                self.closed = True
                return None
            self._buffer += chunk

    def recv_within(self, seconds: float) -> object | None:
        """The next message; None when none came within `seconds`, or the daemon has closed
        its end (`closed`)."""
        self.sock.settimeout(max(seconds, 0.001))
        try:
            return self.recv()
        except TimeoutError:
            return None
        finally:
            self.sock.settimeout(None)

    def waiting(self) -> list[object]:
        """Every whole message that has come already, without waiting for more (a closed
        end is found by the next `recv`)."""
        self.sock.setblocking(False)
        try:
            while chunk := self.sock.recv(CHUNK):
                self._buffer += chunk
        except (BlockingIOError, InterruptedError, ConnectionError):
            pass
        finally:
            self.sock.setblocking(True)
        messages = []
        while (message := self._next()) is not None:
            messages.append(message)
        return messages

    def _next(self) -> object | None:
        buffer = self._buffer
        if len(buffer) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(buffer)
        end = HEADER.size + size
        if len(buffer) < end:
            return None
        with memoryview(buffer) as view:
            message: object = pickle.loads(view[HEADER.size : end])
        del buffer[:end]
        return message

    def send(self, message: object) -> None:
        self.sock.sendall(pack(message))
