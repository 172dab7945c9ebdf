"""Scenario 6 — load: 50 concurrent REST clients mixing reads and writes against the daemon on
a generated vault (bench/vaultgen.py), then a burst of 1,000 external file changes while
clients keep reading.

Zero errors; every touch counted; latency percentiles reported (figures, not assertions);
after the burst settles, the daemon's index says what a fresh index of the files says.
In CI: 2,000 notes, 3,000 requests and a burst of 1,000; a person's run (tests/conftest.py
`scenario_size`): 500 notes, 600 requests, a burst of 300; `--soak`: 10,000 notes and 50,000
requests. A count, not a time: a busy machine makes the run longer, never thinner.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import httpx
import pytest

from bench.vaultgen import generate_vault
from cortexgraph_vault.config import load_config
from cortexgraph_vault.engine import VaultEngine
from tests.api.daemon_process import Daemon, isolated_env, start_daemon
from tests.conftest import NOW, NOW_ISO, git, scenario_size
from tests.reliability.vault_audit import memories_on_disk

CLIENTS = 50
SETTLE_SECONDS = 90


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.touched: Counter[str] = Counter()
        self.calls = 0

    def timed(self, kind: str, call) -> httpx.Response | None:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            r = call()
        except httpx.HTTPError as exc:
            with self.lock:
                self.calls += 1
                self.errors.append(f"{kind}: {type(exc).__name__} {exc}")
            return None
        elapsed = time.perf_counter() - start
        with self.lock:
            self.calls += 1
            self.latency[kind].append(elapsed)
            if r.status_code >= 300:
                self.errors.append(f"{kind}: {r.status_code} {r.text[:200]}")
        return r

    def answered(self) -> int:
        with self.lock:
            return self.calls

    def summary(self) -> dict[str, object]:
        every = [v for values in self.latency.values() for v in values]
        return {
            "requests": len(every),
            "p50_ms": round(percentile(every, 0.50) * 1000, 1),
            "p99_ms": round(percentile(every, 0.99) * 1000, 1),
            "p99_ms_by_kind": {
                k: round(percentile(v, 0.99) * 1000, 1) for k, v in sorted(self.latency.items())
            },
            "errors": len(self.errors),
        }


def http_client(daemon: Daemon) -> httpx.Client:
    headers = {"Authorization": f"Bearer {daemon.token}"}
    return httpx.Client(base_url=daemon.url, headers=headers, timeout=120)


def client_loop(daemon: Daemon, ids: list[str], words: list[str], stop: threading.Event,
                rec: Recorder, seed: int, *, writes: bool) -> None:  # fmt: skip
    rng = random.Random(seed)
    with http_client(daemon) as client:
        while not stop.is_set():
            roll = rng.random() if writes else rng.random() * 0.8
            pick = rng.choice(ids)
            if roll < 0.30:
                q = " ".join(rng.sample(words, 2))
                rec.timed("search", lambda q=q: client.get("/api/v1/search", params={"q": q}))
            elif roll < 0.50:
                page = rng.randint(1, 5)
                rec.timed("list", lambda p=page: client.get("/api/v1/memories", params={"page": p}))
            elif roll < 0.80:
                rec.timed("open", lambda m=pick: client.get(f"/api/v1/memories/{m}"))
            elif roll < 0.95:
                r = rec.timed(
                    "touch", lambda m=pick: client.post(f"/api/v1/memories/{m}/touch", json={})
                )
                if r is not None and r.status_code == 200:
                    with rec.lock:
                        rec.touched[pick] += 1
            else:
                body = {
                    "content": f"Load test memory {seed} {rng.random()} "
                    + " ".join(rng.sample(words, 5))
                }
                rec.timed("save", lambda b=body: client.post("/api/v1/memories", json=b))


def external_burst(vault: Path, words: list[str], rng: random.Random, size: int) -> dict[str, int]:
    """Like a sync tool landing a day of edits: new notes, edited memories, deleted notes."""
    made = edited = removed = 0
    (vault / "Burst").mkdir()
    memories = sorted((vault / "_stm").glob("*.md"))
    others = sorted(p for p in vault.rglob("*.md") if p.parent.name not in ("_stm", "Burst"))
    for n in range(size):
        kind = n % 10
        if kind < 5:
            (vault / "Burst" / f"Burst note {n}.md").write_text(
                f"# Burst {n}\n\nburstmarker {' '.join(rng.sample(words, 8))}\n"
            )
            made += 1
        elif kind < 8 and memories:
            with memories.pop(rng.randrange(len(memories))).open("a") as fh:
                fh.write(f"\nburstmarker edit {n}\n")
            edited += 1
        elif others:
            others.pop(rng.randrange(len(others))).unlink()
            removed += 1
    return {"created": made, "edited": edited, "deleted": removed}


def fresh_view(vault: Path, cache: Path) -> tuple[int, dict[str, tuple[int, str]]]:
    """Note count and id → (use_count, content) from an index built from nothing."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CORTEXGRAPH_CACHE_DIR", str(cache))
        engine = VaultEngine(load_config({"vault": str(vault), "now": NOW_ISO}))
    found = {m.id: (m.use_count, m.content) for m in engine.catalog.memories() if m.id}
    return len(engine.catalog), found


