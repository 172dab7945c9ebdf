"""Control characters in fields that name a file or a commit are refused, naming the field."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.control_chars import (
    control_character,
    refuse_control_characters,
    without_control_characters,
)
from cortexgraph_vault.errors import InvalidArgument


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Tea\x00", (3, "U+0000 (NUL)")),
        ("\x1b[31mred", (0, "U+001B (ESC)")),
        ("a\x7f", (1, "U+007F (DEL)")),
        ("C1 \x85 next line", (3, "U+0085")),
        ("tab\tand\nlines\r\n", None),
        ("Café crème ☕ 9:30", None),
    ],
)
def test_the_first_control_character_is_found(text: str, found: tuple[int, str] | None) -> None:
    assert control_character(text) == found


def test_the_field_and_the_place_are_named() -> None:
    with pytest.raises(InvalidArgument) as refused:
        refuse_control_characters({"title": "fine", "tags": ["ok", "b\x00d"], "source": None})
    assert str(refused.value).startswith("tags[1]: holds the control character U+0000 (NUL)")
    assert refused.value.params == ("tags",)
    with pytest.raises(InvalidArgument, match=r"^metadata\.why: .*U\+0007 \(bell\)"):
        refuse_control_characters({"metadata": {"why": "ding\x07"}})
    refuse_control_characters({"title": None, "tags": [], "meta": {"n": 3}})  # nothing to refuse


def test_a_name_made_from_content_loses_its_control_characters() -> None:
    assert without_control_characters("Tea\x00 at \x1bfour\n") == "Tea at four\n"
