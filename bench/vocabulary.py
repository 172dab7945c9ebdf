"""`python -m bench.vocabulary`: a huge note of new words, added and deleted again and again.

Issue 15 item 3: a 2.4 MB note of 200k random words added and deleted 4 times blocked
searches for longer each round and memory never came back. This drives the live index the
daemon keeps (catalogue + watcher) over a copy of the sample vault: a thread searches
without pause and records how long each search waited; the process's RSS is read after each
round, and the index cache is written at the end and its size reported.

    python -m bench.vocabulary [--rounds 4] [--words 200000]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import string
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _random_words(rng: random.Random, count: int) -> str:
    letters = string.ascii_lowercase
    words = ("".join(rng.choices(letters, k=rng.randint(6, 15))) for _ in range(count))
    return " ".join(words) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--words", type=int, default=200_000)
    args = parser.parse_args(argv)

    from cortexgraph_vault.index.cache.index_cache import IndexCache
    from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
    from cortexgraph_vault.index.watcher import VaultWatcher
    from cortexgraph_vault.vault.layout import VaultLayout

    rng = random.Random(15)
    with tempfile.TemporaryDirectory(prefix="cgv-vocab-") as tmp:
        vault = Path(tmp) / "vault"
        shutil.copytree(ROOT / "cortexgraph_vault" / "sample_vault", vault)
        catalog = VaultCatalog(VaultLayout(vault))
        catalog.refresh()
        watcher = VaultWatcher(catalog)
        watcher.start()
        waits: list[float] = []
        stop = threading.Event()

        def search() -> None:
            while not stop.is_set():
                started = time.perf_counter()
                catalog.search_text(["standing", "desk"])
                waits.append(time.perf_counter() - started)
                time.sleep(0.005)

        searcher = threading.Thread(target=search, daemon=True)
        searcher.start()
        rows = []
        rss_start = _rss_mb()
        big = vault / "Big.md"
        for round_no in range(1, args.rounds + 1):
            text = "# Big\n\n" + _random_words(rng, args.words)
            marker = text.split()[5]
            waits.clear()
            started = time.perf_counter()
            big.write_text(text)
            while not catalog.search_text([marker])[0]:
                time.sleep(0.01)
            added = time.perf_counter() - started
            big.unlink()
            while catalog.note("Big.md") is not None:
                time.sleep(0.01)
            took = time.perf_counter() - started
            time.sleep(0.3)
            rows.append(
                {
                    "round": round_no,
                    "note_mb": round(len(text) / 1e6, 2),
                    "indexed_s": round(added, 2),
                    "add_and_delete_s": round(took, 2),
                    "longest_search_wait_s": round(max(waits, default=0.0), 3),
                    "searches": len(waits),
                    "rss_mb": round(_rss_mb()),
                    "terms_held": len(catalog.text._postings),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
        stop.set()
        searcher.join()
        watcher.stop()
        cache = IndexCache(Path(tmp) / "cache.pickle", catalog.layout, catalog.max_note_bytes)
        cache.save(catalog)
        summary = {
            "notes": len(catalog),
            "rss_start_mb": round(rss_start),
            "cache_kb": round(cache.path.stat().st_size / 1024),
            "cache_save_s": round(cache.save_seconds, 3),
            "live_terms": catalog.text.vocabulary_size,
        }
        print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
