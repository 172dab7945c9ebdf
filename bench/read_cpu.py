"""CPU per REST read in process: a list page, a search, an open, as the daemon answers them.

Each call goes the way the REST endpoint takes it (api/routes): the query validated by its
schema, `service.run(operation, request)`, then the answer encoded by pydantic as `_json`
does. Thread CPU (`time.thread_time`) per call, over a few hundred calls of each kind, in a
service that keeps its catalogue and watches the vault (as the daemon's does).

Three figures per kind: alone (reads one after another: whatever a read keeps for the next is
kept) and after a change (a touch, or a save of a new memory, before each read, not timed:
the daemon's mix makes one change every five requests, so a read often follows one).

    python -m bench.read_cpu [--notes 10000] [--calls 300]   # --notes 0: the sample vault
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

KINDS = ("list", "search", "open")
WARM_CALLS = 200


def _vault(work: Path, notes: int) -> Path:
    if notes <= 0:
        from bench.daemon_load import sample_vault

        return sample_vault(work / "vault")
    from bench.vaultgen import generate_vault

    return generate_vault(work / "vault", notes).root


def _service(vault: Path, home: Path) -> Any:
    for name in ("CONFIG", "CACHE", "DATA"):
        os.environ[f"CORTEXGRAPH_{name}_DIR"] = str(home / name.lower())
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    return MemoryService(
        load_config({"vault": str(vault), "git_auto_commit": False, "git_commit_writes": False})
    )


def _calls(service: Any, ids: list[str], words: list[str], rng: random.Random) -> dict[str, Any]:
    """One call of each kind, each as its REST endpoint makes it."""
    from pydantic_core import to_json

    from cortexgraph_vault.api import schemas as s
    from cortexgraph_vault.operations.browse import list_memories, memory_detail
    from cortexgraph_vault.operations.vault import search_unified
    from cortexgraph_vault.requests.browse import MemoryDetailRequest

    def list_page() -> bytes:
        query = s.ListQuery.model_validate({"page": str(rng.randint(1, 5))})
        return to_json(service.run(list_memories, query.to_request()))

    def search() -> bytes:
        query = s.SearchQuery.model_validate({"q": " ".join(rng.sample(words, 2))})
        return to_json(service.run(search_unified, query.to_request()))

    def open_one() -> bytes:
        request = MemoryDetailRequest.model_construct(memory_id=rng.choice(ids))
        return to_json(service.run(memory_detail, request))

    return {"list": list_page, "search": search, "open": open_one}


def _timed(call: Callable[[], Any], n: int, before: Callable[[], Any] | None) -> list[float]:
    took = []
    for _ in range(n):
        if before is not None:
            before()
        started = time.thread_time()
        call()
        took.append((time.thread_time() - started) * 1000)
    return took


def measure(notes: int, calls: int) -> dict[str, Any]:
    from bench.daemon_load import _memory_ids, _words

    work = Path(tempfile.mkdtemp(prefix="cgv-readcpu-"))
    try:
        vault = _vault(work, notes)
        service = _service(vault, work / "home")
        service.engine.start_watcher()
        try:
            ids, words = _memory_ids(vault), _words(vault)
            rng = random.Random(5)
            kinds = _calls(service, ids, words, rng)

            def touch() -> None:
                service.touch(rng.choice(ids))

            def save() -> None:  # a new memory, as the daemon's load saves them
                service.save(f"Bench memory {rng.random()} " + " ".join(rng.sample(words, 5)))

            # warm: vectors, the graph, lazily loaded parts, the stems of the words seen
            # (a daemon at work has met them: a first look at a note's words stems them)
            for call in kinds.values():
                _timed(call, WARM_CALLS, None)
            out: dict[str, Any] = {"notes": notes or "sample", "memories": len(ids)}
            for kind, call in kinds.items():
                for label, before in (
                    ("alone", None),
                    ("after_touch", touch),
                    ("after_save", save),
                ):
                    took = _timed(call, calls, before)
                    out[f"{kind}_{label}_ms"] = {
                        "p50": round(statistics.median(took), 3),
                        "mean": round(statistics.fmean(took), 3),
                    }
            return out
        finally:
            service.engine.stop_watcher()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--notes", type=int, default=10_000, help="0: the sample vault")
    p.add_argument("--calls", type=int, default=300)
    args = p.parse_args(argv)
    print(json.dumps(measure(args.notes, args.calls), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
