"""Which neighbouring query words may be one word written apart (core/relevance.py)."""

from __future__ import annotations

from cortexgraph_vault.core.relevance import compound_pairs


def test_two_words_that_name_something_may_be_one_word_written_apart() -> None:
    assert compound_pairs(["spell", "check"]) == [("spell", "spellcheck")]
    assert compound_pairs(["install", "add", "ons"]) == [
        ("install", "installadd"),
        ("add", "addons"),
    ]


def test_a_stop_word_or_a_piece_of_a_word_is_never_half_of_one() -> None:
    # "a long" is not "along", "my site" not "mysite", "site's" not "sites", "log in" not "login"
    assert compound_pairs(["collapse", "a", "long", "note"]) == [("long", "longnote")]
    assert compound_pairs(["my", "site", "s", "link"]) == []
    assert compound_pairs(["log", "in"]) == []
    assert compound_pairs(["spell"]) == []
    assert compound_pairs([]) == []
