from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.links import LinkRef, extract_links
from tests.builders import note_parts
from tests.conftest import examples

ROOT = Path(__file__).resolve().parents[2]
VAULT = ROOT / "tests" / "fixtures" / "link-vault"


def wiki(target: str, line: int = 1, **fields: Any) -> LinkRef:
    return LinkRef(**{"heading": None, "block": None, "alias": None, "embed": False,
                      "property": None, **fields, "target": target, "kind": "wikilink",
                      "line": line})  # fmt: skip


def md(target: str, line: int = 1, **fields: Any) -> LinkRef:
    return LinkRef(**{"heading": None, "block": None, "alias": None, "embed": False,
                      "property": None, **fields, "target": target, "kind": "markdown",
                      "line": line})  # fmt: skip


def targets(body: str) -> list[str]:
    return [ref.target for ref in extract_links(body)]


# --- link forms ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[[Note]]", wiki("Note")),
        ("[[Note|shown]]", wiki("Note", alias="shown")),
        ("[[Note#Heading]]", wiki("Note", heading="Heading")),
        ("[[Note#^block-1]]", wiki("Note", block="block-1")),
        ("[[Note#Heading|shown]]", wiki("Note", heading="Heading", alias="shown")),
        ("[[folder/Note]]", wiki("folder/Note")),
        ("[[Note.md]]", wiki("Note.md")),
        ("[[ Note ]]", wiki("Note")),
        ("[[#Heading]]", wiki("", heading="Heading")),
        ("[[#^block]]", wiki("", block="block")),
        ("![[image.png]]", wiki("image.png", embed=True)),
        ("![[Note]]", wiki("Note", embed=True)),
        ("![[image.png|100]]", wiki("image.png", embed=True, alias="100")),
        ("| [[Note\\|shown]] |", wiki("Note", alias="shown")),
    ],
)
def test_wikilink_forms(body: str, expected: LinkRef) -> None:
    assert extract_links(body) == [expected]


@pytest.mark.parametrize("body", ["[[]]", "[[#]]", "[[|x]]", "[[a\nb]]", "[a]", "[[a]", "text"])
def test_not_wikilinks(body: str) -> None:
    assert extract_links(body) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[text](Note.md)", md("Note.md", alias="text")),
        ("[t](folder/My%20Note.md)", md("folder/My Note.md", alias="t")),
        ("[t](<My Note.md>)", md("My Note.md", alias="t")),
        ("[t](Note.md#Some%20Heading)", md("Note.md", alias="t", heading="Some Heading")),
        ("[t](Note.md#^abc)", md("Note.md", alias="t", block="abc")),
        ('[t](Note.md "a title")', md("Note.md", alias="t")),
        ("[t](../up/Note.md)", md("../up/Note.md", alias="t")),
        ("[t](Note)", md("Note", alias="t")),
        ("![](pic.png)", md("pic.png", embed=True)),
        ("![alt](assets/pic%201.png)", md("assets/pic 1.png", embed=True, alias="alt")),
        ("[t](file(1).md)", md("file(1).md", alias="t")),
    ],
)
def test_markdown_link_forms(body: str, expected: LinkRef) -> None:
    assert extract_links(body) == [expected]


@pytest.mark.parametrize(
    "body",
    [
        "[x](https://example.com/a.md)",
        "[x](http://example.com/#frag)",
        "[x](mailto:me@example.com)",
        "[x](obsidian://open?vault=v&file=Note)",
        "[x](file:///tmp/a.md)",
        "[x](#Heading)",
        "[x]()",
        "[x](<>)",
        "[x](has space.md)",
    ],
)
def test_not_links_to_files(body: str) -> None:
    assert extract_links(body) == []


def test_property_links() -> None:
    frontmatter = {
        "related": ["[[X]]", "plain", 3, "[[Y#H|why]] and [[Z]]"],
        "supports": "[[W|because]]",
        "cover": "![[pic.png]]",
        "title": "no link here",
        "nested": {"a": "[[Not read]]"},
        7: "[[Numeric key]]",
    }
    found = [
        (r.property, r.target, r.heading, r.alias, r.embed) for r in extract_links("", frontmatter)
    ]
    assert found == [
        ("related", "X", None, None, False),
        ("related", "Y", "H", "why", False),
        ("related", "Z", None, None, False),
        ("supports", "W", None, "because", False),
        ("cover", "pic.png", None, None, True),
        ("7", "Numeric key", None, None, False),
    ]
    assert all(r.kind == "property" and r.line == 0 for r in extract_links("", frontmatter))


