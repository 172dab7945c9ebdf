"""Messages between the daemon and its read processes: one pickle each, after its length.

The socket is a pair made by the daemon and inherited by the child it starts, so nothing but
those two processes can write to it: pickle is as safe here as a function call, and it carries
the already-validated request models and the errors raised as they are.

Daemon → read process: the `Config` first; then `("changed", [(kind, path, noticed), ...])`
(what the daemon's catalogue took in, index/catalog_entries.py) and `("read", id, route, kwargs)`.
Read process → daemon: `("ready", pid)` once its index is loaded, then for each read
`("ok", id, model name | None, JSON bytes, seconds)`, `("error", id, pickled VaultError)`
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

    def recv(self) -> object | None:
        """The next message; None once the daemon has closed its end (or died)."""
        buffer = self._buffer
        while True:
            if len(buffer) >= HEADER.size:
                (size,) = HEADER.unpack_from(buffer)
                end = HEADER.size + size
                if len(buffer) >= end:
                    with memoryview(buffer) as view:
                        message: object = pickle.loads(view[HEADER.size : end])
                    del buffer[:end]
                    return message
            try:
                chunk = self.sock.recv(CHUNK)
            except ConnectionError:
                return None
            if not chunk:
                return None
            buffer += chunk

    def send(self, message: object) -> None:
        self.sock.sendall(pack(message))
