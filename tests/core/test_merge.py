"""The merge rules of REFERENCE §1 item 12, on known memories."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cortexgraph_vault.core.merge import (
    MergeSource,
    distinct_contents,
    memory_hash,
    merge,
    merged_strength,
)

T = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def src(content: str, *, day: int, used: int, uses: int, strength: float,
        tags: tuple[str, ...] = (), entities: tuple[str, ...] = ()) -> MergeSource:  # fmt: skip
    return MergeSource(
        content, tags, entities, T.replace(day=day), T.replace(day=used), uses, strength
    )


THREE = [
    src("Maya takes oat milk in her coffee.", day=10, used=20, uses=3, strength=1.2,
        tags=("preferences", "food"), entities=("Maya",)),
    src("Maya takes oat milk in her coffee, never cow's milk.", day=3, used=12, uses=2,
        strength=1.0, tags=("preferences",), entities=("maya", "Oat milk")),
    src("maya takes OAT milk in her coffee", day=7, used=25, uses=4, strength=1.5,
        tags=("drinks",)),
]  # fmt: skip


def test_three_known_memories_merge_as_the_rules_say() -> None:
    merged = merge(THREE, cohesion=0.9)
    # strength = min(2, max(s) + min(0.5, 0.1 * cohesion * N)) = 1.5 + 0.27
    assert merged.strength == pytest.approx(1.77)
    assert merged.tags == ("preferences", "drinks", "food")  # union, oldest first
    assert merged.entities == ("maya", "Oat milk")  # case-insensitive union
    assert merged.created == T.replace(day=3)  # the earliest
    assert merged.last_used == T.replace(day=25)  # the latest
    assert merged.use_count == 9  # the sum
    # the two shorter texts are contained in the longest: it alone is the content
    assert merged.content == "Maya takes oat milk in her coffee, never cow's milk."
    assert merged.kept == (1,)


def test_distinct_contents_are_joined_oldest_first() -> None:
    a = src("Standup moved to 10:30.", day=5, used=5, uses=1, strength=1.0)
    b = src("Standup is cancelled on public holidays.", day=2, used=2, uses=1, strength=1.0)
    c = src("standup moved to 10:30", day=9, used=9, uses=1, strength=1.0)  # inside a
    merged = merge([a, b, c], cohesion=0.5)
    assert merged.content == "Standup is cancelled on public holidays.\n\nStandup moved to 10:30."
    assert merged.kept == (1, 0)


def test_strength_bonus_is_capped_at_half_and_strength_at_two() -> None:
    assert merged_strength([1.0, 1.0], 1.0) == 1.2
    assert merged_strength([1.0] * 12, 1.0) == 1.5  # bonus capped at 0.5
    assert merged_strength([1.8, 1.0, 1.0, 1.0, 1.0, 1.0], 0.9) == 2.0  # strength capped at 2


def test_equal_texts_keep_one_copy() -> None:
    assert distinct_contents(["Same text.", "same   text", "Other."]) == [0, 2]


def test_a_merge_needs_two_memories() -> None:
    with pytest.raises(ValueError):
        merge(THREE[:1], cohesion=1.0)


def test_memory_hash_ignores_reinforcement_but_not_edits() -> None:
    base = memory_hash("text", ["a", "b"], ["E"])
    assert memory_hash("text\n", ["b", "a"], ["E"]) == base
    assert memory_hash("text!", ["a", "b"], ["E"]) != base
    assert memory_hash("text", ["a"], ["E"]) != base
    assert memory_hash("text", ["a", "b"], ["F"]) != base
