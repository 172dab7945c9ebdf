"""Properties of note reading and writing over generated values and notes.

Strings with lone surrogates are left out of the round-trip property: they are not Unicode
characters, YAML has no way to hold them, and format_yaml_value refuses them (tested in
test_note.py). Everything else st.text() produces, control characters included, must round-trip.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.note import REMOVE, format_yaml_value, minimal_update, parse_note
from cortexgraph_vault.core.times import parse_time
from tests.conftest import examples

MODERATE = settings(max_examples=examples(200), deadline=None)
TARGETS = ("use_count", "last_used", "tags")

# Comment text: anything a YAML reader accepts inside one line.
comment_chars = st.characters(
    exclude_categories=("Cc", "Cs", "Cn", "Zl", "Zp"), exclude_characters="\ufeff"
)
comment_text = st.text(comment_chars, max_size=20)
keys = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(lambda k: k not in TARGETS)
scalars = st.one_of(st.text(max_size=20), st.integers(), st.booleans(), st.none())
values = st.one_of(scalars, st.lists(st.text(max_size=10), max_size=3))
times = st.datetimes(
    min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


def load_both(text: str) -> tuple[object, object]:
    return yaml.safe_load(text)["k"], yaml.load(text, Loader=yaml.CSafeLoader)["k"]


@MODERATE
@given(st.text())
def test_any_text_reads_back_unchanged(value: str) -> None:
    written = format_yaml_value(value)
    assert "\n" not in written
    assert load_both(f"k: {written}") == (value, value)


@MODERATE
@given(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False)))
def test_numbers_read_back_unchanged(value: float) -> None:
    assert load_both(f"k: {format_yaml_value(value)}") == (value, value)


@MODERATE
@given(st.lists(st.text(max_size=10)), st.dictionaries(st.text(max_size=5), st.text(max_size=5)))
def test_collections_read_back_unchanged(items: list[str], mapping: dict[str, str]) -> None:
    assert load_both(f"k: {format_yaml_value(items)}") == (items, items)
    assert load_both(f"k: {format_yaml_value(mapping)}") == (mapping, mapping)


@MODERATE
@given(st.text(st.characters(exclude_categories=())))
def test_parse_note_never_raises(text: str) -> None:
    parse_note(text)
    parse_note("---\n" + text)
    parse_note("---\n" + text + "\n---\nbody")


@st.composite
def target_segment(draw: st.DrawFn, key: str) -> list[str]:
    comment = draw(st.sampled_from(["", "  # " + draw(comment_text)]))
    if key == "use_count":
        name = draw(st.sampled_from(["use_count", '"use_count"']))
        return [f"{name}: {draw(st.integers(0, 99))}{comment}"]
    if key == "last_used":
        return [f"last_used: 2025-01-0{draw(st.integers(1, 9))}T00:00:00Z{comment}"]
    tags = draw(st.lists(st.text(max_size=8), max_size=3))
    if tags and draw(st.booleans()):
        indent = draw(st.sampled_from(["", "  "]))
        return [f"tags:{comment}", *(f"{indent}- {format_yaml_value(t)}" for t in tags)]
    return [f"tags: {format_yaml_value(tags)}{comment}"]


@st.composite
def notes(draw: st.DrawFn) -> str:
    """A note with target keys among arbitrary others, comments and blank lines."""
    segments: list[list[str]] = []
    for key in draw(st.lists(keys, unique=True, max_size=6)):
        value = draw(values)
        if isinstance(value, list) and value and draw(st.booleans()):
            segments.append([f"{key}:", *(f"  - {format_yaml_value(v)}" for v in value)])
        else:
            comment = draw(st.sampled_from(["", " # " + draw(comment_text)]))
            segments.append([f"{key}: {format_yaml_value(value)}{comment}"])
    segments += [draw(target_segment(key)) for key in TARGETS if draw(st.booleans())]
    segments = draw(st.permutations(segments))
    lines: list[str] = []
    for segment in segments:
        lines += draw(st.lists(st.sampled_from(["", "  "]).map(lambda i: i + "# c"), max_size=2))
        lines += draw(st.lists(st.just(""), max_size=1))
        lines += segment
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    body = draw(st.text(max_size=40))
    text = "".join(f"{line}{newline}" for line in ["---", *lines]) + "---"
    if body or draw(st.booleans()):
        text += newline + body
    return text


_TARGET_LINE = re.compile(r'^"?(use_count|last_used|tags)"?\s*:(.*)$', re.DOTALL)


def head_lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    closer = next(i for i, line in enumerate(lines[1:], 1) if line.rstrip("\r\n") == "---")
    return lines[1:closer]


def skeleton(lines: list[str]) -> list[str]:
    """The head with each target key's lines collapsed into a `<key>` placeholder."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = _TARGET_LINE.match(lines[i])
        i += 1
        if match is None:
            out.append(lines[i - 1])
            continue
        out.append(f"<{match.group(1)}>")
        while match.group(1) == "tags" and i < len(lines) and re.match(r"\s*- ", lines[i]):
            i += 1
    return out


changes_st = st.fixed_dictionaries(
    {},
    optional={
        "use_count": st.one_of(st.integers(0, 10**6), st.just(REMOVE)),
        "last_used": st.one_of(times, st.just(REMOVE)),
        "tags": st.one_of(st.lists(st.text(max_size=8), max_size=4), st.just(REMOVE)),
    },
)


@MODERATE
@given(notes(), changes_st)
def test_minimal_update_changes_only_the_lines_of_changed_keys(
    text: str, changes: dict[str, object]
) -> None:
    before = parse_note(text)
    assert before.problem is None, before.problem
    new = minimal_update(text, changes)
    after = parse_note(new)

    assert after.body == before.body
    assert after.newline == before.newline

    expected = skeleton(head_lines(text))
    for key, value in changes.items():
        placeholder = f"<{key}>"
        if value is REMOVE:
            expected = [line for line in expected if line != placeholder]
        elif placeholder not in expected:
            expected.append(placeholder)
    assert skeleton(head_lines(new)) == expected

    new_head = "".join(head_lines(new))
    if before.newline == "\r\n":
        assert "\n" not in new_head.replace("\r\n", "")

    wanted = dict(before.frontmatter)
    for key, value in changes.items():
        if value is REMOVE:
            wanted.pop(key, None)
        else:
            wanted[key] = value
    got = dict(after.frontmatter)
    if isinstance(wanted.get("last_used"), datetime):
        wanted["last_used"] = parse_time(wanted["last_used"]).replace(microsecond=0)
        got["last_used"] = parse_time(got["last_used"])
    assert got == wanted
