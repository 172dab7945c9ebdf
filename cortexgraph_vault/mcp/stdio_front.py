"""`cortexgraph-vault mcp`: the handshake is answered at once; the SDK and the index load behind it.

Importing the MCP SDK takes a second or two, and reading a large vault longer. A client that
spawns the server waits for its `initialize` answer, so that answer comes from
`handshake.quick_answer` before either has loaded. Every message, that `initialize` too, is
queued for the SDK, which serves the session once loaded; its own answer to the repeated
`initialize` is dropped. A search sent while the SDK loads is answered without it
(mcp/quick_calls.py). Tool calls wait for the index (`PendingService`) and, past a bound,
answer that it is still indexing.

Only protocol reaches the client: the wire is kept on private descriptors, and fd 1 points at
stderr (fd 0 at /dev/null) for everything else in the process, git and the model included.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.errors import StillIndexing, VaultError
from cortexgraph_vault.mcp.handshake import quick_answer
from cortexgraph_vault.mcp.quick_calls import QuickCalls

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config
    from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
    from cortexgraph_vault.service import MemoryService

log = logging.getLogger("cortexgraph_vault.mcp")

# How long a tool call waits for the index before it answers "still indexing": well inside
# the minute clients give a call, long enough for a cold 10k-note vault on a slow machine.
INDEX_WAIT_SECONDS = 30.0


class Wire:
    """The client's stdin and stdout, on descriptors nothing else in the process uses."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self.fd_in = os.dup(0)  # os.dup: not inherited by child processes (git)
        self.fd_out = os.dup(1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        self._lock = threading.Lock()
        self._drop: Any = None  # the id whose answer the client already has

    def answer_first(self, data: bytes, request_id: Any) -> None:
        with self._lock:
            self._drop = request_id
            self._write(data)

    def send(self, data: bytes) -> None:
        with self._lock:
            if self._drop is not None and self._is_answer_to(data, self._drop):
                self._drop = None
                return
            self._write(data)

    @staticmethod
    def _is_answer_to(data: bytes, request_id: Any) -> bool:
        try:
            message = json.loads(data)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("id") != request_id:
            return False
        if "error" in message:
            log.warning("the SDK refused an initialize already answered: %s", message["error"])
        return "result" in message or "error" in message

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd_out, view) :]

    def read_into(self, lines: queue.Queue[str | None], quick: QuickCalls) -> None:
        """Queue every line from the client; answer its first `initialize` on the spot, and
        the searches `quick` takes while the SDK loads."""
        answered = False
        try:
            with os.fdopen(self.fd_in, "rb", closefd=False) as stream:
                for raw in stream:
                    if not answered:
                        first = quick_answer(raw)
                        if first is not None:
                            self.answer_first(*first)
                            answered = True
                    line = raw.decode("utf-8", errors="replace")
                    if not quick.take(line):
                        lines.put(line)
        except OSError as exc:
            log.warning("reading from the client failed: %s", exc)
        finally:
            lines.put(None)
            quick.closed()

    def restore(self) -> None:
        os.dup2(self.fd_in, 0)
        os.dup2(self.fd_out, 1)


class QueuedLines:
    """The client's lines as the SDK's stdio transport reads them (`async for line in ...`)."""

    def __init__(self, lines: queue.Queue[str | None]) -> None:
        self.lines = lines

    def __aiter__(self) -> QueuedLines:
        return self

    async def __anext__(self) -> str:
        import anyio.to_thread

        line = await anyio.to_thread.run_sync(self.lines.get, abandon_on_cancel=True)
        if line is None:
            raise StopAsyncIteration
        return line


