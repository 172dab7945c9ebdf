"""One daemon per vault, and a clear word when a port is taken.

The claim is an `flock` on a file in the user's cache folder named for the vault (never in the
vault, which is synced). The kernel drops the lock when the holder dies, so a crash never
leaves a stale claim; the file also records the holder's pid and port so a second daemon can
say who holds the vault, and a port clash can say which vault's daemon has the port.
"""

from __future__ import annotations

import errno
import fcntl
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cortexgraph_vault.daemon.claim_files import claim_file
from cortexgraph_vault.daemon.claim_files import claims_dir as claims_dir
from cortexgraph_vault.errors import ConfigError, VaultError
from cortexgraph_vault.vault.lock import held_elsewhere, vault_key

if TYPE_CHECKING:  # imported by `bind`: a CLI command only asks whether a daemon serves
    import socket


class AlreadyServed(VaultError):
    exit_code = 5


class PortInUse(VaultError):
    exit_code = 5


LOOPBACK = ("127.0.0.1", "localhost")


class ClaimRecord(BaseModel):
    """What the claim file says of its holder; a field it lacks (an unreadable file, a daemon
    not yet listening) is None."""

    # built when first used: a CLI call whose vault no daemon serves reads no claim
    model_config = ConfigDict(extra="ignore", defer_build=True)

    pid: int | None = None
    vault: str | None = None
    started: str | None = None
    port: int | None = None
    host: str | None = None
    now: str | None = Field(default=None, description="the daemon's fixed clock, if any")


class DaemonClaim:
    """Held for the daemon's whole life: `with DaemonClaim(vault) as claim: ...`."""

    def __init__(self, vault: Path) -> None:
        self.vault = Path(os.path.realpath(vault))
        self.path = claims_dir() / f"{vault_key(self.vault)}.json"
        self._fd: int | None = None

    def __enter__(self) -> DaemonClaim:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = read_claim(self.path)
            pid = "unknown" if holder.pid is None else holder.pid
            where = f" on port {holder.port}" if holder.port else ""
            raise AlreadyServed(
                f"{self.vault}: already served by another cortexgraph-vault daemon (pid {pid}"
                f"{where}); stop it first (kill {pid}) or use that one"
            ) from None
        self._fd = fd
        self.record()
        return self

    def record(
        self, *, port: int | None = None, host: str | None = None, now: str | None = None
    ) -> None:
        """Writes the holder's pid and vault, and once it listens its port, host and clock."""
        assert self._fd is not None
        info = ClaimRecord(
            pid=os.getpid(),
            vault=str(self.vault),
            started=datetime.now(UTC).isoformat(timespec="seconds"),
            port=port,
            host=host,
            now=now,
        )
        data = info.model_dump_json(exclude_none=True).encode()
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, data, 0)

    def __exit__(self, *exc: object) -> None:
        if self._fd is None:
            return
        os.ftruncate(self._fd, 0)
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def read_claim(path: Path) -> ClaimRecord:
    try:
        return ClaimRecord.model_validate_json(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError, ValidationError):
        return ClaimRecord()


def daemon_serving(vault: Path) -> ClaimRecord | None:
    """The claim of the live daemon serving this very vault (pid, port, host, vault, now), or
    None: no claim, one nothing holds any more (the daemon died), one for another vault (a
    different folder behind the same key), or one not yet listening (no port)."""
    real = os.path.realpath(vault)
    path = claim_file(vault)
    info = read_claim(path)
    if info.vault != real or info.port is None:
        return None
    return info if held_elsewhere(path) else None


def _daemon_on_port(port: int) -> ClaimRecord | None:
    if not claims_dir().is_dir():
        return None
    for path in sorted(claims_dir().glob("*.json")):
        info = read_claim(path)
        # a crashed daemon leaves its claim file behind, but nothing holds it
        if info.port == port and held_elsewhere(path):
            return info
    return None


def check_host(host: str, unsafe_bind: bool) -> str:
    """The address to bind: loopback unless the person insists."""
    if host in LOOPBACK:
        return "127.0.0.1"
    if not unsafe_bind:
        raise ConfigError(
            f"--host {host}: refusing to listen beyond this machine; the API reads and changes "
            "your vault. Pass --unsafe-bind as well if you really mean it"
        )
    return host


def bind(host: str, port: int) -> socket.socket:
    """A listening-ready socket on host:port (port 0: any free port), or a clear error."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto given explicitly: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
    # and without it every keep-alive response waits for a delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            other = _daemon_on_port(port)
            who = (
                f"the cortexgraph-vault daemon for {other.vault} (pid {other.pid})"
                if other
                else "another program"
            )
            raise PortInUse(
                f"{host}:{port} is already in use by {who}; choose another port with "
                "--port N (or CORTEXGRAPH_PORT)"
            ) from None
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock
