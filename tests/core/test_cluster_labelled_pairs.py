"""Duplicate detection measured on labelled memory pairs (labelled_pairs.jsonl, written by hand).

Labels: duplicate (the same memory saved again with small changes), paraphrase (the same fact
in other words), related (same person or topic, a different fact), unrelated. A flagged pair
is correct when it is a duplicate or a paraphrase: merging those loses nothing. All texts form
one pool, as memories in one vault do, so word rarity comes from the pool.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from cortexgraph_vault.core.cluster import ClusterDoc, SimilarityModel, find_clusters

PAIRS = Path(__file__).with_name("labelled_pairs.jsonl")
SAME_FACT = {"duplicate", "paraphrase"}
DUPLICATE_THRESHOLD = 0.88  # cluster_memories' default duplicate_threshold
LINK_THRESHOLD = 0.83  # its default threshold


def load() -> tuple[SimilarityModel, list[tuple[int, int, str]]]:
    docs: dict[tuple[object, ...], ClusterDoc] = {}

    def index_of(d: dict[str, object]) -> str:
        key = (d["text"], tuple(d.get("tags", ())), tuple(d.get("entities", ())))  # type: ignore[arg-type]
        if key not in docs:
            docs[key] = ClusterDoc(str(len(docs)), str(d["text"]), key[1], key[2])  # type: ignore[arg-type]
        return docs[key].key

    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]
    keyed = [(index_of(r["a"]), index_of(r["b"]), r["label"]) for r in rows]
    model = SimilarityModel(list(docs.values()))
    at = {k: i for i, k in enumerate(model.keys)}
    return model, [(at[a], at[b], label) for a, b, label in keyed]


def test_the_labelled_set_is_large_and_covers_every_kind() -> None:
    _, pairs = load()
    counts = Counter(label for _, _, label in pairs)
    assert len(pairs) >= 100
    assert set(counts) == {"duplicate", "paraphrase", "related", "unrelated"}
    assert min(counts.values()) >= 20


def test_duplicate_detection_precision(capsys: pytest.CaptureFixture[str]) -> None:
    model, pairs = load()
    found = {(min(i, j), max(i, j)) for i, j, _ in model.similar_pairs(DUPLICATE_THRESHOLD)}
    flagged = [(i, j, label) for i, j, label in pairs if (min(i, j), max(i, j)) in found]
    right = [p for p in flagged if p[2] in SAME_FACT]
    precision = len(right) / len(flagged)
    by_label = Counter(label for _, _, label in pairs)
    hits = Counter(label for _, _, label in flagged)
    with capsys.disabled():
        print(
            f"\nduplicate detection at {DUPLICATE_THRESHOLD}: {len(flagged)} flagged, "
            f"precision {precision:.3f}; recall duplicates {hits['duplicate']}/{by_label['duplicate']}, "
            f"paraphrases {hits['paraphrase']}/{by_label['paraphrase']}; flagged related "
            f"{hits['related']}, unrelated {hits['unrelated']}"
        )
    assert precision >= 0.9
    assert hits["unrelated"] == 0
    assert hits["duplicate"] >= 0.75 * by_label["duplicate"]  # it does find them


def test_no_unrelated_pair_is_merged(capsys: pytest.CaptureFixture[str]) -> None:
    """Cluster the whole pool as cluster_memories does; no cluster worth merging may hold
    both memories of an unrelated (or merely related) pair."""
    model, pairs = load()
    clusters = find_clusters(model, LINK_THRESHOLD, 12)
    merged_with = {}
    for c in clusters:
        if c.action == "merge":
            for k in c.members:
                merged_with[k] = c.id
    key = model.keys

    def together(i: int, j: int) -> bool:
        return key[i] in merged_with and merged_with[key[i]] == merged_with.get(key[j])

    merged = Counter(label for i, j, label in pairs if together(i, j))
    with capsys.disabled():
        print(
            f"\nclusters at {LINK_THRESHOLD}: {len(clusters)} ({sum(c.action == 'merge' for c in clusters)} "
            f"to merge); pairs merged by label: {dict(merged)}"
        )
    assert merged["unrelated"] == 0
    assert merged["related"] == 0
    assert merged["duplicate"] > 0


def test_tfidf_separates_better_than_rapidfuzz_token_ratios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The measured reason for the choice: the highest score any non-duplicate pair gets, set
    against the share of duplicates scoring above it (higher is better)."""
    model, pairs = load()
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]

    def separation(scores: list[tuple[float, str]]) -> float:
        worst_other = max(s for s, label in scores if label not in SAME_FACT)
        dups = [s for s, label in scores if label == "duplicate"]
        return sum(s > worst_other for s in dups) / len(dups)

    tfidf = [(model.similarity(i, j), label) for i, j, label in pairs]
    results = {"tf-idf cosine": separation(tfidf)}
    for name, scorer in (
        ("token_sort_ratio", fuzz.token_sort_ratio),
        ("token_set_ratio", fuzz.token_set_ratio),
    ):
        scores = [
            (scorer(r["a"]["text"].lower(), r["b"]["text"].lower()) / 100, r["label"]) for r in rows
        ]
        results[name] = separation(scores)
    with capsys.disabled():
        print("\nduplicates scoring above every non-duplicate pair: "
              + ", ".join(f"{k} {v:.2f}" for k, v in results.items()))  # fmt: skip
    assert results["tf-idf cosine"] > max(v for k, v in results.items() if k != "tf-idf cosine")