def test_properties_come_first_then_the_body_in_reading_order() -> None:
    body = "a [m](M.md) then [[W1]]\n\n![[E]] and [[W2]]\n"
    found = [(r.kind, r.target, r.line) for r in extract_links(body, {"related": "[[P]]"})]
    assert found == [
        ("property", "P", 0),
        ("markdown", "M.md", 1),
        ("wikilink", "W1", 1),
        ("wikilink", "E", 3),
        ("wikilink", "W2", 3),
    ]


def test_line_numbers_count_crlf_and_cr_as_one_break() -> None:
    assert [r.line for r in extract_links("a\r\n\r\n[[X]]\r[[Y]]")] == [3, 4]


# --- what is not prose --------------------------------------------------------------------------

HIDDEN = [
    "```\n[[X]]\n```",
    "~~~\n[[X]]\n~~~",
    "````md\n```\n[[X]]\n```\n````",
    "    [[X]] in an indented code block",
    "\t[[X]] indented with a tab",
    "`[[X]]`",
    "``a ` [[X]] b``",
    "`a\n[[X]] b`",
    "$[[X]]$",
    "$$\n[[X]]\n$$",
    "$$ [[X]] $$",
    "<!-- [[X]] -->",
    "<!--\n[[X]]\n\n[[X]]\n-->",
    "%% [[X]] %%",
    "%%\n[[X]]\n\n[[X]]\n%%",
    "- item\n\n      [[X]] indented code in a list item",
    "- item\n  ```\n  [[X]]\n  ```",
    "> ```\n> [[X]]\n> ```",
    "> `[[X]]`",
    "1. a\n\n   ~~~\n   [[X]]\n   ~~~",
]


@pytest.mark.parametrize("body", HIDDEN)
def test_links_in_code_math_and_comments_do_not_count(body: str) -> None:
    assert targets(body + "\n\n[[After]]") == ["After"]


@pytest.mark.parametrize("opener", ["```", "~~~~", "%%", "<!--"])
def test_unclosed_fences_and_comments_hide_the_rest(opener: str) -> None:
    assert targets(f"[[Before]]\n\n{opener}\n[[X]]\n\n[[Y]]") == ["Before"]


def test_lone_double_dollar_is_text() -> None:
    assert targets("$$ [[X]]") == ["X"]


VISIBLE = [
    "\\`[[X]]\\`",  # escaped backticks are no code span
    "` unmatched [[X]]",
    "```js`\n[[X]]",  # a backtick fence info string may not hold a backtick: no fence
    "text\n    [[X]] continues the paragraph, not code",
    "- a\n\t- [[X]] a nested list item, not code",
    "- a\n\n\t- [[X]] after a blank line, still a list item",
    "costs $5 and $10 [[X]]",
    "$ [[X]] $",  # `$` followed by a space opens no math
    "a `b` [[X]] `c`",
    "`a\n\nb` [[X]]",  # a code span does not cross a blank line
    "> a\n[[X]] lazy continuation",
    "<div>\n[[X]]\n</div>",
    "\\%% [[X]] %%",
]


@pytest.mark.parametrize("body", VISIBLE)
def test_links_outside_code_count(body: str) -> None:
    assert targets(body) == ["X"]


# --- the fixture vault --------------------------------------------------------------------------

