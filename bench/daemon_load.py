"""The daemon under 50 concurrent REST clients, for `python -m bench`.

A real `cortexgraph-vault serve` on a copy of a vault, clients on keep-alive connections
mixing 30 % search, 20 % list, 30 % open, 15 % touch and 5 % save, as the reliability suite's
load scenario does. Every answer must be a 2xx; p50/p99 latency and requests per second are
reported. The clients are coroutines of one event loop in a process of their own
(bench/load_clients.py: ~0.1 ms of CPU per answer, so the figure is the daemon's). The load
starts once the daemon's start-up work is done. Beside the latencies: the service's own time
per call (`load_service_p50_p95_ms`, from get_performance_metrics: what is not queueing), and
the disk's floor for a change (`load_write_floor_ms`: a temp file written, fsynced and renamed
over a note, as every change does one at a time) with the req/s it allows at this mix; and
which ranking the load's searches had (`load_searches_ranked`: by the sentence encoder, or
by the word vectors while its vectors are not all made), so a fast row is not a worse one.

    python -m bench.daemon_load [--vault PATH] [--seconds 10] [--clients 50]

BENCH_DAEMON_ENV='{"CORTEXGRAPH_GIT_COMMIT_WRITES": "false"}' adds settings to the daemon's
environment (here: what the figures are without a git commit per save).
BENCH_DAEMON_PROFILE=<file> samples the daemon with py-spy during the load (the threads holding
the interpreter's lock; raw stacks, `python -m bench.profile_summary <file>` sums them).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from bench.load_clients import worker

CLIENTS = 50
SECONDS = 10.0
PROCESSES = 1  # one event loop holds all the clients (bench/load_clients.py)
_URL = re.compile(r"REST\s+http://127\.0\.0\.1:(\d+)/api/v1")
GIT = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}  # fmt: skip


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _env(home: Path | None = None) -> dict[str, str]:
    """The daemon's environment: its own folders, BENCH_DAEMON_ENV's settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEXGRAPH_")}
    if home is not None:
        env.update(CORTEXGRAPH_CONFIG_DIR=str(home / "config"),
                   CORTEXGRAPH_CACHE_DIR=str(home / "cache"),
                   CORTEXGRAPH_DATA_DIR=str(home / "data"))  # fmt: skip
    env.update(GIT, CORTEXGRAPH_GIT_AUTO_COMMIT="false", PYTHONUNBUFFERED="1")
    env.update(json.loads(os.environ.get("BENCH_DAEMON_ENV", "{}")))
    return env


