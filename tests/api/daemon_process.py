"""A real `cortexgraph-vault serve` in a subprocess, on a free port, for the daemon tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.conftest import GIT_ENV, MEANING_OFF, NOW_ISO

STARTUP_SECONDS = 60
_URL = re.compile(r"REST\s+(http://127\.0\.0\.1:(\d+))/api/v1")


def isolated_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a daemon that touches nothing of the real user's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEXGRAPH_")}
    env.update(GIT_ENV)
    env.update(
        CORTEXGRAPH_CONFIG_DIR=str(home / "config"),
        CORTEXGRAPH_CACHE_DIR=str(home / "cache"),
        CORTEXGRAPH_DATA_DIR=str(home / "data"),
        GIT_CONFIG_GLOBAL=str(home / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        PYTHONUNBUFFERED="1",
    )
    env.setdefault(*MEANING_OFF)  # as in the tests' own process: a test turns it on by `extra`
    env.update(extra)
    return env


@dataclass
class Daemon:
    proc: subprocess.Popen[bytes]
    out_path: Path
    err_path: Path
    home: Path
    url: str = ""
    port: int = 0
    vault: Path | None = None
    _clients: list[httpx.Client] = field(default_factory=list)

    @property
    def out(self) -> str:
        return self.out_path.read_text(encoding="utf-8", errors="replace")

    @property
    def err(self) -> str:
        return self.err_path.read_text(encoding="utf-8", errors="replace")

    @property
    def token(self) -> str:
        return (self.home / "config" / "token").read_text().strip()

    def client(self, *, token: str | None = None, **kw: object) -> httpx.Client:
        """An HTTP client that sends the token (a given one, or the daemon's)."""
        headers = {"Authorization": f"Bearer {token or self.token}"}
        c = httpx.Client(base_url=self.url, headers=headers, timeout=30, **kw)  # type: ignore[arg-type]
        self._clients.append(c)
        return c

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        for c in self._clients:
            c.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"daemon did not stop on {sig}; stderr:\n{self.err}") from None


def launch(home: Path, *args: str, vault: Path | None = None, now: str | None = NOW_ISO,
           env: dict[str, str] | None = None) -> Daemon:  # fmt: skip
    """Start `serve` (or anything else) without waiting for it."""
    home.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "cortexgraph_vault.cli.main"]
    if vault is not None:
        argv += ["--vault", str(vault)]
    if now is not None:
        argv += ["--now", now]
    n = len(list(home.glob("out-*.txt")))
    out_path, err_path = home / f"out-{n}.txt", home / f"err-{n}.txt"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(
            [*argv, *args], stdout=out, stderr=err, env=env or isolated_env(home)
        )
    return Daemon(proc, out_path, err_path, home, vault=vault)


def wait_ready(d: Daemon) -> Daemon:
    """Until the banner names the URL and /health answers; fails with the daemon's stderr."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if d.proc.poll() is not None:
            raise AssertionError(f"daemon exited {d.proc.returncode}:\n{d.err}\n{d.out}")
        found = _URL.search(d.out)
        if found:
            d.url, d.port = found.group(1), int(found.group(2))
            try:
                if httpx.get(d.url + "/health", timeout=5).status_code == 200:
                    return d
            except httpx.TransportError:
                pass
        time.sleep(0.05)
    d.stop(signal.SIGKILL)
    raise AssertionError(f"daemon not ready in {STARTUP_SECONDS} s:\n{d.err}\n{d.out}")


def start_daemon(home: Path, vault: Path, *args: str, **kw: object) -> Daemon:
    return wait_ready(launch(home, "serve", "--port", "0", *args, vault=vault, **kw))  # type: ignore[arg-type]


def wait_exit(d: Daemon, timeout: float = 60) -> int:
    try:
        return d.proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        d.proc.kill()
        raise AssertionError(f"process still running:\n{d.err}") from None
