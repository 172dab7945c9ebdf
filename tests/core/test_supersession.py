"""The standing a memory takes over from those it supersedes: values in, values out."""

from __future__ import annotations

from datetime import timedelta

from cortexgraph_vault.core.rules import DecayFields
from cortexgraph_vault.core.supersession import standing_changes, taken_over
from tests.conftest import NOW


def fields(*, days_ago: float, uses: int, use_days: int = 1, strength: float = 1.0,
           last_used_days_ago: float | None = None) -> DecayFields:  # fmt: skip
    created = NOW - timedelta(days=days_ago)
    last = NOW - timedelta(days=days_ago if last_used_days_ago is None else last_used_days_ago)
    return DecayFields(created, last, uses, strength, use_days)


def test_a_correction_takes_the_uses_days_and_strength_of_the_error_it_corrects() -> None:
    paris = fields(days_ago=60, uses=5, use_days=5, strength=1.3, last_used_days_ago=38)
    berlin = fields(days_ago=0, uses=1)
    after = taken_over(berlin, [paris])
    assert after.use_count == 6  # the slot's uses: each was a use of the same fact
    assert after.use_days == 5
    assert after.strength == 1.3
    assert after.created == berlin.created  # its own save time stays
    assert after.last_used == berlin.last_used  # the later use


def test_the_later_last_use_wins_and_days_never_exceed_uses() -> None:
    old = fields(days_ago=10, uses=2, use_days=2, last_used_days_ago=0)
    new = fields(days_ago=20, uses=1, use_days=1, last_used_days_ago=20)
    after = taken_over(new, [old])
    assert after.last_used == old.last_used
    assert after.use_days <= after.use_count == 3


def test_several_old_memories_add_up_and_none_changes_nothing() -> None:
    new = fields(days_ago=0, uses=2, use_days=2)
    olds = [fields(days_ago=30, uses=3, use_days=3), fields(days_ago=50, uses=4, use_days=2)]
    assert taken_over(new, olds).use_count == 9
    assert taken_over(new, []) == new


def test_the_changes_name_only_the_fields_that_moved() -> None:
    new = fields(days_ago=0, uses=1)
    old = fields(days_ago=30, uses=1, last_used_days_ago=30)
    changes = standing_changes(new, taken_over(new, [old]))
    assert changes == {"use_count": 2}
    assert standing_changes(new, new) == {}
