"""Code, math and comments in a note body: `prose_view`, and the scanner that finds code
(`block_scan.Blocks`) checked against markdown-it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.code_ranges import (
    _code_ranges,
    _code_ranges_markdown_it,
    _code_ranges_scanned,
    normalized_body,
    prose_view,
)
from cortexgraph_vault.core.links import extract_links
from tests.conftest import examples

ROOT = Path(__file__).resolve().parents[2]
VAULT = ROOT / "tests" / "fixtures" / "link-vault"


def targets(body: str) -> list[str]:
    return [ref.target for ref in extract_links(body)]


# --- the prose view -----------------------------------------------------------------------------


def test_prose_view_keeps_length_and_line_breaks() -> None:
    body = "a `code` b\n```\nx\n```\n$m$ %%c%%\r\nend"
    view = prose_view(body)
    normalized = normalized_body(body)
    assert len(view) == len(normalized)
    assert [i for i, c in enumerate(view) if c == "\n"] == [
        i for i, c in enumerate(normalized) if c == "\n"
    ]
    assert view.startswith("a \x00\x00\x00\x00\x00\x00 b\n")
    assert view.endswith("\nend")


def test_reference_definitions_go_to_markdown_it() -> None:
    body = "[a][ref] `[[X]]`\n\n[ref]: <b`c> 'x'\n\n[[Y]]"
    assert _code_ranges_scanned(body) is None
    assert targets(body) == ["Y"]


def test_markdown_it_failure_is_survived() -> None:
    # markdown-it-py 4.3 raises IndexError on this; the scanner answers instead.
    body = ">  - <pre>\t\n> "
    with pytest.raises(IndexError):
        _code_ranges_markdown_it(body)
    assert [(r.target, r.line) for r in extract_links(body + "[[X]]")] == [("X", 2)]


# --- the fast scanner decides code exactly as markdown-it does ----------------------------------

CORPUS = sorted(VAULT.rglob("*.md")) + sorted(
    (ROOT / "cortexgraph_vault" / "sample_vault").rglob("*.md")
)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_scanner_matches_markdown_it_on_corpus(path: Path) -> None:
    text = normalized_body(path.read_text(encoding="utf-8"))
    expected = _code_ranges_markdown_it(text)
    scanned = _code_ranges_scanned(text)
    assert scanned is None or scanned == expected


def test_scanner_covers_the_corpus_without_markdown_it() -> None:
    unsure = [
        p.name
        for p in CORPUS
        if _code_ranges_scanned(normalized_body(p.read_text("utf-8"))) is None
    ]
    assert unsure == ["Edge.md"]  # the one note with a link reference definition


_PREFIXES = ["", "", "", " ", "  ", "   ", "    ", "     ", "\t", "\t\t", " \t", "> ", ">",
             ">\t", "> > ", "- ", "-", "* ", "+ ", "1. ", "2) ", "10. ", "-\t", "- - ",
             "1.\t", ">  - ", "-    ", "-     ", "- > ", " > "]  # fmt: skip
_BODIES = ["", "text", "a `b` c", "`", "``", "```", "````", "~~~", "``` js", "```a`", "~~~ `x`",
           "`x", "y`", "``z``", "[[N]]", "#tag", "<div>", "</div>", "<!--", "-->", "<pre>",
           "</pre>", '<a href="`">', "[a](b`c)", "[a](<b`c>)", "[x]: /y", "[ ] task", "***",
           "---", "===", "- - -", "# h `c`", "## h ##", "\\`", "$x$", "%%",
           "<http://a`b>", "![a `b`](c)", "\u3000`q`", "\f`a`", "*`a*`"]  # fmt: skip
_LINE = st.builds(
    lambda prefixes, body, tail: "".join(prefixes) + body + tail,
    st.lists(st.sampled_from(_PREFIXES), max_size=3),
    st.sampled_from(_BODIES),
    st.sampled_from(["", "", " ", "  `w`", " x", "\t", " `"]),
)
MARKDOWN = st.lists(_LINE, max_size=14).map("\n".join)


def assert_same_as_markdown_it(text: str, fast: list[tuple[int, int]] | None) -> None:
    if fast is None:
        return
    try:
        expected = _code_ranges_markdown_it(text)
    except IndexError:
        return  # markdown-it's own bug; nothing to compare with
    assert fast == expected


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=list(HealthCheck))
@given(MARKDOWN)
def test_scanner_matches_markdown_it_on_generated_markdown(text: str) -> None:
    assert_same_as_markdown_it(text, _code_ranges_scanned(text))


# Plain prose: no tabs, no deep indentation, no fences, what most notes are.
_PROSE_LINE = st.builds(
    lambda prefixes, body, tail: "".join(prefixes) + body + tail,
    st.lists(st.sampled_from([p for p in _PREFIXES if "\t" not in p and "    " not in p]),
             max_size=2),
    st.sampled_from([b for b in _BODIES if "```" not in b and "~~~" not in b]
                    + ["[a](", "b`c)", "'t`x`'", "`a` `b`", "` ` `", "`` ` ``"]),
    st.sampled_from(["", "", " ", "  `w`", " x", " `"]),
)  # fmt: skip


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_PROSE_LINE, max_size=12).map("\n".join))
def test_scanner_matches_markdown_it_on_plain_prose(text: str) -> None:
    assert_same_as_markdown_it(text, _code_ranges_scanned(text))


def test_scanner_finds_spans_in_lists_and_quotes() -> None:
    plain = "# T\n\n- a `b` c\n- d\n\n> e `f`"
    assert _code_ranges_scanned(plain) == [(9, 12), (24, 27)] == _code_ranges_markdown_it(plain)


@pytest.mark.parametrize("prefix", [">" * 25, "- " * 12, "> - " * 7])
def test_nesting_deeper_than_markdown_it_goes_to_markdown_it(prefix: str) -> None:
    body = prefix + " `a`\nb `c`"
    assert _code_ranges_scanned(body) is None
    assert _code_ranges(body) == _code_ranges_markdown_it(body)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("`~ \t\n>-*+1.)#<![]()a\\$%")), max_size=80))
def test_scanner_matches_markdown_it_on_markdown_characters(text: str) -> None:
    assert_same_as_markdown_it(text, _code_ranges_scanned(text))
