"""`python -m bench.bench_import`: import, re-import, export and draw a CortexGraph store.

A synthetic store of N memories (with superseded lines, tombstones and N/2 relations) is
imported into an empty git vault through MemoryService; every figure is wall time of one
service call in this process, and peak RSS of the process at the end.

    python -m bench.bench_import                 # 1,000 and 10,000 memories
    python -m bench.bench_import --sizes 2000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

NOW_ISO = "2026-12-01T12:00:00Z"
BASE = 1788256800  # 2026-09-01
WORDS = ("garden", "coffee", "deploy", "meeting", "novel", "python", "budget", "trip", "sensor",
         "review", "lunch", "design", "runner", "invoice", "Lund", "Maya", "Jonas", "atlas")  # fmt: skip


def make_store(folder: Path, n: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    lines: list[str] = []
    for i in range(n):
        created = BASE + i * 600
        record = {
            "id": f"mem-{i:06d}",
            "content": " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40))) + f" #{i}.",
            "meta": {"tags": rng.sample(WORDS[:10], 2), "source": "chat", "context": None, "extra": {}},
            "created_at": created, "last_used": created + rng.randint(0, 86400 * 20),
            "use_count": rng.randint(0, 6), "strength": 1.0,
            "status": rng.choices(["active", "promoted", "archived"], [8, 1, 1])[0],
        }  # fmt: skip
        lines.append(json.dumps(record))
        if i % 10 == 0:  # a later use: the earlier line is superseded
            lines.append(json.dumps({**record, "use_count": record["use_count"] + 1}))
        if i % 50 == 0:
            lines.append(json.dumps({"id": record["id"], "_deleted": True}))
    (folder / "memories.jsonl").write_text("\n".join(lines) + "\n")
    relations = [
        json.dumps(
            {
                "id": f"rel-{j:06d}",
                "from_memory_id": f"mem-{rng.randrange(n):06d}",
                "to_memory_id": f"mem-{rng.randrange(n):06d}",
                "relation_type": rng.choice(["related", "supports"]),
                "strength": 1.0,
                "created_at": BASE,
                "metadata": {},
            }
        )
        for j in range(n // 2)
    ]
    (folder / "relations.jsonl").write_text("\n".join(relations) + "\n")


def measure(n: int, work: Path) -> dict[str, Any]:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    store, vault = work / f"store-{n}", work / f"vault-{n}"
    make_store(store, n)
    vault.mkdir()
    subprocess.run(["git", "-C", str(vault), "init", "-q", "-b", "main"], check=True)

    def svc() -> MemoryService:
        return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))

    def timed(fn: Any) -> tuple[float, Any]:
        started = time.perf_counter()
        result = fn()
        return time.perf_counter() - started, result

    s = svc()
    import_s, first = timed(lambda: s.import_cortexgraph(str(store)))
    reimport_s, again = timed(lambda: svc().import_cortexgraph(str(store)))
    export_s, exported = timed(lambda: s.export_cortexgraph(str(work / f"out-{n}")))
    json_s, _ = timed(lambda: s.export_json(str(work / f"all-{n}.json")))
    graph_s, drawn = timed(lambda: s.graph_html(str(work / f"graph-{n}.html")))
    stats_s, _ = timed(s.stats)
    assert again.unchanged == first.created and again.created == 0
    return {
        "memories": n, "created": first.created, "relations": first.relations,
        "import_s": round(import_s, 2), "per_memory_ms": round(import_s / max(1, first.created) * 1000, 2),
        "reimport_s": round(reimport_s, 2), "export_jsonl_s": round(export_s, 2),
        "export_json_s": round(json_s, 2), "graph_html_s": round(graph_s, 2),
        "graph_html_kb": round(drawn.bytes / 1024), "stats_s": round(stats_s, 2),
        "exported": exported.memories,
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["CORTEXGRAPH_CONFIG_DIR"] = str(work / "config")
        os.environ["CORTEXGRAPH_CACHE_DIR"] = str(work / "cache")
        for n in args.sizes:
            # Each size in its own process, so RSS is that of one import.
            out = subprocess.run(
                ["python", "-c", f"from bench.bench_import import measure; from pathlib import Path; "
                 f"import json; print(json.dumps(measure({n}, Path({str(work)!r}))))"],
                capture_output=True, text=True, env={**os.environ}, check=False,
            )  # fmt: skip
            if out.returncode != 0:
                raise SystemExit(out.stderr)
            print(out.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
