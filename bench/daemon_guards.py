"""The daemon's answer to floods: `/health` while a big batch of notes appears, and while
hundreds of idle sockets are held open.

    python -m bench.daemon_guards [--notes 40000] [--sockets 400]

1. A real daemon on an empty vault; a client asks `/health` every 20 ms while `--notes` notes
   are written into `_stm/` one by one (each a file event for the watcher). Prints the
   latency of `/health` (p50, p99, max, how many over 1 s) until the batch is indexed.
2. The same daemon with CORTEXGRAPH_DAEMON_MAX_CONNECTIONS=64 and _IDLE_SECONDS=2: `--sockets`
   sockets connect and send nothing. Prints the daemon's open files before and with them,
   the latency of `/health` meanwhile, and how many of the sockets the daemon closed within
   10 s of the idle timeout.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.daemon_load import _start, stop


def _health_latencies(port: int, until: threading.Event, out: list[float]) -> None:
    while not until.is_set():
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/health")
        assert conn.getresponse().status == 200
        conn.close()
        out.append(time.perf_counter() - started)
        time.sleep(0.02)


def _summary(latencies: list[float]) -> str:
    xs = sorted(latencies)
    p = lambda q: xs[min(len(xs) - 1, int(len(xs) * q))]  # noqa: E731
    over = sum(x > 1 for x in xs)
    return (f"{len(xs)} answers, p50 {p(0.5) * 1000:.0f} ms, p99 {p(0.99) * 1000:.0f} ms, "
            f"max {xs[-1] * 1000:.0f} ms, {over} over 1 s")  # fmt: skip


def _note(i: int) -> str:
    return (f"---\nid: 00000000-0000-4000-8000-{i:012d}\ncreated: 2026-11-01T00:00:00Z\n"
            f"last_used: 2026-11-01T00:00:00Z\nuse_count: 1\n---\nNote {i} of the batch.\n")  # fmt: skip


def _indexed(port: int, token: str, want: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/api/v1/status", headers={"Authorization": f"Bearer {token}"})
    body = json.loads(conn.getresponse().read())
    return int(body.get("memories", {}).get("active", 0)) >= want


def health_during_batch(notes: int, base: Path) -> None:
    vault = base / "batch-vault"
    (vault / "_stm" / "batch").mkdir(parents=True)
    proc, port, token, _ = _start(vault, base / "batch-home")
    try:
        latencies: list[float] = []
        done = threading.Event()
        poller = threading.Thread(target=_health_latencies, args=(port, done, latencies))
        poller.start()
        for i in range(notes):
            (vault / "_stm" / "batch" / f"n{i}.md").write_text(_note(i))
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and not _indexed(port, token, notes):
            time.sleep(0.5)
        time.sleep(5)  # the collector's walks after the batch
        done.set()
        poller.join()
        print(f"/health while {notes:,} notes appear: {_summary(latencies)}")
    finally:
        stop(proc)


def idle_sockets(count: int, base: Path) -> None:
    os.environ["BENCH_DAEMON_ENV"] = json.dumps(
        {"CORTEXGRAPH_DAEMON_MAX_CONNECTIONS": "64", "CORTEXGRAPH_DAEMON_IDLE_SECONDS": "2"}
    )
    vault = base / "idle-vault"
    (vault / "_stm").mkdir(parents=True)
    proc, port, _, _ = _start(vault, base / "idle-home")
    try:
        files = lambda: len(os.listdir(f"/proc/{proc.pid}/fd"))  # noqa: E731
        before = files()
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        time.sleep(0.5)
        with_them = files()
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/health")
        status = conn.getresponse().status
        took = time.perf_counter() - started
        deadline = time.monotonic() + 12
        closed = 0
        for s in held:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                while s.recv(4096):
                    pass
                closed += 1
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed += 1
            s.close()
        print(f"{count} idle sockets (room 64, idle 2 s): open files {before} -> {with_them}; "
              f"/health {status} in {took * 1000:.0f} ms; {closed} closed by the daemon")  # fmt: skip
    finally:
        stop(proc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=40_000)
    parser.add_argument("--sockets", type=int, default=400)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cgv-guards-") as tmp:
        health_during_batch(args.notes, Path(tmp))
        idle_sockets(args.sockets, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
