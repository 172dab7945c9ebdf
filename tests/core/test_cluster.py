"""Similarity, candidate generation, duplicate pairs and clusters — pure values in and out."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.cluster import (
    ClusterDoc,
    SimilarityModel,
    cluster_id,
    duplicate_pairs,
    find_clusters,
    stem,
    suggested_action,
)
from tests.conftest import examples

COFFEE = "Maya takes oat milk in her coffee, never cow's milk."
COFFEE_AGAIN = "Maya takes oat milk in coffee, never cow's milk."
RUST = "Maya is curious about Rust, especially the ownership model."
DESK = "Borrowed a standing desk from Tomas; return it by the end of January."


def docs(*texts: str) -> list[ClusterDoc]:
    return [ClusterDoc(f"m{i}", t) for i, t in enumerate(texts)]


def test_cluster_id_depends_only_on_the_members() -> None:
    assert (
        cluster_id(["b", "a", "c"])
        == cluster_id(["c", "b", "a"])
        == cluster_id(["a", "b", "c", "a"])
    )
    assert cluster_id(["a", "b"]) != cluster_id(["a", "c"])
    assert cluster_id(["a", "b"]).startswith("cl-")


def test_stemming_meets_word_forms() -> None:
    assert stem("prefers") == stem("prefer") == "prefer"
    assert stem("reviewed") == stem("reviews") == stem("review") == "review"
    assert stem("reviewing") == "review" and stem("bus") == "bus" and stem("class") == "class"


def test_similarity_is_symmetric_and_one_for_the_same_text() -> None:
    model = SimilarityModel(docs(COFFEE, COFFEE_AGAIN, RUST, DESK))
    assert model.similarity(0, 1) == model.similarity(1, 0) > 0.9
    assert model.similarity(0, 0) > 0.999
    assert model.similarity(0, 3) == 0.0


def test_entities_and_tags_count_towards_similarity() -> None:
    plain = SimilarityModel([ClusterDoc("a", "likes the database"), ClusterDoc("b", "likes the editor"),
                             ClusterDoc("c", "unrelated words here")])  # fmt: skip
    tagged = SimilarityModel([ClusterDoc("a", "likes the database", ("prefs",), ("Postgres",)),
                              ClusterDoc("b", "likes the editor", ("prefs",), ("Postgres",)),
                              ClusterDoc("c", "unrelated words here")])  # fmt: skip
    assert tagged.similarity(0, 1) > plain.similarity(0, 1)


def test_duplicate_pairs_name_both_members_and_their_similarity() -> None:
    model = SimilarityModel(docs(COFFEE, RUST, COFFEE_AGAIN, DESK))
    pairs = duplicate_pairs(model, 0.88)
    assert [(p.a, p.b) for p in pairs] == [("m0", "m2")]
    assert pairs[0].similarity >= 0.88


def test_single_linkage_respects_max_cluster_size() -> None:
    texts = [f"the weekly standup moved to room {c} on the third floor" for c in "abcdef"]
    model = SimilarityModel(docs(*texts, RUST, DESK))
    assert {len(c.members) for c in find_clusters(model, 0.5, 12)} == {6}
    small = find_clusters(model, 0.5, 4)
    assert all(len(c.members) <= 4 for c in small)
    assert sum(len(c.members) for c in small) == 6  # the rest form a second cluster


def test_clusters_report_cohesion_and_action() -> None:
    model = SimilarityModel(docs(COFFEE, COFFEE_AGAIN, RUST, DESK))
    [c] = find_clusters(model, 0.83, 12)
    assert c.members == ("m0", "m1") and c.id == cluster_id(["m1", "m0"])
    assert c.cohesion == round(model.similarity(0, 1), 4) and c.action == "merge"
    assert suggested_action(0.6) == "link" and suggested_action(0.2) == "ignore"
    assert suggested_action(0.8, merge_at=0.9) == "link"


WORDS = [f"w{i}" for i in range(40)] + ["maya", "coffee", "postgres", "standup", "desk"]


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), min_size=2, max_size=30),
       st.sampled_from([0.3, 0.5, 0.7, 0.83, 0.88]))  # fmt: skip
def test_candidate_generation_never_misses_a_pair_above_the_threshold(
    texts: list[list[str]], threshold: float
) -> None:
    """Prefix filtering is exact: every pair reaching the threshold is among the candidates."""
    model = SimilarityModel(docs(*(" ".join(t) for t in texts)))
    candidates = model.candidate_pairs(threshold)
    for i, j in combinations(range(len(texts)), 2):
        if model.similarity(i, j) >= threshold:
            assert (i, j) in candidates


def test_candidates_are_far_fewer_than_all_pairs() -> None:
    rng = random.Random(7)
    vocabulary = [f"word{i}" for i in range(3000)]
    texts = [" ".join(rng.choices(vocabulary, k=12)) for _ in range(1500)]
    model = SimilarityModel(docs(*texts))
    all_pairs = 1500 * 1499 // 2
    assert len(model.candidate_pairs(0.83)) < all_pairs // 50


def test_every_pair_counts_as_compared_even_when_the_bound_rules_it_out() -> None:
    # ten memories with little in common: no pair can reach 0.83, and none is scored in full,
    # yet each of the 45 was compared (a model read `pairs_compared: 0` as "nothing looked at")
    model = SimilarityModel(docs(*(f"memory {word} about its own topic" for word in
                                   ("tea", "rust", "bike", "lena", "atlas", "ramen", "oslo",
                                    "chess", "piano", "garden"))))  # fmt: skip
    assert model.similar_pairs(0.83) == []
    assert model.compared == 45
