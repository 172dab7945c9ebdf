"""`cortexgraph-vault serve`: claim the vault, bind the port, serve until SIGINT/SIGTERM.

Order matters: the vault claim comes first (a second daemon on the same vault names the
holder rather than complaining about the port), then the port (a clash is reported before the
vault is indexed), then the service, the watcher and uvicorn.
"""

from __future__ import annotations

import logging
import math
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from cortexgraph_vault.api.token import TokenSource
from cortexgraph_vault.config import Config
from cortexgraph_vault.daemon.connections import (
    ConnectionBook,
    ConnectionLimits,
    connection_room,
    guarded,
)
from cortexgraph_vault.daemon.instance import DaemonClaim, bind, check_host
from cortexgraph_vault.errors import ConfigError

log = logging.getLogger("cortexgraph_vault.daemon")

# Open MCP streams would otherwise hold a shutdown for as long as the client keeps them.
GRACEFUL_SHUTDOWN_SECONDS = 3


@dataclass(frozen=True)
class Serving:
    """What the banner needs to know once the daemon is bound."""

    vault: Path
    host: str
    port: int
    token_path: Path

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


@contextmanager
def _graceful_signals() -> Iterator[list[int]]:
    """uvicorn stops gracefully on SIGINT/SIGTERM and then re-raises the signal to whatever
    handler was there before it; a no-op handler here makes that stop an ordinary exit 0."""
    received: list[int] = []
    previous = {
        sig: signal.signal(sig, lambda s, _f: received.append(s))
        for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def connection_book(config: Config) -> ConnectionBook:
    """The daemon's connections, within its settings and the process's open-file limit."""
    total = connection_room(config.daemon_max_connections)
    limits = ConnectionLimits(
        idle_seconds=config.daemon_idle_seconds, max_total=total, max_per_client=max(4, total // 4)
    )
    return ConnectionBook(limits)


def serve(
    config: Config,
    *,
    port: int,
    host: str = "127.0.0.1",
    unsafe_bind: bool = False,
    announce: Callable[[Serving], None] = lambda _s: None,
) -> None:
    if config.vault is None:
        raise ConfigError(
            "no vault given: pass --vault PATH (or serve --demo to try the sample vault)"
        )
    address = check_host(host, unsafe_bind)
    vault = Path(config.vault).expanduser()
    if not vault.is_dir():
        raise ConfigError(f"{vault}: the vault folder does not exist")
    with DaemonClaim(vault) as claim:
        sock = bind(address, port)
        try:
            actual = sock.getsockname()[1]
            # `now`: a CLI pretending another time (--now) must not be answered with this one
            now = config.fixed_now.isoformat() if config.fixed_now else None
            claim.record(port=actual, host=address, now=now)
            # Imported only now: the MCP SDK takes seconds to import on a slow machine, and a
            # refusal (vault taken, port in use) should not wait for it.
            from cortexgraph_vault.api.app import build_app
            from cortexgraph_vault.service import MemoryService

            service = MemoryService(config)
            token = TokenSource()
            extra = [] if address == "127.0.0.1" else [address]
            app = build_app(
                service,
                port=actual,
                token=token,
                extra_hosts=extra,
                read_processes=config.read_processes,
            )
            book = connection_book(config)
            server = uvicorn.Server(
                uvicorn.Config(
                    book.watch(app),
                    http=guarded(AutoHTTPProtocol, book),
                    # after an answer too, silence ends a connection when it would otherwise
                    timeout_keep_alive=max(1, math.ceil(config.daemon_idle_seconds)),
                    lifespan="on",
                    log_config=None,
                    access_log=False,
                    server_header=False,
                    # Nothing stands in front of the daemon: X-Forwarded-* headers are never
                    # trusted, and not looking for them is one middleware less per request.
                    proxy_headers=False,
                    timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
                )
            )
            # Listening now: a client that connects after the banner waits for uvicorn to
            # accept rather than being refused.
            sock.listen(128)
            announce(Serving(service.engine.root, address, actual, token.path))
            with _graceful_signals() as received:
                server.run(sockets=[sock])
            stopped = ", ".join(signal.Signals(s).name for s in received) or "shutdown"
            log.info("stopped (%s)", stopped)
        finally:
            sock.close()
