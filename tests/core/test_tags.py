from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core import tags
from cortexgraph_vault.core.tags import extract_tags, normalize_tag, tag_ancestors
from tests.builders import note_parts
from tests.conftest import examples

VAULT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "link-vault"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("#tag", ["tag"]),
        ("a #tag b", ["tag"]),
        ("#nested/tag", ["nested/tag"]),
        ("#tag-with_dash", ["tag-with_dash"]),
        ("#café #日本語 #Ünïcode", ["café", "日本語", "Ünïcode"]),
        ("#y1984 #1984a", ["y1984", "1984a"]),
        ("(#paren) [#bracket] **#bold**", ["paren", "bracket", "bold"]),
        ("#end.", ["end"]),
        ("#trailing/", ["trailing"]),
        ("#Work and #work", ["Work"]),
        ("> #quoted", ["quoted"]),
        ("- [ ] #task", ["task"]),
        ("\\` #escaped-ticks \\`", ["escaped-ticks"]),
        ("##tag", []),
    ],
)
def test_inline_tags(body: str, expected: list[str]) -> None:
    assert extract_tags(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "#123",
        "# Heading",
        "## Heading",
        "a#b",
        "&#123; &#x26;",
        "http://example.com/#frag",
        "https://example.com/page?x=(#frag)",
        "[[Note#Heading]] [[#Heading]]",
        "[x](#anchor) [y](Note.md#heading)",
        "`#code`",
        "```\n#fenced\n```",
        "    #indented",
        "$#math$",
        "$$\n#math\n$$",
        "<!-- #comment -->",
        "%% #comment %%",
        "#",
        "# ",
        "#-dash #/slash",
    ],
)
def test_not_tags(body: str) -> None:
    assert extract_tags(body) == []


@pytest.mark.parametrize(
    ("frontmatter", "expected"),
    [
        ({"tags": ["a", "#b", "c/d"]}, ["a", "b", "c/d"]),
        ({"tags": "a, b c,#d"}, ["a", "b", "c", "d"]),
        ({"tag": "single"}, ["single"]),
        ({"tags": ["x"], "tag": "y"}, ["x", "y"]),
        ({"tags": [2024, "2024b", True, None, 1.5]}, ["2024b", "1.5"]),
        ({"tags": None}, []),
        ({"tags": {"not": "a list"}}, []),
        ({"tags": ["Dup", "dup", "DUP"]}, ["Dup"]),
        ({"Tags": ["other key"]}, []),
    ],
)
def test_frontmatter_tags(frontmatter: dict[str, Any], expected: list[str]) -> None:
    assert extract_tags("", frontmatter) == expected


def test_frontmatter_first_then_body_unique_in_order() -> None:
    body = "#b then #a and #B again, then #c"
    assert extract_tags(body, {"tags": ["a", "z"]}) == ["a", "z", "b", "c"]


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("DB Prefs", "db_prefs"),
        ("Machine.Learning/PyTorch", "machine-learning/pytorch"),
        ("#Work", "work"),
        ("Café Crème", "café_crème"),
        ("日本語 タグ", "日本語_タグ"),
        ("हिंदी", "हिंदी"),
        ("a  --  b", "a-b"),
        ("a__b", "a_b"),
        ("C++", "c"),
        ("  /Work / Projects/ ", "work/projects"),
        ("a//b", "a/b"),
        ("v1.2", "v1-2"),
        ("Naïve", "naïve"),
        ("Cafe\u0301", "café"),
        ("!!!", ""),
        ("", ""),
    ],
)
def test_normalize_tag(raw: str, normalized: str) -> None:
    assert normalize_tag(raw) == normalized


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_normalize_tag_is_idempotent_and_clean(raw: str) -> None:
    tag = normalize_tag(raw)
    assert normalize_tag(tag) == tag
    assert tag == tag.lower().strip("_-/")
    assert "//" not in tag and " " not in tag


def test_tag_ancestors() -> None:
    assert tag_ancestors("a/b/c") == ["a", "a/b", "a/b/c"]
    assert tag_ancestors("a") == ["a"]
    assert tag_ancestors("") == []


EXPECTED_TAGS = {
    "Home.md": ["home", "index", "nested/tag/deep"],
    "Alpha.md": ["café", "日本語", "tag-with_dash", "in-parens"],
    "Beta.md": ["visible"],
    "Edge.md": [],
    "Areas/Note.md": [],
    "Areas/Lists.md": ["callout"],
    "Daily/2026-01-05.md": ["daily", "journal", "daily/standup"],
    "Projects/Note.md": [],
    "Projects/My Plan.md": ["plan", "work", "draft", "nested-list"],
    "Projects/Project Atlas.md": ["project"],
    "Projects/Status.md": ["status", "project/atlas"],
    "_stm/Prefers spaces.md": ["preferences", "preferences/code"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_TAGS))
def test_fixture_tags(name: str) -> None:
    frontmatter, body = note_parts(VAULT / name)
    assert extract_tags(body, frontmatter) == EXPECTED_TAGS[name]


def test_every_fixture_note_has_expected_tags() -> None:
    assert sorted(EXPECTED_TAGS) == sorted(
        p.relative_to(VAULT).as_posix() for p in VAULT.rglob("*.md")
    )


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(),
    st.dictionaries(
        st.sampled_from(["tags", "tag", "other"]),
        st.one_of(st.text(), st.lists(st.one_of(st.text(), st.integers(), st.none())), st.none()),
    ),
)
def test_extract_tags_never_raises(body: str, frontmatter: dict[str, Any]) -> None:
    tags = extract_tags(body, frontmatter)
    assert all(tag and not tag.startswith("#") for tag in tags)
    assert len({t.casefold() for t in tags}) == len(tags)


TAG_PIECES = [
    "[[", "]]", "](", ")", "(", "[", "]", "#", "#tag", "#Tag/x", "a", " ", "\n", "://", "x.com/",
    "|", "`", "\\", "!", "-", "\x00", "é",
]  # fmt: skip


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(st.sampled_from(TAG_PIECES), max_size=24).map("".join))
def test_links_are_blanked_only_where_they_could_hold_a_tag_and_the_tags_are_the_same(
    body: str,
) -> None:
    # the reference: every wikilink and link destination blanked before tags are looked for
    with mock.patch.object(tags, "_after_link_start", lambda text, pos: True):
        expected = extract_tags(body)
    assert extract_tags(body) == expected
