"""Reading notes leniently and editing only the lines a change is about."""

from __future__ import annotations

import difflib
from datetime import UTC, date, datetime

import pytest
import yaml

from cortexgraph_vault.core.note import (
    REMOVE,
    content_hash,
    format_yaml_value,
    minimal_update,
    parse_note,
    render_note,
)
from cortexgraph_vault.errors import NoteFormatError


def a_note(*frontmatter: str, body: str = "Body text.\n", newline: str = "\n") -> str:
    """A note from frontmatter lines (without endings) and a body."""
    lines = ["---", *frontmatter, "---"]
    return "".join(line + newline for line in lines) + body


def diff(old: str, new: str) -> tuple[list[str], list[str]]:
    """(lines only in old, lines only in new), line endings included."""
    removed: list[str] = []
    added: list[str] = []
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += old_lines[i1:i2]
            added += new_lines[j1:j2]
    return removed, added


# --- parse_note ---------------------------------------------------------------------------


def test_text_without_frontmatter_is_all_body() -> None:
    note = parse_note("Just a thought.\n---\nmore\n")
    assert (note.frontmatter, note.has_frontmatter, note.problem) == ({}, False, None)
    assert note.body == "Just a thought.\n---\nmore\n"


def test_frontmatter_and_body_are_split_at_the_closing_fence() -> None:
    note = parse_note(a_note("use_count: 3", "tags: [a, b]", body="Hello\n"))
    assert note.frontmatter == {"use_count": 3, "tags": ["a", "b"]}
    assert note.body == "Hello\n"
    assert note.has_frontmatter and note.problem is None and note.newline == "\n"


def test_empty_block_is_an_empty_mapping() -> None:
    note = parse_note("---\n---\ntext")
    assert (note.frontmatter, note.body, note.has_frontmatter, note.problem) == (
        {},
        "text",
        True,
        None,
    )


def test_bom_before_the_fence_is_allowed() -> None:
    note = parse_note("\ufeff" + a_note("a: 1"))
    assert note.frontmatter == {"a": 1}
    assert note.body == "Body text.\n"


def test_crlf_note_is_recognised() -> None:
    note = parse_note(a_note("a: 1", body="x\r\n", newline="\r\n"))
    assert note.newline == "\r\n"
    assert note.frontmatter == {"a": 1}
    assert note.body == "x\r\n"


def test_dots_close_the_block_and_trailing_spaces_on_fences_are_fine() -> None:
    note = parse_note("---  \na: 1\n...\nbody")
    assert note.frontmatter == {"a": 1}
    assert note.body == "body"


def test_times_stay_yaml_times() -> None:
    note = parse_note(a_note("created: 2026-11-29T10:15:00Z", "day: 2026-11-29"))
    assert note.frontmatter["created"] == datetime(2026, 11, 29, 10, 15, tzinfo=UTC)
    assert note.frontmatter["day"] == date(2026, 11, 29)


def test_bad_yaml_is_reported_with_the_file_line() -> None:
    text = a_note("id: x", "source: chat: 2025", body="Body\n")
    note = parse_note(text)
    assert note.frontmatter == {}
    assert note.problem is not None
    assert note.problem.startswith("frontmatter is not valid YAML (line 3:")
    assert note.body == "Body\n"


def test_list_frontmatter_is_reported_as_not_a_mapping() -> None:
    note = parse_note(a_note("- a", "- b"))
    assert note.frontmatter == {}
    assert note.problem is not None and "not a mapping" in note.problem


def test_unclosed_block_is_reported_and_the_text_kept_as_body() -> None:
    text = "---\na: 1\nno closing fence\n"
    note = parse_note(text)
    assert note.problem == "frontmatter block is never closed"
    assert note.has_frontmatter and note.frontmatter == {} and note.body == text


def test_horizontal_rules_in_the_body_are_body() -> None:
    body = "Intro\n\n---\n\nafter rule\n---\n"
    note = parse_note(a_note("a: 1", body=body))
    assert note.frontmatter == {"a": 1}
    assert note.body == body


