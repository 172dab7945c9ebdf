"""Link-valued frontmatter fields and relation ids: pure values in, values out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cortexgraph_vault.core.link_values import link_for, link_target, listed, points_to
from cortexgraph_vault.core.relation_ids import relation_id
from tests.builders import a_memory

T = datetime(2026, 1, 1, tzinfo=UTC)
COFFEE = a_memory("Coffee black", id="3f1c9a0e", created=T)


@pytest.mark.parametrize(
    ("value", "target"),
    [
        ("[[Coffee black]]", "Coffee black"),
        ("[[_stm/Coffee black#Why|the coffee]]", "_stm/Coffee black"),
        ("![[Coffee black]]", "Coffee black"),
        ("  plain words  ", "plain words"),
        ("[[Coffee black]] and more", "[[Coffee black]] and more"),  # not one link: as written
    ],
)
def test_a_link_value_names_its_target(value: str, target: str) -> None:
    assert link_target(value) == target


def test_a_memory_is_pointed_at_by_title_path_or_id_in_any_case() -> None:
    assert link_for(COFFEE) == "[[Coffee black]]"
    for value in ("[[coffee BLACK]]", "[[_stm/Coffee black.md]]", "[[3F1C9A0E]]", "Coffee black"):
        assert points_to(value, COFFEE), value
    assert not points_to("[[Coffee]]", COFFEE)


def test_a_relation_keeps_its_id_and_differs_by_end_and_type() -> None:
    one = relation_id("a", "b", "supports", "B")
    assert one == relation_id("a", "b", "supports", "anything else")  # the target id decides
    assert len(one) == 16
    assert (
        len({one, relation_id("a", "b", "causes", "B"), relation_id("b", "a", "supports", "A")})
        == 3
    )
    # To a note that is no memory: the target's name decides, in any case.
    assert relation_id("a", None, "related", "Home") == relation_id("a", None, "related", "HOME")


def test_a_relation_links_to_the_file_name_as_obsidian_resolves_it() -> None:
    # a title the file name cannot hold is an alias, and a link never resolves by alias
    standup = a_memory("The standup is at 9:30", path="_stm/The standup is at 9 30.md")
    assert link_for(standup) == "[[The standup is at 9 30|The standup is at 9:30]]"
    assert link_for(COFFEE) == "[[Coffee black]]"
    assert points_to(link_for(standup), standup)
    assert points_to("[[The standup is at 9 30]]", standup)


@pytest.mark.parametrize(
    ("value", "values"),
    [
        (["[[A]]", "[[B]]"], ["[[A]]", "[[B]]"]),
        (("[[A]]",), ["[[A]]"]),
        ("[[A]]", ["[[A]]"]),
        (None, []),
        ("", []),
        ([], []),
        (5, [5]),  # written by hand: one value, where list(5) raised TypeError
        ({"a": 1}, [{"a": 1}]),
    ],
)
def test_a_property_is_read_as_its_list_of_values(value: object, values: list[object]) -> None:
    assert listed(value) == values