class WireOut:
    """Where the SDK's stdio transport writes its messages."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire

    async def write(self, text: str) -> None:
        import anyio.to_thread

        await anyio.to_thread.run_sync(self.wire.send, text.encode("utf-8"))

    async def flush(self) -> None:
        return None


class PendingService:
    """Stands in for the MemoryService while it loads on a thread of its own: any attribute
    waits for it, up to `wait_seconds`, then raises StillIndexing naming the progress."""

    def __init__(
        self,
        build: Callable[[Callable[[VaultCatalog], None]], MemoryService],
        *,
        wait_seconds: float = INDEX_WAIT_SECONDS,
        vault: str | None = None,
        on_loaded: Callable[[], None] | None = None,
    ) -> None:
        self._wait_seconds = wait_seconds
        self._on_loaded = on_loaded
        self._watch_lock = threading.Lock()
        self._watch_wanted = False
        self._vault = vault
        self._loaded = threading.Event()
        self._service: MemoryService | None = None
        self._error: BaseException | None = None
        self._catalog: VaultCatalog | None = None
        self._thread = threading.Thread(
            target=self._load, args=(build,), name="cortexgraph-index", daemon=True
        )
        self._thread.start()

    def _load(self, build: Callable[[Callable[[VaultCatalog], None]], MemoryService]) -> None:
        started = time.perf_counter()
        try:
            self._service = build(self._see_catalog)
            log.info(
                "index ready: %d notes in %.2f s",
                len(self._service.engine.catalog),
                time.perf_counter() - started,
            )
        except BaseException as exc:  # every call reports it; the thread must not die silently
            self._error = exc
            log.error("the vault could not be indexed: %s", exc)
        finally:
            with self._watch_lock:
                self._loaded.set()
                if self._watch_wanted and self._service is not None:
                    self._service.engine.start_watcher()
            if self._on_loaded is not None:
                self._on_loaded()

    def _see_catalog(self, catalog: VaultCatalog) -> None:
        self._catalog = catalog

    def wait(self, timeout: float | None = None) -> MemoryService:
        if not self._loaded.wait(self._wait_seconds if timeout is None else timeout):
            raise StillIndexing(self.progress())
        if self._service is None:
            error = self._error
            text = (
                str(error) if isinstance(error, VaultError) else f"{type(error).__name__}: {error}"
            )
            raise VaultError(f"the vault could not be indexed: {text}") from error
        return self._service

    def progress(self) -> str:
        held = len(self._catalog) if self._catalog is not None else 0
        total = _count_notes(self._vault) if self._vault else None
        of = f" of {total:,}" if total is not None and total >= held else ""
        return (
            f"still indexing the vault: {held:,}{of} notes read so far; call again in a few seconds"
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wait(), name)

    def watch(self) -> None:
        """Keep the catalogue current from file events: now if the vault is open, else as
        soon as it is (without waiting for it here)."""
        with self._watch_lock:
            self._watch_wanted = True
            if self._service is not None:
                self._service.engine.start_watcher()

    def close(self) -> None:
        if self._service is not None:
            self._service.engine.stop_watcher()


def _count_notes(vault: str) -> int | None:
    from pathlib import Path

    from cortexgraph_vault.index.catalog.vault_catalog import walk_vault

    try:
        return sum(1 for _, st in walk_vault(Path(vault)) if st is not None)
    except OSError:
        return None


def _open_service(config: Config, on_catalog: Callable[[VaultCatalog], None]) -> MemoryService:
    """The service, its catalogue current as of the walk that opened it: a search sent while
    the SDK loads reads what that walk found; the watcher starts after it (`watch`)."""
    from cortexgraph_vault.service import MemoryService

    service = MemoryService(config, on_catalog=on_catalog)
    service.engine.trust_start_walk()
    return service


def serve(config: Config) -> None:
    """Serve the memory tools over stdin/stdout until the client closes stdin."""
    from cortexgraph_vault.config import vault_root

    root = vault_root(config)  # a missing vault fails now, not at the first call
    wire = Wire()
    lines: queue.Queue[str | None] = queue.Queue()
    quick = QuickCalls(lambda: service.wait(), wire.send, lines.put)
    service = PendingService(
        lambda seen: _open_service(config, seen), vault=str(root), on_loaded=quick.vault_opened
    )
    reader = threading.Thread(
        target=wire.read_into, args=(lines, quick), name="mcp-stdin", daemon=True
    )
    reader.start()
    try:
        # The SDK loads once the first searches no longer need the CPU (mcp/quick_calls.py).
        quick.sdk_may_load.wait()
        service.watch()  # its first walk waited too: the CPU was the first search's
        from cortexgraph_vault.mcp.server import serve_lines  # the SDK: the slow import

        quick.serving()
        log.info("the MCP SDK serves the session")

        # PendingService stands in for the MemoryService (each attribute waits for the real one,
        # __getattr__), which a type cannot say without copying the service's whole interface.
        serve_lines(service, QueuedLines(lines), WireOut(wire))  # type: ignore[arg-type]  # a stand-in, as said
    finally:
        service.close()
        wire.restore()
