"""What in a note body is not prose: code spans, fenced and indented code blocks, math and
comments (HTML `<!-- -->` and Obsidian `%%`), as offset ranges and as `prose_view`.

What is code is decided the CommonMark way, and markdown-it-py is the authority. A markdown-it
parse of every note is too slow for indexing a large vault, so `block_scan.Blocks`, a line
scanner that follows markdown-it's block rules, decides first and hands the note on when it
meets what it does not model (link reference definitions, very deep nesting). The tests
compare the two on every fixture and on generated Markdown.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from itertools import accumulate
from typing import Any

from markdown_it import MarkdownIt, rules_block, rules_inline

# What markdown-it trims from inline content (4.3, the least version required; 3.x used strip()).
from markdown_it.common.utils import MD_TRIM_CHARS
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_inline.state_inline import StateInline

from cortexgraph_vault.core.block_scan import Blocks, Unsure

__all__ = ["normalized_body", "prose_view"]


# --- the prose view: the body with code, math and comments blanked out ------------------------

_HIDDEN_OPEN = re.compile(r"[%<$](?:(?<=%)%|(?<=<)!--|(?<=\$)\$|(?<=\$)(?=[^\s$]))")
_HIDDEN_CLOSE = {"%%": "%%", "<!--": "-->", "$$": "$$"}
# Pandoc's rule keeps prices out of math: "$5 and $10" has no closing `$`.
_INLINE_MATH_CLOSE = re.compile(r"(?<![\s\\])\$(?![0-9])")


@functools.lru_cache(maxsize=8)
def prose_view(body: str) -> str:
    """The body with line breaks normalised (as markdown-it does) and every character of code,
    math and comments replaced by NUL, so positions and line numbers still match the body.

    Cached (a few entries: bodies can be large) because the indexer asks for links and tags
    of the same body in turn.
    """
    text = normalized_body(body)
    return _hide_comments_and_math(_blank(text, _code_ranges(text)))


def normalized_body(body: str) -> str:
    """The body as `prose_view` sees it before blanking: same offsets, code still there."""
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")
    return body.replace("\x00", "\ufffd") if "\x00" in body else body


def _blank(text: str, ranges: list[tuple[int, int]]) -> str:
    if not ranges:
        return text
    pieces, last = [], 0
    for start, end in ranges:
        pieces.append(text[last:start])
        pieces.append(_blank_segment(text[start:end]))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _blank_segment(segment: str) -> str:
    if "\n" not in segment:
        return "\x00" * len(segment)
    return "\n".join("\x00" * len(part) for part in segment.split("\n"))


def _hide_comments_and_math(text: str) -> str:
    if "%%" not in text and "<!--" not in text and "$" not in text:
        return text
    hidden: list[tuple[int, int]] = []
    pos = 0
    while m := _HIDDEN_OPEN.search(text, pos):
        opener, pos = m.group(), m.end()
        if m.start() and text[m.start() - 1] == "\\":
            continue
        if opener == "$":
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            close = _INLINE_MATH_CLOSE.search(text, pos, line_end)
            if close is None:
                pos = line_end  # no `$` later on this line can close either
                continue
            end = close.end()
        else:
            found = text.find(_HIDDEN_CLOSE[opener], pos)
            if found < 0 and opener == "$$":
                continue  # a lone `$$` is text; unclosed comments hide the rest, as Obsidian does
            end = len(text) if found < 0 else found + len(_HIDDEN_CLOSE[opener])
        hidden.append((m.start(), end))
        pos = end
    return _blank(text, hidden)


def _code_ranges(text: str) -> list[tuple[int, int]]:
    """Sorted (start, end) offsets of code: whole lines of code blocks, and code spans."""
    if "`" not in text and "~~~" not in text and "\t" not in text and "    " not in text:
        return []  # no fence marker, no indentation deep enough for an indented code block
    scanned = _code_ranges_scanned(text)
    if scanned is not None:
        return scanned
    try:
        return _code_ranges_markdown_it(text)
    except IndexError:  # markdown-it-py 4.3 fails on a few tab, blockquote and HTML mixes
        return []


# --- markdown-it: the reference for what is code ------------------------------------------------


def _recording_backtick(state: StateInline, silent: bool) -> bool:
    start = end = state.pos
    while end < state.posMax and state.src[end] == "`":
        end += 1
    if not rules_inline.backtick(state, silent):
        return False
    if not silent and state.pos > end:  # a code span, not a lone run of backticks
        env = state.env
        base = 0 if state.src is env["cg_top"] else env["cg_images"][-1]
        env["cg_spans"].append((base + start, base + state.pos))
    return True


def _offset_tracking_image(state: StateInline, silent: bool) -> bool:
    # An image's alt text is parsed as a separate string; remember where it starts.
    if silent:
        return rules_inline.image(state, silent)
    images = state.env["cg_images"]
    base = 0 if state.src is state.env["cg_top"] else images[-1]
    images.append(base + state.pos + 2)
    try:
        return rules_inline.image(state, silent)
    finally:
        images.pop()


_MD = MarkdownIt("commonmark")
_MD.inline.ruler.at("backticks", _recording_backtick)
_MD.inline.ruler.at("image", _offset_tracking_image)


def _spans_markdown_it(content: str, references: Any = None) -> list[tuple[int, int]]:
    env: dict[str, Any] = {"cg_top": content, "cg_images": [], "cg_spans": []}
    if references:
        env["references"] = references
    _MD.inline.parse(content, _MD, env, [])
    spans: list[tuple[int, int]] = env["cg_spans"]
    return spans


def _recording_rows(rule: Any) -> Any:
    """Wrap a block rule that makes an inline token, to keep the rows its content came from.

    markdown-it strips container marks and indentation from each row (not always all of them,
    with odd tabs) and trims the whole content, which can drop leading rows of Unicode spaces;
    each row still ends where its source line ends, which is what `_content_locator` uses.
    """

    def wrapped(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        count = len(state.tokens)
        found: bool = rule(state, start, end, silent)
        if not found or silent:
            return found
        inline = state.tokens[count + 1]
        assert inline.map is not None  # a block rule maps the inline token it makes to its rows
        first, last = inline.map
        if rule is rules_block.heading:
            at = state.src.find(inline.content, state.bMarks[first] + state.tShift[first])
            rows = [(at + len(inline.content), inline.content)]
        else:
            rows = [
                (state.eMarks[i], state.getLines(i, i + 1, state.blkIndent, False))
                for i in range(first, last)
            ]
        inline.meta["cg_rows"] = rows
        return True

    return wrapped


for _name, _rule in (
    ("paragraph", rules_block.paragraph),
    ("lheading", rules_block.lheading),
    ("heading", rules_block.heading),
):
    _alt = next(r.alt for r in _MD.block.ruler.__rules__ if r.name == _name)
    _MD.block.ruler.at(_name, _recording_rows(_rule), {"alt": _alt})


def _code_ranges_markdown_it(text: str) -> list[tuple[int, int]]:
    env: dict[str, Any] = {}
    tokens: list[Any] = []
    _MD.block.parse(text, _MD, env, tokens)
    starts = [0, *(m.end() for m in re.finditer("\n", text)), len(text) + 1]
    ranges: list[tuple[int, int]] = []
    for tok in tokens:
        if tok.type in ("fence", "code_block"):
            ranges.append((starts[tok.map[0]], starts[tok.map[1]] - 1))
        elif tok.type == "inline" and "`" in tok.content:
            locate = _content_locator(text, tok.content, tok.meta["cg_rows"])
            for start, end in _spans_markdown_it(tok.content, env.get("references")):
                ranges.append((locate(start), locate(end - 1) + 1))
    ranges.sort()
    return ranges


def _content_locator(text: str, content: str, rows: list[tuple[int, str]]) -> Any:
    """Map an offset in markdown-it's inline content to an offset in the source."""
    joined = "\n".join(row for _, row in rows)
    trimmed = len(joined) - len(joined.lstrip(MD_TRIM_CHARS))
    row_starts = list(accumulate((len(row) + 1 for _, row in rows), initial=0))

    def locate(offset: int) -> int:
        offset += trimmed
        i = bisect_right(row_starts, offset) - 1
        end, row = rows[i]
        return end - len(row) + offset - row_starts[i]

    return locate