def test_unsafe_tags_are_a_problem_not_an_object() -> None:
    note = parse_note(a_note("a: !!python/object:os.system ls"))
    assert note.frontmatter == {} and note.problem is not None


def test_content_hash_is_sha256_of_utf8() -> None:
    assert content_hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert content_hash("é") != content_hash("e")


# --- minimal_update -----------------------------------------------------------------------


def test_only_the_changed_line_differs_and_comments_stay() -> None:
    old = a_note(
        "# written by hand",
        "id: abc  # stable",
        "use_count: 3  # how often",
        "mood: sunny",
        "",
        "# end",
    )
    new = minimal_update(old, {"use_count": 4})
    assert diff(old, new) == (["use_count: 3  # how often\n"], ["use_count: 4  # how often\n"])
    assert parse_note(new).frontmatter == {"id": "abc", "use_count": 4, "mood": "sunny"}


def test_unknown_keys_quoting_and_order_are_untouched() -> None:
    old = a_note("zeta: 'single'", 'alpha: "double"', "use_count: 1", "beta: {x: 1}")
    new = minimal_update(old, {"use_count": 2})
    assert diff(old, new) == (["use_count: 1\n"], ["use_count: 2\n"])


def test_block_list_is_rewritten_as_a_block_list_with_its_indentation() -> None:
    old = a_note("tags:  # topics", "    - a", "    - b", "next: 1")
    new = minimal_update(old, {"tags": ["c", "d: e"]})
    assert diff(old, new) == (["    - a\n", "    - b\n"], ["    - c\n", '    - "d: e"\n'])
    assert parse_note(new).frontmatter == {"tags": ["c", "d: e"], "next": 1}


def test_indentless_block_list_keeps_its_column() -> None:
    old = a_note("tags:", "- a", "# trailing comment", "next: 1")
    new = minimal_update(old, {"tags": ["b", "c"]})
    assert diff(old, new) == (["- a\n"], ["- b\n", "- c\n"])


def test_flow_list_stays_flow() -> None:
    old = a_note("tags: [a, b]  # keep me", "next: 1")
    new = minimal_update(old, {"tags": ["a", "[[Link]]"]})
    assert diff(old, new) == (["tags: [a, b]  # keep me\n"], ['tags: [a, "[[Link]]"]  # keep me\n'])


def test_quoted_key_is_found_and_its_quoting_kept() -> None:
    old = a_note('"use_count": 3', "other: 1")
    new = minimal_update(old, {"use_count": 9})
    assert diff(old, new) == (['"use_count": 3\n'], ['"use_count": 9\n'])


def test_crlf_note_gets_crlf_lines() -> None:
    old = a_note("a: 1", "b: 2", body="body\r\n", newline="\r\n")
    new = minimal_update(old, {"b": 3, "c": "new"})
    assert diff(old, new) == (["b: 2\r\n"], ["b: 3\r\n", "c: new\r\n"])
    assert "\n" not in new.replace("\r\n", "")


def test_note_without_final_newline_keeps_it_that_way() -> None:
    old = "---\na: 1\n---"
    new = minimal_update(old, {"a": 2, "b": True})
    assert new == "---\na: 2\nb: true\n---"
    body_old = "---\na: 1\n---\nno newline at end"
    assert minimal_update(body_old, {"a": 2}).endswith("---\nno newline at end")


def test_note_without_frontmatter_gets_a_block_in_front() -> None:
    old = "My note\r\nline two"
    new = minimal_update(old, {"id": "x1", "use_count": 1})
    assert new == "---\r\nid: x1\r\nuse_count: 1\r\n---\r\nMy note\r\nline two"


def test_bom_stays_first_when_a_block_is_added() -> None:
    new = minimal_update("\ufeffHello", {"a": 1})
    assert new == "\ufeff---\na: 1\n---\nHello"


