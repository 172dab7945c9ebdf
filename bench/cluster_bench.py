"""Clustering 10k generated memories: the pure core, and cluster_memories through the service.

    python bench/cluster_bench.py [--memories 10000] [--seed 7]

Memories are short (8–30 words: a Zipf-distributed made-up vocabulary mixed with English
function words), with tags and an entity; 8 % are near-duplicates of another memory (a word
or two changed, dropped or added) and 4 % are loose variants, so there is something to find.
Prints the time to build the similarity model, find clusters and duplicate pairs, the pairs
compared against all pairs, and — on a sample small enough to brute-force — that candidate
generation missed no pair above the threshold. Target: ≤ 10 s for 10k memories.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import uuid
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.cluster import ClusterDoc, SimilarityModel, find_clusters
from cortexgraph_vault.core.note import render_note
from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.service import MemoryService

NOW = "2026-12-01T12:00:00Z"
FUNCTION_WORDS = ("the", "a", "on", "in", "for", "with", "and", "to", "is", "at", "before", "after")
TAGS = ("work", "preferences", "people", "health", "travel", "reading", "databases", "family")
SYLLABLES = ("ka", "lo", "mi", "ren", "to", "sa", "vel", "dor", "ni", "qua", "bri", "stel", "an",
             "or", "ex", "ly", "mon", "pra", "tek", "zu", "ha", "jo", "fin", "gra")  # fmt: skip


def vocabulary(rng: random.Random, size: int = 8000) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def generate(n: int, seed: int) -> list[ClusterDoc]:
    rng = random.Random(seed)
    vocab = vocabulary(rng)
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    entities = [
        f"{rng.choice(vocab).capitalize()} {rng.choice(vocab).capitalize()}" for _ in range(800)
    ]
    docs: list[ClusterDoc] = []
    while len(docs) < n:
        roll = rng.random()
        if docs and roll < 0.12:
            base = rng.choice(docs)
            words = base.text.split()
            edits = 1 if roll < 0.08 else rng.randint(3, 6)  # near-duplicate or loose variant
            for _ in range(edits):
                kind = rng.random()
                if kind < 0.4 and len(words) > 6:
                    words.pop(rng.randrange(len(words)))
                elif kind < 0.7:
                    words.insert(rng.randrange(len(words)), rng.choices(vocab, weights)[0])
                else:
                    words[rng.randrange(len(words))] = rng.choice(FUNCTION_WORDS)
            docs.append(ClusterDoc(str(uuid.UUID(int=rng.getrandbits(128))), " ".join(words),
                                   base.tags, base.entities))  # fmt: skip
            continue
        words = [rng.choice(FUNCTION_WORDS) if rng.random() < 0.35 else rng.choices(vocab, weights)[0]
                 for _ in range(rng.randint(8, 30))]  # fmt: skip
        docs.append(ClusterDoc(str(uuid.UUID(int=rng.getrandbits(128))), " ".join(words),
                               tuple(rng.sample(TAGS, rng.randint(1, 2))), (rng.choice(entities),)))  # fmt: skip
    return docs


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = fn()
    print(f"{label:<52} {time.perf_counter() - start:8.3f} s")
    return value


def core(docs: list[ClusterDoc]) -> None:
    n = len(docs)
    print(f"\n== core: {n} memories")
    total = time.perf_counter()
    model = timed("build TF-IDF model", lambda: SimilarityModel(docs))
    clusters = timed(
        "find clusters (threshold 0.83, max 12)", lambda: find_clusters(model, 0.83, 12)
    )
    compared = model.compared
    pairs = timed("duplicate pairs (threshold 0.88)", lambda: model.similar_pairs(0.88))
    print(f"{'total':<52} {time.perf_counter() - total:8.3f} s")
    print(
        f"pairs compared {compared} of {n * (n - 1) // 2} ({100 * compared / max(1, n * (n - 1) // 2):.3f} %)"
    )
    merge = sum(c.action == "merge" for c in clusters)
    print(
        f"clusters {len(clusters)} ({merge} to merge), largest {max((len(c.members) for c in clusters), default=0)}, duplicate pairs {len(pairs)}"
    )


def exactness(docs: list[ClusterDoc], sample: int) -> None:
    model = SimilarityModel(docs[:sample])
    start = time.perf_counter()
    brute = {(i, j) for i, j in combinations(range(sample), 2) if model.similarity(i, j) >= 0.83}
    brute_s = time.perf_counter() - start
    found = {(i, j) for i, j, _ in model.similar_pairs(0.83)}
    missed = len(brute - found)
    print(f"\n== exactness on {sample} memories: {len(brute)} pairs ≥ 0.83 by brute force "
          f"({brute_s:.2f} s), candidate generation missed {missed}")  # fmt: skip


def service(docs: list[ClusterDoc]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        (root / "_stm").mkdir(parents=True)
        now = parse_time(NOW)
        for i, d in enumerate(docs):
            fields = {"id": d.key, "created": now, "last_used": now, "use_count": 1,
                      "strength": 1.0, "status": "active", "tags": list(d.tags),
                      "entities": list(d.entities)}  # fmt: skip
            (root / "_stm" / f"m{i:05d}.md").write_text(
                render_note(fields, d.text + "\n"), encoding="utf-8"
            )
        import os

        os.environ.setdefault("CORTEXGRAPH_CACHE_DIR", str(Path(tmp) / "cache"))
        print(f"\n== service: cluster_memories over a vault of {len(docs)} memories")
        s = timed("open the vault (index build, not part of clustering)",
                  lambda: MemoryService(load_config({"vault": str(root), "now": NOW})))  # fmt: skip
        result = timed("cluster_memories()", lambda: s.cluster())
        print(f"  {result.message}")
        dup = timed(
            "cluster_memories(find_duplicates=True)", lambda: s.cluster(find_duplicates=True)
        )
        print(f"  {dup.message}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sample", type=int, default=2_000, help="brute-force check size")
    args = parser.parse_args()
    docs = generate(args.memories, args.seed)
    core(docs)
    exactness(docs, min(args.sample, len(docs)))
    service(docs)


if __name__ == "__main__":
    main()
