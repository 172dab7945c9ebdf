"""Values in words and tables that line up."""

from __future__ import annotations

from cortexgraph_vault.cli.text_layout import cell, short, table


def test_values_read_as_words_not_as_python() -> None:
    assert cell(["work", "schedule"]) == "work, schedule"
    assert cell({"source": "chat", "weight": 2}) == "source=chat, weight=2"
    assert cell(True) == "yes" and cell(False) == "no" and cell(None) == ""
    assert cell(0.25) == "0.25"


def test_a_table_aligns_its_columns_under_a_rule() -> None:
    shown = table([("Oat milk", ["coffee", "milk"]), ("Tea", None)], ["title", "tags"])
    assert shown.splitlines() == [
        "title     tags",
        "--------  ------------",
        "Oat milk  coffee, milk",
        "Tea",
    ]


def test_short_text_is_one_line_and_marks_what_it_cut() -> None:
    assert short("a  b\nc", 10) == "a b c"
    assert short("x" * 20, 10) == "x" * 9 + "…"
