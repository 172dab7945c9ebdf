"""`python -m bench`: generate vaults, measure the live index and the service, print one table.

Each vault size is measured in fresh child processes (one cold start, one warm start that then
runs everything else), so peak RSS is that of one process holding one vault, as in the daemon.
Every figure is measured through MemoryService, the facade every door calls. Wall-clock figures
depend on what else the machine runs: the cold start's CPU seconds (this process and its
parsing workers) and the 1-minute load average when it started are printed beside them.

    python -m bench                 # 1k and 10k notes
    python -m bench --sizes 100000  # 100k on request
    # one cold start alone (time, CPU, peak RSS), on a vault kept from `--keep`:
    CORTEXGRAPH_CACHE_DIR=$(mktemp -d) python -m bench.run --child cold --vault VAULT
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.daemon_load import daemon_load, sample_vault
from bench.startup import cold_stats, startup_figures
from bench.table import table
from bench.vaultgen import NOW, generate_vault

DAEMON_LOAD_MAX = 10_000  # copying a 100k vault for the daemon costs more than it tells
READ_GAP = 0.02  # one client reading now and then, not a loop starving the gc of the GIL
NOW_ISO = NOW.strftime("%Y-%m-%dT%H:%M:%SZ")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_now_mb() -> float:
    """Resident now (Linux), not at the peak: what a long-lived process keeps holding."""
    with contextlib.suppress(OSError), open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return math.nan


def _service(vault: Path) -> Any:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))


# --- the children ------------------------------------------------------------------------------


def child_cold(vault: Path) -> dict[str, float]:
    import cortexgraph_vault.service  # noqa: F401  (imports are not the index's time)

    load = os.getloadavg()[0]
    started, cpu = time.perf_counter(), time.process_time()
    service = _service(vault)
    cold = time.perf_counter() - started
    service.engine.catalog.sync_vectors()  # a big vault's vectors are made behind: wait
    vectors = time.perf_counter() - started
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    # and its cache is written behind them: its peak memory is this process's too
    from cortexgraph_vault.index.cache.index_cache import wait_for_writes

    wait_for_writes(service.engine.index_cache.path)
    return {
        "cold_s": cold,
        "cold_vectors_s": vectors,
        "cold_cpu_s": time.process_time() - cpu + workers.ru_utime + workers.ru_stime,
        "load": load,
        "notes": len(service.engine.catalog),
        "rss_cold_mb": _rss_mb(),
        "rss_cold_end_mb": _rss_now_mb(),
    }


def child_floor(vault: Path) -> dict[str, float]:
    """The floor under a cold index: read every note, and read and parse each (frontmatter
    and body, core/note.py) on one core, with the files in the OS cache."""
    from cortexgraph_vault.core.note import parse_note

    paths = sorted(vault.rglob("*.md"))
    for p in paths:  # into the OS cache
        p.read_bytes()
    started = time.perf_counter()
    for p in paths:
        p.read_bytes()
    read = time.perf_counter() - started
    started = time.perf_counter()
    for p in paths:
        parse_note(p.read_bytes().decode("utf-8", errors="replace"))
    return {"read_floor_s": read, "parse_floor_s": time.perf_counter() - started}


def _queries(service: Any, rng: random.Random, count: int) -> list[str]:
    notes = [n for n in service.engine.catalog.notes()]
    queries = []
    for _ in range(count):
        note = rng.choice(notes)
        title = note.title.split()
        words = [w.strip(".,[]#").lower() for w in note.body.split() if w.strip(".,[]#").isalpha()]
        roll = rng.random()
        if roll < 0.6:
            q = " ".join(rng.sample(title, min(len(title), rng.randint(1, 2))))
        elif roll < 0.9:
            q = " ".join(rng.sample(words, rng.randint(1, 3)))
        else:
            word = rng.choice(title).lower()
            i = rng.randrange(len(word) - 1)
            q = word[:i] + word[i + 1] + word[i] + word[i + 2 :]  # swap two letters
        queries.append(q)
    return queries


def _edit_latency(service: Any, vault: Path, rng: random.Random, rounds: int) -> list[float]:
    # `has_memory`, not `memory is None`: the latter decodes every memory and keeps it
    # decoded (100k notes: 30k memories, ~100 MB no daemon holds for an edit)
    notes = [n.path for n in service.engine.catalog.notes() if not n.has_memory]
    out = []
    for i in range(rounds):
        rel = rng.choice(notes)
        token = f"edittoken{i}x{rng.randrange(10**6)}"
        path = vault / rel
        text = path.read_text(encoding="utf-8")
        started = time.perf_counter()
        with open(path, "w", encoding="utf-8") as fh:  # as another editor would save it
            fh.write(text + f"\nAdded {token} here.\n")
        while True:
            hits = service.search_unified(token, limit=1).results
            if hits and hits[0].path == rel:
                break
            if time.perf_counter() - started > 10:
                raise RuntimeError(f"edit of {rel} not visible after 10 s")
            time.sleep(0.005)
        out.append(time.perf_counter() - started)
        time.sleep(0.05)
    return out


@contextlib.contextmanager
def reads_beside(service: Any, queries: list[str]) -> Iterator[list[float]]:
    """Searches and lists asked one after another from another thread, as a door asks them
    (its lock for a read first), while the body runs; their latencies in seconds."""
    times: list[float] = []
    stop = threading.Event()
    # Each kind of read once before: a process's first list imports and builds what every
    # later one reuses, a cost of the first call, not a wait for the gc.
    service.list_memories(page=1)
    service.search_unified(queries[0])

    def read() -> None:
        for i in itertools.count():
            if stop.is_set():
                return
            t = time.perf_counter()
            with service.call_lock(True):
                if i % 2:
                    service.list_memories(page=1 + i % 5)
                else:
                    service.search_unified(queries[i % len(queries)])
            times.append(time.perf_counter() - t)
            stop.wait(READ_GAP)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield times
    finally:
        stop.set()
        thread.join()


def child_warm(vault: Path, rounds: int) -> dict[str, float]:
    import cortexgraph_vault.service  # noqa: F401

    rng = random.Random(11)
    started = time.perf_counter()
    service = _service(vault)
    warm = time.perf_counter() - started
    out: dict[str, float] = {"warm_s": warm, "parsed_warm": service.engine.catalog.parsed}
    service.engine.start_watcher()
    try:
        edits = _edit_latency(service, vault, rng, rounds)
        out["edit_p50_ms"] = _pct(edits, 0.5) * 1000
        out["edit_p95_ms"] = _pct(edits, 0.95) * 1000

        queries = _queries(service, rng, 500)
        times = []
        for q in queries:
            t = time.perf_counter()
            service.search_unified(q)
            times.append(time.perf_counter() - t)
        out["search_p50_ms"] = _pct(times, 0.5) * 1000
        out["search_p99_ms"] = _pct(times, 0.99) * 1000

        saves, ids = [], []
        for i in range(rounds):
            t = time.perf_counter()
            r = service.save(f"Benchmark memory {i}: prefers tea at {i} o'clock.", tags=["bench"])
            saves.append(time.perf_counter() - t)
            ids.append(r.memory_id)
        out["save_git_p50_ms"] = statistics.median(saves) * 1000
        # the file alone (fsync, index): the same saves without a commit each
        engine = service.engine
        engine.config = engine.config.with_values(git_commit_writes=False)
        saves = []
        for i in range(rounds):
            t = time.perf_counter()
            r = service.save(f"Benchmark note {i}: prefers coffee at {i} o'clock.", tags=["bench"])
            saves.append(time.perf_counter() - t)
            ids.append(r.memory_id)
        out["save_p50_ms"] = statistics.median(saves) * 1000
        touches = []
        for memory_id in ids:
            t = time.perf_counter()
            service.touch(memory_id)
            touches.append(time.perf_counter() - t)
        out["touch_p50_ms"] = statistics.median(touches) * 1000

        preview = service.gc(dry_run=True, limit=1000)
        t = time.perf_counter()
        # the gc under the change lock, as a door runs it
        with reads_beside(service, queries) as during_gc, service.call_lock(False):
            result = service.gc(dry_run=False, limit=1000)
        out["gc_s"] = time.perf_counter() - t
        out["gc_read_p50_ms"] = _pct(during_gc, 0.5) * 1000
        out["gc_read_max_ms"] = max(during_gc) * 1000
        out["gc_reads"] = len(during_gc)
        out["gc_n"] = result.removed_count
        assert result.removed_count == preview.total_affected and result.commit
    finally:
        service.engine.stop_watcher()
    from cortexgraph_vault.index.cache.index_cache import wait_for_writes

    wait_for_writes(service.engine.index_cache.path)  # its peak is this process's too
    out["rss_warm_mb"] = _rss_mb()
    out["rss_warm_end_mb"] = _rss_now_mb()
    return out


# --- the parent --------------------------------------------------------------------------------


def _git(vault: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}  # fmt: skip
    subprocess.run(["git", "-C", str(vault), *args], check=True, capture_output=True, env=env)


def _run_child(kind: str, vault: Path, env: dict[str, str], rounds: int) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.run", "--child", kind, "--vault", str(vault),
         "--rounds", str(rounds)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"bench child {kind} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure(size: int, workdir: Path, rounds: int, load_seconds: float) -> dict[str, float]:
    vault = workdir / f"vault-{size}"
    generated = generate_vault(vault, size)
    _git(vault, "init", "-q", "-b", "main")
    # No background repack after the big first commit: it moved files under .git/objects
    # while the daemon bench copied the vault ("No such file or directory").
    _git(vault, "config", "gc.auto", "0")
    _git(vault, "add", "-A")
    _git(vault, "commit", "-q", "-m", "generated vault")
    cache = workdir / f"cache-{size}"
    env = {**os.environ, "CORTEXGRAPH_CACHE_DIR": str(cache),
           "CORTEXGRAPH_CONFIG_DIR": str(workdir / "config"),
           "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}  # fmt: skip
    env.pop("CORTEXGRAPH_VAULT", None)
    row: dict[str, float] = {"notes": size, "forgettable": generated.forgettable}
    # A person's cold start meets a vault at rest: the generator's and git's writes are flushed
    # first, so the figure is the index's work, not the kernel's writeback competing with it.
    os.sync()
    time.sleep(1)
    row.update(_run_child("cold", vault, env, rounds))
    row["stats_cold_cli_s"] = cold_stats(vault, env, NOW_ISO, workdir / f"cache-{size}-stats")
    row.update(_run_child("floor", vault, env, rounds))
    if size <= DAEMON_LOAD_MAX:  # the daemon on a copy of the vault as generated
        row.update(daemon_load(vault, seconds=load_seconds))
    row.update(_run_child("warm", vault, env, rounds))
    row["rss_mb"] = max(row["rss_warm_mb"], row["rss_cold_mb"])
    # whole processes on the now warm vault: what a person or an MCP client waits for
    memory = sorted((vault / "_stm").glob("*.md"))[0].relative_to(vault).as_posix()
    row.update(startup_figures(vault, env, query=generated.titles[0], memory=memory, now=NOW_ISO))
    return row


def compile_package() -> None:
    """The package's bytecode written first, as `pip install .` writes it at install and any
    first run of an editable install does — unless PYTHONDONTWRITEBYTECODE is set, as on the
    machine these figures come from: every process then compiled every module it imported
    (~0.1 s a CLI call, more for each parse worker), a cost no installed copy pays."""
    import cortexgraph_vault

    package = Path(cortexgraph_vault.__file__).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    print(f"bytecode of {package} compiled (as an install does)", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="1000,10000", help="comma-separated note counts")
    p.add_argument("--rounds", type=int, default=60, help="edits, saves and touches per size")
    p.add_argument("--keep", action="store_true", help="keep the generated vaults")
    p.add_argument("--load-seconds", type=float, default=10.0, help="of each daemon load run")
    p.add_argument("--child", choices=["cold", "warm", "floor"], help=argparse.SUPPRESS)
    p.add_argument("--vault", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        children = {"cold": child_cold, "floor": child_floor}
        result = (
            children[args.child](args.vault)
            if args.child in children
            else child_warm(args.vault, args.rounds)
        )
        print(json.dumps(result))
        return 0
    workdir = Path(tempfile.mkdtemp(prefix="cgv-bench-"))
    rows = []
    try:
        compile_package()
        print("measuring the daemon on the sample vault…", file=sys.stderr, flush=True)
        sample = daemon_load(sample_vault(workdir / "sample"), seconds=args.load_seconds)
        for size in (int(s) for s in args.sizes.split(",")):
            print(f"measuring {size:,} notes…", file=sys.stderr, flush=True)
            rows.append(measure(size, workdir, args.rounds, args.load_seconds))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"vaults kept in {workdir}", file=sys.stderr)
    print(table(rows, sample))
    return 0


if __name__ == "__main__":
    sys.exit(main())