def test_remove_deletes_only_that_key_and_its_lines() -> None:
    old = a_note("a: 1", "tags:", "  - x", "  - y", "", "# note", "b: 2")
    new = minimal_update(old, {"tags": REMOVE})
    assert diff(old, new) == (["tags:\n", "  - x\n", "  - y\n"], [])
    assert minimal_update(old, {"missing": REMOVE}) == old
    assert minimal_update("plain", {"missing": REMOVE}) == "plain"


def test_new_key_goes_last_before_the_closing_fence() -> None:
    old = a_note("a: 1", "# trailing comment")
    new = minimal_update(old, {"source": "chat: 2025"})
    assert new == a_note("a: 1", "# trailing comment", 'source: "chat: 2025"')
    assert parse_note(new).frontmatter["source"] == "chat: 2025"


def test_block_scalar_is_replaced_whole_but_the_next_comment_stays() -> None:
    old = a_note("summary: |", "  line one", "  # not a comment", "", "# real comment", "b: 2")
    new = minimal_update(old, {"summary": "short"})
    assert diff(old, new) == (
        ["summary: |\n", "  line one\n", "  # not a comment\n"],
        ["summary: short\n"],
    )


def test_multiline_flow_value_is_replaced_whole() -> None:
    old = a_note("tags: [a,", "  b]", "c: 1")
    new = minimal_update(old, {"tags": ["z"]})
    assert diff(old, new) == (["tags: [a,\n", "  b]\n"], ["tags: [z]\n"])


def test_times_are_written_in_utc_with_z() -> None:
    old = a_note("last_used: 2020-01-01T00:00:00Z")
    moment = datetime(2026, 11, 29, 10, 15, 0, 123, tzinfo=UTC)
    new = minimal_update(old, {"last_used": moment})
    assert diff(old, new)[1] == ["last_used: 2026-11-29T10:15:00Z\n"]


def test_duplicate_keys_update_the_last_and_remove_all() -> None:
    old = a_note("a: 1", "b: 2", "a: 3")
    assert diff(old, minimal_update(old, {"a": 5})) == (["a: 3\n"], ["a: 5\n"])
    assert minimal_update(old, {"a": REMOVE}) == a_note("b: 2")


@pytest.mark.parametrize(
    "text",
    [
        a_note("source: chat: 2025"),
        a_note("- a"),
        "---\na: 1\n",
        a_note("a: [1, 2"),
    ],
)
def test_unparseable_frontmatter_is_never_edited(text: str) -> None:
    with pytest.raises(NoteFormatError) as raised:
        minimal_update(text, {"use_count": 1})
    assert str(raised.value).startswith("frontmatter ")


def test_edits_that_would_change_other_values_are_refused() -> None:
    # Changing an anchored value would silently change its alias too.
    old = a_note("a: &x 1", "b: *x")
    with pytest.raises(NoteFormatError, match="could not make a safe edit of a"):
        minimal_update(old, {"a": 2})


def test_flow_mapping_frontmatter_is_refused_rather_than_rewritten() -> None:
    with pytest.raises(NoteFormatError):
        minimal_update(a_note("{a: 1, b: 2}"), {"a": 3})


def test_no_changes_returns_the_text() -> None:
    text = a_note("a: 1")
    assert minimal_update(text, {}) is text


# --- format_yaml_value / render_note ------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "chat: 2025",
        "# not a comment",
        "a #b",
        "'quoted'",
        '"dq"',
        "- dash",
        "@at",
        "`tick`",
        "%pct",
        "!bang",
        "&amp",
        "*star",
        "{brace",
        "[bracket",
        "|pipe",
        ">gt",
        "?q",
        " lead",
        "trail ",
        "yes",
        "no",
        "on",
        "off",
        "null",
        "~",
        "true",
        "1.0",
        "0x1F",
        "1e3",
        "1_000",
        "2025-01-01",
        "12:30",
        "=",
        "<<",
        "",
        "naïve café",
        "日本語",
        "emoji 😀",
        "tab\there",
        "two\nlines",
        "cr\r\nlf",
        "\x00nul",
        "\x85nel",
        "\u2028",
        "\ufeffbom",
        "back\\slash",
        "[[TypeScript]]",
        "https://example.com/a#b",
        "C#",
        ".inf",
        "...",
    ],
)
def test_strings_read_back_unchanged(value: str) -> None:
    written = format_yaml_value(value)
    assert "\n" not in written and "\r" not in written
    assert yaml.safe_load(f"k: {written}")["k"] == value
    assert yaml.load(f"k: {written}", Loader=yaml.CSafeLoader)["k"] == value
    assert yaml.safe_load(f"k: {format_yaml_value([value, value])}")["k"] == [value, value]


