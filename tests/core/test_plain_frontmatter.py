"""The fast frontmatter reader against the YAML loader: whenever it answers, it answers what
the loader does (same keys in the same order, same values of the same types); and it does
answer for the frontmatter notes usually have."""

from __future__ import annotations

import datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.note import _load_yaml, parse_note
from cortexgraph_vault.core.plain_frontmatter import plain_frontmatter
from tests.conftest import examples


def typed(value: Any) -> Any:
    """A value with every type spelt out (1 == 1.0 == True to Python, not to a reader)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, repr(value))


def same_as_loader(head: str) -> dict[str, Any] | None:
    fast = plain_frontmatter(head)
    if fast is not None:
        loaded, problem = _load_yaml(head)
        assert problem is None, (head, problem)
        assert typed(fast) == typed(loaded), head
    return fast


TYPICAL = [
    "id: dca41e45-bc70-3ec3-eafb-c90d97ee7c84\ncreated: 2026-06-02T00:07:40Z\n"
    "last_used: 2026-06-02T00:07:40Z\nuse_count: 1\nstrength: 1.0\nstatus: active\n"
    "tags: [family]\nentities: [Saulbrilo Steltodiadia]\nsource: bench\n",
    "tags: [todo, idea, programming]\ncreated: 2025-06-29T12:00:00Z\naliases: [Nibrisasa-7720]\n",
    "title: \"Meeting: notes\"\ntags:\n  - work\n  - 'it''s'\ndate: 2024-01-05\n",
    "aliases:\n- One\n- Two # a comment\n# a comment line\n\nrating: 4.5\ndone: yes\nnext: ~\n",
    "tags: []\nempty:\nquoted: ''\nurl: https://example.org/a?b=c\ncount: -3\n",
    "name: Zoë 日本語 ✓\nweird: 0x1F\nsexagesimal: 12:30\noctal: 017\nunder: 1_000\n",
    "key: value\r\nother: [a, b]\r\n",
]


def test_typical_frontmatter_is_read_fast_and_exactly() -> None:
    for head in TYPICAL:
        assert same_as_loader(head) is not None, head


def test_values_are_typed_as_yaml_types_them() -> None:
    got = same_as_loader(
        "a: yes\nb: Off\nc: null\nd: 2024-01-05\ne: 2024-01-05 10:00:00+02:00\nf: .inf\n"
        "g: 1e3\nh: 1.5e+3\ni: '007'\nj: 007\n"
    )
    assert got is not None
    assert got["a"] is True and got["b"] is False and got["c"] is None
    assert got["d"] == datetime.date(2024, 1, 5)
    assert got["e"].utcoffset() == datetime.timedelta(hours=2)
    assert got["g"] == "1e3"  # YAML 1.1 wants a sign in the exponent
    assert got["h"] == 1500.0 and got["i"] == "007" and got["j"] == 7


def test_what_it_cannot_read_exactly_is_left_to_the_loader() -> None:
    for head in [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # tags
        "a: |\n  text\n",  # block scalars
        "a:\n  b: 1\n",  # nested mappings
        "a: one\n  two\n",  # a plain scalar over two lines
        'a: "tab\\there"\n',  # escapes
        "a: {b: 1}\n",  # flow mappings
        "a:\tb\n",  # tabs
        "'quoted key': 1\n",
        "a: b: c\n",  # the loader reports it
        "<<: {a: 1}\n",
        "a: <<\n",
        "yes: 1\n",  # a key that is not a string
        "  a: 1\n",  # an indented mapping
        "a: x\rb: y\n",  # a lone \r breaks a line in YAML 1.1
        "a: x\u2028b\n",
        "a: [x, [y]]\n",
        "a: [x,\n  y]\n",
        "a: [x,,y]\n",
        "- a\n- b\n",  # a list, not a mapping
        "a: 2024-01-05 10:00:00 -72\n",  # a date the loader fails to build
    ]:
        assert plain_frontmatter(head) is None, head


def test_as_many_values_as_the_loader_accepts_and_no_more() -> None:
    many = "a: [" + ", ".join(["x"] * 9_997) + "]\n"
    assert same_as_loader(many) is not None
    assert plain_frontmatter("a: [" + ", ".join(["x"] * 9_998) + "]\n") is None


def test_parse_note_gives_the_same_note_either_way() -> None:
    text = "---\n" + TYPICAL[0] + "---\n# Title\n\nBody [[Link]] #tag\n"
    parsed = parse_note(text)
    assert parsed.problem is None and parsed.body == "# Title\n\nBody [[Link]] #tag\n"
    assert typed(parsed.frontmatter) == typed(_load_yaml(TYPICAL[0])[0])


# Pieces chosen to sit on YAML's edges: indicators, comment marks, quotes, YAML 1.1 words
# and numbers, dates, unicode and characters YAML treats specially.
PIECES = [
    "a", "b", "Zoë", "日本", "word", "two words", " ", "  ", ":", ": ", "#", " #", "# ", "-",
    "- ", "--", "---", "...", "?", ",", ", ", "[", "]", "{", "}", '"', "'", "''", "\\", "|",
    ">", "&", "*", "!", "%", "@", "`", "~", "=", "<<", ".", "_", "+", "0", "1", "07", "0x1F",
    "0o7", "1_000", "12:30", "1.5", "1e3", "1e+3", ".inf", ".NaN", "-0", "+1", "yes", "No",
    "ON", "off", "true", "False", "null", "NULL", "y", "n", "2024-01-05", "2024-01-05T10:00:00Z",
    "2024-1-5 1:00:00", "2024-01-05 10:00:00.5 -5", "http://x.org/a", "\t", "\r", "\x85",
    "\u2028", "\ufeff", "\x7f", "\x00", "😀",
]  # fmt: skip
KEYS = ["a", "tags", "last_used", "two words", "yes", "null", "on", "x-y", "1a", "_", "key "]


def scalar() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(PIECES), min_size=0, max_size=4).map("".join)


def value_text() -> st.SearchStrategy[str]:
    items = st.lists(scalar(), max_size=4)
    return st.one_of(
        scalar(),
        st.builds(lambda s: f'"{s}"', scalar()),
        st.builds(lambda s: f"'{s}'", scalar()),
        items.map(lambda xs: "[" + ", ".join(xs) + "]"),
        items.map(lambda xs: "[" + ",".join(xs) + "]"),
    )


def line() -> st.SearchStrategy[str]:
    key_line = st.builds(
        lambda k, sep, v, c: f"{k}{sep}{v}{c}",
        st.sampled_from(KEYS),
        st.sampled_from([": ", ":", " : ", ":  "]),
        value_text(),
        st.sampled_from(["", " # note", "#x", "  "]),
    )
    item = st.builds(
        lambda indent, v: f"{indent}- {v}", st.sampled_from(["", "  ", "    "]), value_text()
    )
    return st.one_of(key_line, key_line, item, st.sampled_from(["", "# c", "  # c", "   "]))


@settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line(), min_size=1, max_size=6), st.sampled_from(["\n", "\r\n"]))
def test_random_frontmatter_reads_as_the_loader_reads_it(lines: list[str], newline: str) -> None:
    same_as_loader(newline.join(lines) + newline)


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KEYS[:4]), value_text()), min_size=1, max_size=5))
def test_random_key_value_pairs_read_as_the_loader_reads_them(
    pairs: list[tuple[str, str]],
) -> None:
    same_as_loader("".join(f"{k}: {v}\n" for k, v in pairs))


@settings(max_examples=examples(500), deadline=None)
@given(st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", fullmatch=True))
def test_time_stamps_in_the_form_we_write_read_as_the_loader_reads_them(stamp: str) -> None:
    # out of range ones too (month 13, hour 24, second 60): left to the loader, which reports
    for head in (f"created: {stamp}\n", f"times:\n  - {stamp}\n"):
        reported = _load_yaml(head)[1] is not None
        assert (same_as_loader(head) is None) == reported, head


def test_typed_values_repeated_past_the_remembered_read_as_the_loader_reads_them() -> None:
    # more distinct values than are remembered, each met twice
    for i in [*range(5000), *range(5000)]:
        got = same_as_loader(f"a: {i}\nb: {i}.5\nc: {'yes' if i % 2 else 'off'}\nd: 0{i}\n")
        assert got is not None and got["a"] == i