# --- the block scanner ----------------------------------------------------------------------------

_TICKS_OR_ESCAPE = re.compile(r"\\[\s\S]|`+")


@functools.cache
def _closing_run(length: int) -> re.Pattern[str]:
    return re.compile(rf"(?<!`)`{{{length}}}(?!`)")


def _plain_code_spans(text: str) -> list[tuple[int, int]]:
    """Code spans by the CommonMark pairing rule alone, for text with no link or HTML."""
    spans = []
    pos = 0
    unpaired: set[int] = set()  # run lengths with no partner ahead: at most one search each
    while m := _TICKS_OR_ESCAPE.search(text, pos):
        pos = m.end()
        length = pos - m.start()
        if text[m.start()] != "`" or length in unpaired:
            continue
        close = _closing_run(length).search(text, pos)
        if close is None:
            unpaired.add(length)
        else:
            spans.append((m.start(), close.end()))
            pos = close.end()
    return spans


def _code_ranges_scanned(text: str) -> list[tuple[int, int]] | None:
    """Code ranges as `_code_ranges_markdown_it` finds them, or None when unsure."""
    blocks = Blocks(text)
    try:
        blocks.tokenize(0, blocks.line_max)
    except Unsure:
        return None
    ranges = [(blocks.b[first], blocks.e[end - 1]) for first, end in blocks.code]
    for rows in blocks.inlines:
        ranges.extend(_inline_code_spans(text, rows))
    ranges.sort()
    return ranges


def _inline_code_spans(text: str, rows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    content = "\n".join(text[start:end] for start, end in rows)
    # Only a link destination, an autolink or raw HTML can swallow a backtick before the code
    # span rule sees it, and each needs `](` or `<`; without them the plain scan is exact.
    if "<" in content or "](" in content:
        spans = _spans_markdown_it(content)
    else:
        spans = _plain_code_spans(content)
    if len(rows) == 1:
        return [(rows[0][0] + start, rows[0][0] + end) for start, end in spans]
    row_starts = list(accumulate((end - start + 1 for start, end in rows), initial=0))

    def locate(offset: int) -> int:
        i = bisect_right(row_starts, offset) - 1
        return rows[i][0] + offset - row_starts[i]

    return [(locate(start), locate(end - 1) + 1) for start, end in spans]
