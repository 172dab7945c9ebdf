"""What one request of each kind costs the daemon, alone: CPU per answer, context switches.

The load bench (bench/daemon_load.py) mixes the kinds, so its CPU per answer does not say which
kind the daemon spends it on. Here each kind is asked on its own, back to back from a few
keep-alive connections, against a real daemon on a copy of a vault: the CPU of the daemon
(with its git processes) and of its read processes per answer, the daemon's threads'
context switches per answer, and the answers a second.

    python -m bench.daemon_costs [--vault PATH] [--requests 2000] [--connections 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlencode

from bench.daemon_load import (
    _family_cpu_seconds,
    _memory_ids,
    _start,
    _switches,
    _wait_idle,
    _warm_up,
    _words,
    sample_vault,
    stop,
)
from bench.load_clients import Connection, request_bytes

CHANGES = {"touch", "save"}  # asked a fifth as often: each takes the disk's time


# each kind's method, URL and body, filled in per request (`_nth`)
KINDS: dict[str, tuple[str, str, str | None]] = {
    "health": ("GET", "/health", None),
    "open": ("GET", "/api/v1/memories/{id}", None),
    "list": ("GET", "/api/v1/memories?page={page}", None),
    "search": ("GET", "/api/v1/search?{q}", None),
    "touch": ("POST", "/api/v1/memories/{id}/touch", "{}"),
    "save": ("POST", "/api/v1/memories", "save"),
}


def _nth(
    kind: tuple[str, str, str | None], n: int, ids: list[str], words: list[str]
) -> tuple[str, str, str]:
    method, url, body = kind
    url = url.format(
        id=quote(ids[(n * 7) % len(ids)]),
        page=1 + n % 5,
        q=urlencode({"q": f"{words[n % len(words)]} {words[(n * 13 + 5) % len(words)]}"}),
    )
    if body == "save":
        body = json.dumps({"content": f"Cost memory {n}: " + " ".join(words[n % 50 : n % 50 + 5])})
    return method, url, body or ""


async def _ask_all(
    port: int, head: str, requests: list[tuple[str, str, str]], connections: int
) -> None:
    loop = asyncio.get_running_loop()

    async def one(part: list[tuple[str, str, str]]) -> None:
        transport, conn = await loop.create_connection(Connection, "127.0.0.1", port)
        try:
            for method, url, body in part:
                status, _ = await conn.ask(request_bytes(method, url, head, body))
                if not 200 <= status < 300:
                    raise SystemExit(f"{method} {url}: {status}")
        finally:
            transport.close()

    await asyncio.gather(*(one(requests[k::connections]) for k in range(connections)))


def daemon_costs(
    vault: Path, *, requests: int = 2000, connections: int = 10
) -> dict[str, dict[str, float]]:
    work = Path(tempfile.mkdtemp(prefix="cgv-costs-"))
    try:
        copy = work / "vault"
        shutil.copytree(vault, copy, symlinks=True)
        proc, port, token, _home = _start(copy, work / "home")
        try:
            ids, words = _memory_ids(copy), _words(copy)
            _warm_up(port, token, ids, words, readers=True)
            head = (
                f"Host: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                "Content-Type: application/json\r\n"
            )
            out: dict[str, dict[str, float]] = {}
            for name, kind in KINDS.items():
                n = requests // 5 if name in CHANGES else requests
                asked = [_nth(kind, i, ids, words) for i in range(n)]
                _wait_idle(proc.pid, timeout=30)  # the last kind's work done (a commit)
                before, switched = _family_cpu_seconds(proc.pid), _switches(proc.pid)
                started = time.monotonic()
                asyncio.run(_ask_all(port, head, asked, connections))
                took = time.monotonic() - started
                after = _family_cpu_seconds(proc.pid)
                if before is None or after is None:
                    raise SystemExit("CPU times need Linux's /proc")
                out[name] = {
                    "daemon_ms": round((after[0] - before[0]) * 1000 / n, 3),
                    "read_processes_ms": round((after[1] - before[1]) * 1000 / n, 3),
                    "switches": round((_switches(proc.pid) - switched) / n, 1),
                    "per_s": round(n / took),
                }
            return out
        finally:
            stop(proc)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.daemon_costs")
    p.add_argument("--vault", type=Path, help="a vault (git repository); default the sample")
    p.add_argument(
        "--requests", type=int, default=2000, help="of each read kind (changes: a fifth)"
    )
    p.add_argument("--connections", type=int, default=10)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="cgv-sample-"))
    try:
        vault = args.vault or sample_vault(work / "vault")
        costs = daemon_costs(vault, requests=args.requests, connections=args.connections)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'':8} {'daemon ms':>10} {'read proc ms':>13} {'switches':>9} {'per s':>7}")
    for name, row in costs.items():
        print(f"{name:8} {row['daemon_ms']:>10.3f} {row['read_processes_ms']:>13.3f} "
              f"{row['switches']:>9.1f} {row['per_s']:>7.0f}")  # fmt: skip
    print(json.dumps(costs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
