"""Which memories are related through shared entities or linked notes (pure)."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.relatedness import RelationFeatures, rarity, related_pairs


def f(key: str, entities: tuple[str, ...] = (), links: tuple[str, ...] = ()) -> RelationFeatures:
    return RelationFeatures(key, entities, links)


def test_two_memories_naming_only_the_same_thing_are_related() -> None:
    [pair] = related_pairs(
        [f("a", ("Project Atlas",)), f("b", ("project  atlas",)), f("c", ("Rust",))], 0.5
    )
    assert (pair.a, pair.b, pair.confidence) == ("a", "b", 1.0)
    assert pair.reason == "both name Project Atlas"


def test_shared_links_count_and_are_named_in_the_reason() -> None:
    [pair] = related_pairs([f("a", ("Postgres",), ("Ledger Migration",)),
                            f("b", ("MySQL",), ("Ledger Migration",))], 0.4)  # fmt: skip
    assert pair.confidence == 0.5
    assert pair.reason == "both link to [[Ledger Migration]]"


def test_a_feature_everyone_shares_says_little() -> None:
    crowd = [f(f"m{i}", ("Maya", f"Topic {i}")) for i in range(20)]
    assert related_pairs(crowd, 0.5) == []
    assert rarity(2) == 1.0 and rarity(20) < 0.31


def test_confidence_threshold_and_exclusions() -> None:
    memories = [f("a", ("X", "Y", "Z")), f("b", ("X", "P", "Q"))]
    [pair] = related_pairs(memories, 0.3)
    assert pair.confidence == pytest.approx(1 / 3, abs=1e-4)
    assert related_pairs(memories, 0.34) == []
    assert related_pairs(memories, 0.3, exclude={"b": {"a"}}) == []  # already related


def test_memories_without_features_are_never_paired() -> None:
    assert related_pairs([f("a"), f("b"), f("c", ("X",))], 0.0) == []
