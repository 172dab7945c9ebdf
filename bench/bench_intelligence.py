"""Memory intelligence at scale: the vault vocabulary, enrichment at save, analysis, auto-recall.

    python bench/bench_intelligence.py [--notes 10000]

Prints the time to build the name lookup from every note's title and aliases (once per vault
state), a save with and without enrichment, and the analysis and auto-recall calls.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.vaultgen import generate_vault
from cortexgraph_vault.config import load_config
from cortexgraph_vault.handlers.writes import vocabulary as vocab_module
from cortexgraph_vault.service import MemoryService


def timed(fn, repeat: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs), max(runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = generate_vault(Path(tmp) / "vault", args.notes)
        service = MemoryService(
            load_config({"vault": str(vault.root), "git_commit_writes": "false"})
        )
        engine = service.engine
        a, b, c = vault.titles[10], vault.titles[200], vault.titles[3000 % len(vault.titles)]
        message = f"Remember that {a} and {b.lower()} block the launch; ask Priya about {c}."

        walk, _ = timed(engine.fresh, 3)
        start = time.perf_counter()
        vocab = vocab_module.vocabulary(engine)
        cold = (time.perf_counter() - start) * 1000
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        rebuilt = vocab_module.build_vocabulary(engine)
        after, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del rebuilt
        peak = after - before
        warm, _ = timed(lambda: vocab_module.vocabulary(engine), 20)
        found = [e.name for e in vocab_module.enrichment_for(engine, message).entities]
        print(f"vault: {args.notes} notes, {len(vocab.names)} names (titles + aliases)")
        print(f"stat walk of the catalogue without a watcher (not ours): {walk:.1f} ms")
        print(f"vocabulary build (cold): {cold:.1f} ms, holds {peak / 1e6:.1f} MB")
        print(f"vocabulary (cached, includes the staleness check): median {warm:.2f} ms")
        print(f"entities found in the test message: {found}")
        long_text = (message + " ") * 40
        short_ms, _ = timed(lambda: vocab_module.enrichment_for(engine, message), 50)
        long_ms, _ = timed(lambda: vocab_module.enrichment_for(engine, long_text), 10)
        print(
            f"enrich one sentence: {short_ms:.2f} ms; a {len(long_text)}-char memory: {long_ms:.1f} ms"
        )

        counter = iter(range(10**6))
        enriched, worst = timed(lambda: service.save(f"{message} #{next(counter)}"), 20)
        plain, _ = timed(
            lambda: service.save(f"{message} #{next(counter)}", entities=["x"], strength=1.0), 20
        )
        print(f"save with enrichment: median {enriched:.1f} ms (max {worst:.1f}); "
              f"without: {plain:.1f} ms")  # fmt: skip
        calls = (
            ("analyze_message", lambda: service.analyze_message(message)),
            (
                "analyze_for_recall",
                lambda: service.analyze_for_recall(f"What did I say about {a}?"),
            ),
            ("auto_recall (subtle)", lambda: service.auto_recall(message, mode="subtle")),
            ("review (limit 20)", lambda: service.review(20)),
        )
        for name, fn in calls:
            median, _ = timed(fn, 5)
            print(f"without a watcher (a CLI call), {name}: median {median:.1f} ms")
        engine.start_watcher()
        try:
            enriched, worst = timed(lambda: service.save(f"{message} #{next(counter)}"), 20)
            print(f"with the watcher (daemon, MCP): save with enrichment: median {enriched:.1f} ms")
            for name, fn in calls:
                median, _ = timed(fn, 5)
                print(f"with the watcher, {name}: median {median:.1f} ms")
        finally:
            engine.stop_watcher()


if __name__ == "__main__":
    main()