# (kind, target, line) of every link, in order.
EXPECTED_LINKS: dict[str, list[tuple[str, str, int]]] = {
    "Home.md": [
        ("wikilink", "Alpha", 3), ("wikilink", "Alpha", 3), ("wikilink", "Alpha", 3),
        ("wikilink", "Beta", 4), ("wikilink", "Beta.md", 4), ("wikilink", "", 4),
        ("wikilink", "Note", 5), ("wikilink", "Projects/Note", 5), ("wikilink", "Areas/Note", 5),
        ("wikilink", "Atlas", 6), ("wikilink", "Missing Note", 6),
        ("wikilink", "diagram.png", 8), ("wikilink", "Alpha", 9),
    ],
    "Alpha.md": [
        ("property", "Beta", 0), ("property", "Projects/Project Atlas", 0),
        ("property", "Home", 0),
        ("markdown", "Beta.md", 5), ("markdown", "Projects/My Plan.md", 5),
        ("markdown", "Projects/My Plan.md", 5), ("markdown", "Beta.md", 6),
        ("markdown", "Home", 6), ("markdown", "assets/diagram.png", 6),
        ("markdown", "./Home.md", 6), ("wikilink", "Beta", 11),
    ],
    "Beta.md": [("wikilink", "Gamma", 5), ("wikilink", "AfterCode", 20),
                ("wikilink", "AfterDollars", 35)],
    "Edge.md": [("wikilink", "Beta", 9), ("wikilink", "Home", 9)],
    "Areas/Note.md": [("wikilink", "Note", 3), ("wikilink", "Projects/Note", 3)],
    "Areas/Lists.md": [
        ("wikilink", "Alpha", 4), ("wikilink", "Beta", 9), ("wikilink", "Home", 10),
        ("wikilink", "InHtml", 17), ("wikilink", "Home", 20),
    ],
    "Daily/2026-01-05.md": [
        ("wikilink", "Project Atlas", 1), ("wikilink", "Atlas", 1),
        ("markdown", "../Projects/Status.md", 1), ("markdown", "../Home.md", 2),
        ("wikilink", "Areas/Note", 2),
    ],
    "Projects/Note.md": [("wikilink", "Home", 3), ("wikilink", "Status", 3)],
    "Projects/My Plan.md": [
        ("wikilink", "Alpha", 3), ("wikilink", "Beta", 9), ("wikilink", "Home", 10),
        ("wikilink", "Projects/Note", 12),
    ],
    "Projects/Project Atlas.md": [("wikilink", "People/Jonas", 3)],
    "Projects/Status.md": [
        ("property", "Note", 0), ("property", "Alpha", 0), ("property", "Nowhere", 0),
        ("wikilink", "Note", 1), ("wikilink", "My Plan", 1),
    ],
    "_stm/Prefers spaces.md": [("property", "Home", 0), ("wikilink", "PEP 8", 1)],
}  # fmt: skip

FIXTURE_NOTES = sorted(p.relative_to(VAULT).as_posix() for p in VAULT.rglob("*.md"))


def test_every_fixture_note_has_expectations() -> None:
    assert sorted(EXPECTED_LINKS) == FIXTURE_NOTES


@pytest.mark.parametrize("name", FIXTURE_NOTES)
def test_fixture_links(name: str) -> None:
    frontmatter, body = note_parts(VAULT / name)
    found = [(r.kind, r.target, r.line) for r in extract_links(body, frontmatter)]
    assert found == EXPECTED_LINKS[name]


def test_fixture_link_details() -> None:
    frontmatter, body = note_parts(VAULT / "Home.md")
    links = extract_links(body, frontmatter)
    assert links[1] == wiki("Alpha", 3, alias="the alpha note")
    assert links[2] == wiki("Alpha", 3, heading="Goals")
    assert links[3] == wiki("Beta", 4, block="block1")
    assert links[5] == wiki("", 4, heading="Welcome")
    assert links[11] == wiki("diagram.png", 8, embed=True)
    frontmatter, body = note_parts(VAULT / "Alpha.md")
    links = extract_links(body, frontmatter)
    assert links[1].alias == "Atlas" and links[1].property == "related"
    assert links[2].alias == "why" and links[2].property == "supports"
    assert links[6] == md("Beta.md", 6, alias="intro", heading="Intro")
    assert links[8] == md("assets/diagram.png", 6, embed=True)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(),
    st.dictionaries(
        st.text(max_size=5),
        st.one_of(st.text(), st.lists(st.one_of(st.text(), st.integers())), st.none()),
        max_size=3,
    ),
)
def test_extract_links_never_raises(body: str, frontmatter: dict[str, Any]) -> None:
    for ref in extract_links(body, frontmatter):
        assert isinstance(ref.target, str) and ref.line >= 0


def test_inline_code_in_an_alias_or_heading_keeps_the_link() -> None:
    """Issue 15 item 8: both forms are in Obsidian's own help vault; dropping them lost
    their backlinks."""
    links = extract_links("See [[Functions#hasTag|`hasTag`]] and [[Filters#`wikilink`|wikilink]].")
    assert [(x.target, x.heading, x.alias) for x in links] == [
        ("Functions", "hasTag", "`hasTag`"),
        ("Filters", "`wikilink`", "wikilink"),
    ]
    assert [(x.target, x.alias) for x in extract_links("[`cfg` file](Config.md)")] == [
        ("Config.md", "`cfg` file")
    ]
    embed = extract_links("![[Diagram.png|`fig 1`]]")
    assert [(x.target, x.alias, x.embed) for x in embed] == [("Diagram.png", "`fig 1`", True)]


def test_a_link_inside_code_is_still_no_link() -> None:
    assert extract_links("`[[Not a link]]` and `a [[b` c]] and `[t](T.md)`") == []
    assert extract_links("```\n[[Fenced]]\n```\n") == []