def test_readable_values_stay_plain_and_letters_are_not_escaped() -> None:
    assert format_yaml_value("chat") == "chat"
    assert format_yaml_value("naïve café") == "naïve café"
    assert format_yaml_value("é: x") == '"é: x"'
    assert format_yaml_value(["a", "b c", "d,e"]) == '[a, b c, "d,e"]'
    assert format_yaml_value({"a": 1, "b": "x y"}) == "{a: 1, b: x y}"


def test_scalars_have_their_yaml_form() -> None:
    assert format_yaml_value(None) == "null"
    assert format_yaml_value(True) == "true"
    assert format_yaml_value(3) == "3"
    assert format_yaml_value(1.5) == "1.5"
    assert format_yaml_value(1e16) == "1.0e+16"
    assert yaml.safe_load(f"k: {format_yaml_value(1e16)}")["k"] == 1e16
    assert format_yaml_value(date(2025, 1, 2)) == "2025-01-02"
    assert format_yaml_value(datetime(2026, 11, 29, 10, 15, tzinfo=UTC)) == "2026-11-29T10:15:00Z"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "lone \ud800"])
def test_values_yaml_cannot_hold_are_refused(value: object) -> None:
    with pytest.raises(ValueError):
        format_yaml_value(value)


def test_render_note_writes_fields_in_order_on_one_line_each() -> None:
    text = render_note({"id": "x", "summary": "two\nlines", "tags": ["a", "b"]}, "Body\n")
    assert text == '---\nid: x\nsummary: "two\\nlines"\ntags: [a, b]\n---\nBody\n'
    note = parse_note(text)
    assert note.frontmatter == {"id": "x", "summary": "two\nlines", "tags": ["a", "b"]}
    assert note.body == "Body\n"
    assert render_note({"a": 1}, "b", "\r\n") == "---\r\na: 1\r\n---\r\nb"


def test_frontmatter_nested_past_the_cap_is_reported_not_read() -> None:
    def nested(levels: int) -> str:
        return "[" * levels + "1" + "]" * levels

    assert parse_note(f"---\nok: {nested(90)}\n---\nbody\n").problem is None
    deep = parse_note(f"---\nid: x\ndeep: {nested(500)}\n---\nbody\n")
    assert deep.frontmatter == {} and "nested more than 100 levels" in (deep.problem or "")
    assert deep.body == "body\n"
    # aliases add their depth where they are used: 60 levels used inside 50 is 110 deep
    chained = f"---\na: &x {nested(60)}\nb: {'[' * 50}*x{']' * 50}\n---\n"
    assert "nested more than" in (parse_note(chained).problem or "")
    shared = "---\na: &x [1]\nb: [*x, *x, {k: *x}]\n---\n"
    assert parse_note(shared).frontmatter == {"a": [1], "b": [[1], [1], {"k": [1]}]}


@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_cr_only_frontmatter_is_a_problem_and_never_gets_a_second_block(bom: str) -> None:
    text = f"{bom}---\rid: abc\ruse_count: 1\r---\rBody line.\r"
    parsed = parse_note(text)
    assert parsed.has_frontmatter and parsed.problem is not None
    assert "bare carriage return" in parsed.problem
    with pytest.raises(NoteFormatError, match="bare carriage return"):
        minimal_update(text, {"use_count": 2})


def test_crlf_and_a_cr_in_the_body_are_not_cr_only() -> None:
    assert parse_note("---\r\nid: abc\r\n---\r\nBody.\r\n").problem is None
    assert parse_note("---\nid: abc\n---\nBody\rmore.\n").problem is None