def _start(vault: Path, home: Path) -> tuple[subprocess.Popen[bytes], int, str, Path]:
    env = _env(home)
    home.mkdir(parents=True, exist_ok=True)
    out_path = home / "out.txt"
    # The daemon's log, for a look when answers fail: BENCH_DAEMON_STDERR=<file>.
    err_path = os.environ.get("BENCH_DAEMON_STDERR", os.devnull)
    with out_path.open("wb") as out, open(err_path, "ab") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cortexgraph_vault.cli.main", "--vault", str(vault),
             "serve", "--port", "0"],
            stdout=out, stderr=err, env=env,
        )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the daemon exited: {out_path.read_text()}")
        found = _URL.search(out_path.read_text(errors="replace"))
        if found:
            port = int(found.group(1))
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    return proc, port, (home / "config" / "token").read_text().strip(), home
            except OSError:
                pass
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the daemon did not start in 120 s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """The daemon stopped as a service manager stops it (SIGTERM), killed if it hangs."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _wait_idle(pid: int, timeout: float = 180.0) -> None:
    """Until the daemon's start-up work behind its first answers is done (a big vault's
    vectors and cache are made in the background): the figures are of a daemon at work, not
    of one still starting. Waits for half a second of < 10 % CPU (Linux; elsewhere not at all)."""
    if _cpu_seconds(pid) is None:
        return

    def cpu() -> float:  # its read processes' start too
        return sum(_family_cpu_seconds(pid) or (0.0,))

    deadline = time.monotonic() + timeout
    before = cpu()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = cpu()
        if now - before < 0.05:
            return
        before = now


def _warm_up(port: int, token: str, ids: list[str], words: list[str], *, readers: bool) -> bool:
    """One request of each kind before the load: what a first search, open or save starts
    behind it (a cold vault's vectors, the link graph, a lazily loaded index, git) is start-up
    work, and `_wait_idle` then waits for it, so the figures are of a daemon at work. Whether
    the searches rank by the sentence encoder (`_meaning_made`)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 300
    while readers and time.monotonic() < deadline:
        # until a read process answers (it has loaded and warmed its index): reads go there
        conn.request("GET", "/api/v1/memories?page=1", headers=headers)
        answer = conn.getresponse()
        answer.read()
        if answer.getheader("X-Read-Process"):
            break
        time.sleep(0.05)
    made = _meaning_made(conn, headers)
    for url in (
        "/api/v1/search?" + urlencode({"q": " ".join(words[:2])}),
        "/api/v1/memories?page=1",
        *([f"/api/v1/memories/{quote(ids[0])}"] if ids else []),
    ):
        conn.request("GET", url, headers=headers)
        answer = conn.getresponse()
        answer.read()
        if answer.status != 200:
            raise SystemExit(f"warm-up {url}: {answer.status}")
    # one touch and one save: what a first change imports and opens (git, the committer)
    changes = [("POST", "/api/v1/memories", json.dumps({"content": "Warm-up memory"}))]
    changes += [("POST", f"/api/v1/memories/{quote(ids[0])}/touch", "{}")] if ids else []
    for method, url, body in changes:
        conn.request(
            method, url, body=body, headers={**headers, "Content-Type": "application/json"}
        )
        answer = conn.getresponse()
        answer.read()
        if not 200 <= answer.status < 300:
            raise SystemExit(f"warm-up {method} {url}: {answer.status}")
    conn.close()
    return made


def _meaning_made(conn: http.client.HTTPConnection, headers: dict[str, str]) -> bool:
    """Waits (up to BENCH_DAEMON_MEANING_WAIT seconds, default 300) until the daemon's status
    says every note has its sentence vector, so the searches rank as a daemon at work does
    (before, they rank by the word vectors while the encoder's worker takes a core). Whether
    they were all made: a big vault's take longer than a bench waits."""
    started = time.monotonic()
    deadline = started + float(os.environ.get("BENCH_DAEMON_MEANING_WAIT", "300"))
    first: int | None = None
    while True:
        conn.request("GET", "/api/v1/status", headers=headers)
        answer = conn.getresponse()
        meaning = json.loads(answer.read()).get("meaning") or {}
        if meaning.get("ready") or not meaning.get("enabled") or meaning.get("problem"):
            return bool(meaning.get("ready"))
        now, made, notes = time.monotonic(), int(meaning["vectors"]), int(meaning["notes"])
        first = made if first is None else first
        # a vault whose vectors are sure to take longer than the wait (10k notes: most of an
        # hour) is not waited for in vain: judged from a minute's progress
        rate = (made - first) / (now - started) if now - started >= 60 else 0.0
        if now > deadline or (rate > 0 and now + (notes - made) / rate > deadline):
            return False
        time.sleep(0.5)


@contextlib.contextmanager
def _profiled(pid: int, seconds: float) -> Iterator[None]:
    """py-spy on the daemon for the load's window when BENCH_DAEMON_PROFILE names a file;
    each read process beside it in that file's name with `.read<pid>` added."""
    out = os.environ.get("BENCH_DAEMON_PROFILE")
    if not out:
        yield
        return
    spy = shutil.which(
        "py-spy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    if spy is None:
        raise SystemExit("BENCH_DAEMON_PROFILE needs py-spy (pip install py-spy)")
    targets = [(pid, out)] + [(child, f"{out}.read{child}") for child in _children(pid)]
    record = [spy, "record", "-d", str(max(1, int(seconds))), "-r", "250", "--gil", "-t",
              "-f", "raw"]  # fmt: skip
    spies = [
        subprocess.Popen(
            [*record, "-p", str(target), "-o", path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for target, path in targets
    ]
    try:
        yield
    finally:
        for spying in spies:
            spying.wait()


def _switches(pid: int) -> int:
    """Context switches of a process's threads so far (Linux; else 0)."""
    total = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            for line in status.read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[-1])
    return total


def _rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _children_cpu() -> float:
    """CPU seconds of this process's children waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _children(pid: int) -> list[int]:
    """The live child processes of `pid` (the daemon's read processes, a git at work)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _family_cpu_seconds(pid: int) -> tuple[float, float] | None:
    """CPU time so far of the daemon (with its finished children: git) and of its live
    children (its read processes)."""
    own = _cpu_seconds(pid)
    if own is None:
        return None
    return own, sum(_cpu_seconds(c) or 0.0 for c in _children(pid))


def _cpu_seconds(pid: int) -> float | None:
    """CPU time a process and its waited-for children (git) used so far (Linux; else None)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return None
    fields = stat.read_text().rsplit(")", 1)[1].split()
    # utime, stime, cutime, cstime
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _memory_ids(vault: Path) -> list[str]:
    ids = []
    for path in sorted((vault / "_stm").glob("*.md")):
        found = re.search(r"^id: *(\S+)", path.read_text(encoding="utf-8"), re.M)
        if found:
            ids.append(found.group(1).strip("'\""))
    return ids


def _words(vault: Path) -> list[str]:
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted(vault.rglob("*.md"))[:400])
    return sorted({w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)})[:2000]


def daemon_load(vault: Path, *, clients: int = CLIENTS, seconds: float = SECONDS) -> dict[str, Any]:
    """Figures of `clients` clients for `seconds` against a daemon on a copy of `vault`."""
    work = Path(tempfile.mkdtemp(prefix="cgv-load-"))
    try:
        copy = work / "vault"
        shutil.copytree(vault, copy, symlinks=True)
        floor_ms = write_floor_ms(copy / "_stm")
        proc, port, token, _home = _start(copy, work / "home")
        try:
            ids, words = _memory_ids(copy), _words(copy)
            meaning = _warm_up(
                port, token, ids, words, readers=_env().get("CORTEXGRAPH_READ_PROCESSES") != "0"
            )
            _wait_idle(proc.pid)
            ranked_before = _searches_ranked(_operations(port, token))
            until = time.monotonic() + 1.0 + seconds
            per = [list(range(n, clients, PROCESSES)) for n in range(PROCESSES)]
            ctx = multiprocessing.get_context("spawn")
            clients_before = _children_cpu()
            with ctx.Pool(PROCESSES) as pool, _profiled(proc.pid, seconds):
                readers = _children(proc.pid)
                started, cpu_before = time.monotonic(), _family_cpu_seconds(proc.pid)
                switches_before = sum(_switches(p) for p in [proc.pid, *readers])
                parts = pool.map(worker, [(port, token, ids, words, s, until) for s in per])
                took, cpu_after = time.monotonic() - started, _family_cpu_seconds(proc.pid)
                switches = sum(_switches(p) for p in [proc.pid, *readers]) - switches_before
            clients_cpu = _children_cpu() - clients_before  # the pool's, waited for at its end
            rss = (_rss_mb(proc.pid), sum(_rss_mb(c) for c in _children(proc.pid)))
            operations = _operations(port, token)
            service_ms = _service_timings(operations)
            ranked = _searches_ranked(operations)
        finally:
            stop(proc)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    answers = [a for part in parts for a in part]
    bad = [a for a in answers if not 200 <= a[2] < 300]
    if bad:
        raise SystemExit(f"{len(bad)} of {len(answers)} answers were errors, e.g. {bad[:3]}")
    times = [a[1] for a in answers]
    by_kind = {
        kind: [a[1] for a in answers if a[0] == kind]
        for kind in ("search", "list", "open", "touch", "save")
    }
    return {
        **{
            f"load_{k}_p50_p99_ms": (round(_pct(v, 0.5) * 1000), round(_pct(v, 0.99) * 1000))
            for k, v in by_kind.items()
        },
        "load_p50_ms": _pct(times, 0.5) * 1000,
        "load_p99_ms": _pct(times, 0.99) * 1000,
        "load_rps": len(answers) / took,
        "load_requests": len(answers),
        # the searches ranked by the sentence encoder (every note had its vector)
        "load_meaning_ready": meaning,
        # the load's searches the encoder would read, by what ranked them (answered by the
        # read processes): word vectors mean a row measured a cheaper, worse ranking
        "load_searches_ranked": {k: n - ranked_before.get(k, 0) for k, n in ranked.items()},
        # the daemon's CPU (its git processes' and read processes' too) per answer: what bounds
        # req/s on a busy machine; and of that, the read processes' (api/read_processes.py)
        "load_daemon_cpu_ms_per_request": (
            round((sum(cpu_after) - sum(cpu_before)) * 1000 / len(answers), 2)
            if cpu_before is not None and cpu_after is not None and answers
            else None
        ),
        "load_read_processes_cpu_ms_per_request": (
            round((cpu_after[1] - cpu_before[1]) * 1000 / len(answers), 2)
            if cpu_before is not None and cpu_after is not None and answers
            else None
        ),
        # the daemon's threads handing the interpreter to each other: in the kernel, a third of
        # its CPU was switching between them (perf, session 9)
        "load_switches_per_request": round(switches / len(answers), 1) if answers else None,
        # the clients' own CPU per answer: on a 2-core machine they share the daemon's cores
        "load_client_cpu_ms_per_request": (
            round(clients_cpu * 1000 / len(answers), 2) if answers else None
        ),
        "load_average": round(os.getloadavg()[0], 1),
        # resident memory after the load: the daemon's, its read processes' (a second index)
        "load_rss_mb": [round(rss[0]), round(rss[1])],
        "load_service_p50_p95_ms": service_ms,
        # the disk's own bound: changes are made one at a time, each at least one fsynced
        # temp file and a rename (the folder's fsync is shared, off the turn); 20 % of the mix
        "load_write_floor_ms": round(floor_ms, 2),
        "load_rps_disk_ceiling": round(1000 / floor_ms / WRITE_SHARE),
    }


WRITE_SHARE = 0.20  # touch + save in the mix


def write_floor_ms(folder: Path, n: int = 50) -> float:
    """Median time of the least a change writes on this disk: a temp file written and
    fsynced, then renamed over the note (what `vault/files.py` does on the writer's turn)."""
    note = folder / ".cgv-floor.md"
    note.write_bytes(b"x" * 600)
    took = []
    for i in range(n):
        started = time.perf_counter()
        tmp = folder / f".cgv-floor-{i}.tmp"
        with open(tmp, "xb") as fh:
            fh.write(b"y" * 600)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, note)
        took.append(time.perf_counter() - started)
    note.unlink()
    return _pct(took, 0.5) * 1000


def _operations(port: int, token: str) -> list[dict[str, Any]]:
    """The daemon's performance metrics: each operation's count and timings."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(
        "POST", "/api/v1/operations/get_performance_metrics", body="{}",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )  # fmt: skip
    answer = json.loads(conn.getresponse().read())
    conn.close()
    operations: list[dict[str, Any]] = answer.get("operations", [])
    return operations


def _service_timings(operations: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """How long the service itself took per call (p50, p95), queueing in the daemon left out."""
    return {
        o["operation"].removeprefix("rest."): (o["p50_ms"], o["p95_ms"])
        for o in operations
        if o["operation"] != "get_performance_metrics"
    }


def _searches_ranked(operations: list[dict[str, Any]]) -> dict[str, int]:
    """Searches so far by what ranked them (api/read_processes.py counts each under
    `rest.search.by_encoder` or `rest.search.by_word_vectors`)."""
    counts = {o["operation"]: int(o["count"]) for o in operations}
    return {by: counts.get(f"rest.search.{by}", 0) for by in ("by_encoder", "by_word_vectors")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.daemon_load")
    p.add_argument("--vault", type=Path, help="a vault (git repository); default the sample")
    p.add_argument("--seconds", type=float, default=SECONDS)
    p.add_argument("--clients", type=int, default=CLIENTS)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="cgv-sample-"))
    try:
        vault = args.vault or sample_vault(work / "vault")
        print(json.dumps(daemon_load(vault, clients=args.clients, seconds=args.seconds)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def sample_vault(dest: Path) -> Path:
    """The sample vault, its times rebased to now, in a git repository of its own."""
    from datetime import UTC, datetime

    from cortexgraph_vault.vault.sample import copy_sample_vault

    vault = copy_sample_vault(dest, datetime.now(UTC))
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "sample"]):
        subprocess.run(["git", "-C", str(vault), *args], check=True, capture_output=True,
                       env={**os.environ, **GIT})  # fmt: skip
    return vault


if __name__ == "__main__":
    sys.exit(main())