def daemon_view(client: httpx.Client) -> tuple[int, dict[str, tuple[int, str]]]:
    notes = client.get("/api/v1/status").json()["notes"]
    found: dict[str, tuple[int, str]] = {}
    page = 1
    while True:
        r = client.get("/api/v1/memories", params={"status": "all", "page_size": 200, "page": page})
        for m in r.json()["memories"]:
            found[m["id"]] = (m["use_count"], m["content"])
        if not r.json()["pagination"]["has_more"]:
            return notes, found
        page += 1


def test_fifty_clients_then_a_burst_of_external_changes(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    notes, requests, burst = (
        (10_000, 50_000, 1_000) if soak else
        (scenario_size(2_000, 500), scenario_size(3_000, 600), scenario_size(1_000, 300))
    )  # fmt: skip
    vault = tmp_path / "vault"
    generated = generate_vault(vault, notes, now=NOW)
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "generated vault")
    words = list(generated.vocabulary[50:2000])
    start_counts = {mid: found[0][1]["use_count"] for mid, found in memories_on_disk(vault).items()}
    ids = sorted(start_counts)
    home = tmp_path / "home"
    daemon = start_daemon(home, vault, env=isolated_env(home, CORTEXGRAPH_GIT_AUTO_COMMIT="false"))
    try:
        rec, readers = Recorder(), Recorder()
        stop = threading.Event()
        threads = [threading.Thread(target=client_loop, args=(daemon, ids, words, stop, rec, n),
                                    kwargs={"writes": True}) for n in range(CLIENTS)]  # fmt: skip
        started = time.monotonic()
        for t in threads:
            t.start()
        while rec.answered() < requests and all(t.is_alive() for t in threads):
            time.sleep(0.05)
        stop.set()
        for t in threads:
            t.join()
        assert not rec.errors, rec.errors[:5]
        load = rec.summary()
        seconds = round(time.monotonic() - started, 1)
        on_disk = {mid: found[0][1]["use_count"] for mid, found in memories_on_disk(vault).items()}
        wrong = {m: (on_disk[m], start_counts[m] + rec.touched[m]) for m in ids
                 if on_disk[m] != start_counts[m] + rec.touched[m]}  # fmt: skip
        assert not wrong, f"touches lost (id: (disk, expected)): {list(wrong.items())[:5]}"

        # The burst, while 10 clients keep reading.
        stop = threading.Event()
        threads = [threading.Thread(target=client_loop, args=(daemon, ids, words, stop, readers,
                   100 + n), kwargs={"writes": False}) for n in range(10)]  # fmt: skip
        for t in threads:
            t.start()
        burst_start = time.monotonic()
        changes = external_burst(vault, words, random.Random(7), burst)
        expected = fresh_view(vault, tmp_path / "fresh-cache")
        client = http_client(daemon)
        deadline = time.monotonic() + SETTLE_SECONDS
        while (seen := daemon_view(client)) != expected and time.monotonic() < deadline:
            time.sleep(0.5)
        settle = time.monotonic() - burst_start
        stop.set()
        for t in threads:
            t.join()
        assert seen[0] == expected[0], f"daemon has {seen[0]} notes, a fresh index {expected[0]}"
        differ = [m for m in expected[1] if seen[1].get(m) != expected[1][m]]
        assert not differ and set(seen[1]) == set(expected[1]), differ[:5]
        found = client.get("/api/v1/search", params={"q": "burstmarker", "status": "all",
                                                     "page": 1, "page_size": 10}).json()  # fmt: skip
        assert found["pagination"]["total_count"] == changes["created"] + changes["edited"]
        assert not readers.errors, readers.errors[:5]
    finally:
        stop.set()
        assert daemon.stop() == 0, daemon.err[-3000:]
    assert "Traceback" not in daemon.err, daemon.err[-3000:]
    figures.update(notes=notes, clients=CLIENTS, seconds=seconds, **load,
                   touches=sum(rec.touched.values()), lost_touches=0,
                   burst=changes, settle_s=round(settle, 1),
                   reads_during_burst=readers.summary()["requests"],
                   burst_read_errors=0, index_differences=0)  # fmt: skip
