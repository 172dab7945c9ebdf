"""`python -m bench.bench_sync`: merging memories across devices.

Two clones of a vault of N memories (a bare remote between them); every memory is used on both
devices (different counts, different times), then:
- `sync` on the second device: fetch, merge all N memories field by field in one process, push;
- `sync` again with nothing to do (median of 5);
- for comparison, a plain `git pull` of M memories changed on both sides through the merge
  driver git runs once per note (`python -m cortexgraph_vault.merge_driver`).
Every figure is wall time on this machine; the uses are checked to add up exactly.

    python -m bench.bench_sync                  # N = 1,000, M = 100
    python -m bench.bench_sync --memories 2000 --pull 200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
NOTE = """---
id: mem-{i:05d}
created: 2026-11-20T10:00:00Z
last_used: {last_used}
use_count: {uses}
strength: 1.0
status: active
tags: [bench, t{tag}]
---
Memory number {i}: the bench remembers that item {i} goes in drawer {drawer}.
"""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


def write_notes(vault: Path, n: int, extra: int, minute: int) -> None:
    for i in range(n):
        (vault / "_stm" / f"Memory {i:05d}.md").write_text(NOTE.format(
            i=i, uses=3 + extra, tag=i % 7, drawer=i % 13,
            last_used=f"2026-11-30T{10 + minute // 60:02d}:{minute % 60:02d}:00Z"))  # fmt: skip


def devices(work: Path, n: int) -> tuple[Path, Path, Path]:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    origin = work / "origin"
    (origin / "_stm").mkdir(parents=True)
    write_notes(origin, n, 0, 0)
    git(origin, "init", "-q", "-b", "main")
    MemoryService(load_config({"vault": str(origin)}), clock=lambda: NOW).init_git()
    remote = work / "remote.git"
    git(work, "clone", "-q", "--bare", str(origin), str(remote))
    clones = []
    for name in ("laptop", "desktop"):
        git(work, "clone", "-q", str(remote), str(work / name))
        MemoryService(load_config({"vault": str(work / name)}), clock=lambda: NOW).init_git()
        clones.append(work / name)
    return remote, clones[0], clones[1]


def both_used(laptop: Path, desktop: Path, n: int) -> None:
    write_notes(laptop, n, 2, 5)
    git(laptop, "commit", "-qam", "laptop uses")
    git(laptop, "push", "-q", "origin", "main")
    write_notes(desktop, n, 4, 9)
    git(desktop, "commit", "-qam", "desktop uses")


def bench_sync(work: Path, n: int) -> dict[str, object]:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    _, laptop, desktop = devices(work / "sync", n)
    both_used(laptop, desktop, n)
    service = MemoryService(load_config({"vault": str(desktop)}), clock=lambda: NOW)
    started = time.perf_counter()
    result = service.sync()
    merge_seconds = time.perf_counter() - started
    counts = {
        f.read_text().split("use_count: ")[1].split("\n")[0]
        for f in (desktop / "_stm").glob("*.md")
    }
    assert counts == {str(3 + 2 + 4)}, counts
    idle = []
    for _ in range(5):
        started = time.perf_counter()
        again = service.sync()
        idle.append(time.perf_counter() - started)
        assert again.up_to_date
    return {"memories": n, "merged": result.merged_count, "sync_merge_s": round(merge_seconds, 2),
            "sync_idle_median_s": round(statistics.median(idle), 3),
            "sync_idle_max_s": round(max(idle), 3)}  # fmt: skip


def bench_pull(work: Path, m: int) -> dict[str, object]:
    _, laptop, desktop = devices(work / "pull", m)
    both_used(laptop, desktop, m)
    started = time.perf_counter()
    git(desktop, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    seconds = time.perf_counter() - started
    text = (desktop / "_stm" / "Memory 00000.md").read_text()
    assert "use_count: 9" in text, text
    return {"pull_memories": m, "git_pull_driver_s": round(seconds, 2),
            "driver_per_note_ms": round(1000 * seconds / m, 1)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--pull", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for key, sub in (("CONFIG_DIR", "config"), ("CACHE_DIR", "cache"), ("DATA_DIR", "data")):
            os.environ[f"CORTEXGRAPH_{key}"] = str(work / sub)
        os.environ.setdefault("GIT_AUTHOR_NAME", "bench")
        os.environ.setdefault("GIT_AUTHOR_EMAIL", "bench@example.org")
        os.environ.setdefault("GIT_COMMITTER_NAME", "bench")
        os.environ.setdefault("GIT_COMMITTER_EMAIL", "bench@example.org")
        figures = {**bench_sync(work, args.memories), **bench_pull(work, args.pull)}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
