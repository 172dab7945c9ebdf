"""Links in one note: wikilinks, embeds, Markdown links to local files, link-valued properties.

A link counts when a reader of the rendered note would see it: nothing inside code (fenced,
indented or inline), math, HTML comments or Obsidian `%%` comments. What is code is decided the
CommonMark way, and markdown-it-py is the authority. A markdown-it parse costs about 1 ms a
note, too slow for indexing 10k notes, so two cheaper paths decide first: plain notes (no fence,
no deep indentation, no HTML block) pair backticks line by line, and `_Blocks`, a line scanner
that follows markdown-it's block rules, handles the rest. Each path hands the note on when it
meets what it does not model (link reference definitions, very deep nesting). The tests compare
all three on every fixture and on generated Markdown.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from operator import itemgetter
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt, rules_block, rules_inline
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_inline.state_inline import StateInline

try:  # what markdown-it trims from inline content; 3.x used str.strip()
    from markdown_it.common.utils import MD_TRIM_CHARS
except ImportError:  # pragma: no cover
    MD_TRIM_CHARS = None  # type: ignore[assignment]

__all__ = ["LinkRef", "extract_links", "prose_view"]


@dataclass(frozen=True, slots=True)
class LinkRef:
    target: str  # as written, without #heading, ^block or |alias; "" for [[#Heading]]
    heading: str | None
    block: str | None
    alias: str | None
    embed: bool
    kind: str  # "wikilink" | "markdown" | "property"
    property: str | None
    line: int  # 1-based line in the body; 0 for properties


# Patterns start with a literal so the regex engine can skip ahead; a leading `!` is checked by
# hand (an optional prefix makes the search six times slower).
_WIKILINK = re.compile(r"\[\[([^\[\]\n\x00]+)\]\]")
_MD_LINK = re.compile(
    r"\[([^\[\]\n\x00]*)\]\(\s*(?:<([^<>\n\x00]*)>|((?:[^\s()\x00]|\([^\s()\x00]*\))+))"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def extract_links(body: str, frontmatter: Mapping[str, Any] | None = None) -> list[LinkRef]:
    """Every link of a note: properties first (line 0), then the body in reading order.

    A self link `[[#Heading]]` is kept with target "" (LinkResolver resolves it to the note
    itself); a Markdown link to a pure anchor `(#x)` or to a URL with a scheme is not a link
    to a file and is left out.
    """
    links = _property_links(frontmatter) if frontmatter else []
    text = prose_view(body)
    if "[" not in text:
        return links
    found: list[tuple[int, tuple[Any, ...]]] = []
    for m in _WIKILINK.finditer(text):
        fields = _wikilink_fields(m.group(1))
        if fields is not None:
            embed = text.startswith("!", m.start() - 1) if m.start() else False
            found.append((m.start() - embed, (*fields, embed, "wikilink")))
    if "](" in text:
        for m in _MD_LINK.finditer(text):
            fields = _markdown_link_fields(m)
            if fields is not None:
                embed = text.startswith("!", m.start() - 1) if m.start() else False
                found.append((m.start() - embed, (*fields, embed, "markdown")))
    found.sort(key=itemgetter(0))
    line, last = 1, 0
    for pos, fields in found:
        line += text.count("\n", last, pos)
        last = pos
        links.append(LinkRef(*fields, None, line))
    return links


def _wikilink_fields(inner: str) -> tuple[str, str | None, str | None, str | None] | None:
    """(target, heading, block, alias) of the text between `[[` and `]]`."""
    target, bar, alias = inner.partition("|")
    # Inside a table Obsidian writes the alias separator as `\|`.
    target = target.removesuffix("\\")
    target, hash_sign, sub = target.partition("#")
    target = target.strip()
    heading = block = None
    if sub.startswith("^"):
        block = sub[1:].strip() or None
    elif hash_sign:
        heading = sub.strip() or None
    if not target and heading is None and block is None:
        return None
    return target, heading, block, alias.strip() or None if bar else None


def _markdown_link_fields(
    m: re.Match[str],
) -> tuple[str, str | None, str | None, str | None] | None:
    dest = m.group(2) if m.group(2) is not None else m.group(3)
    if not dest or dest.startswith("#") or _SCHEME.match(dest):
        return None
    path, hash_sign, fragment = dest.partition("#")
    target = unquote(path).strip() if "%" in path else path.strip()
    if not target:
        return None
    fragment = (unquote(fragment) if "%" in fragment else fragment).strip()
    block = fragment[1:] or None if fragment.startswith("^") else None
    heading = fragment or None if hash_sign and block is None else None
    return target, heading, block, m.group(1).strip() or None


def _property_links(frontmatter: Mapping[str, Any]) -> list[LinkRef]:
    links: list[LinkRef] = []
    for key, value in frontmatter.items():
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else ()
        for item in values:
            if isinstance(item, str) and "[[" in item:
                for m in _WIKILINK.finditer(item):
                    fields = _wikilink_fields(m.group(1))
                    if fields is not None:
                        embed = item.startswith("!", m.start() - 1) if m.start() else False
                        links.append(LinkRef(*fields, embed, "property", str(key), 0))
    return links


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
    text = _normalize(body)
    return _hide_comments_and_math(_blank(text, _code_ranges(text)))


def _normalize(body: str) -> str:
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
    fast = _code_ranges_fast(text)
    if fast is not None:
        return fast
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
_MAX_NESTING: int = _MD.options["maxNesting"]


def _spans_markdown_it(content: str, references: Any = None) -> list[tuple[int, int]]:
    env: dict[str, Any] = {"cg_top": content, "cg_images": [], "cg_spans": []}
    if references:
        env["references"] = references
    _MD.inline.parse(content, _MD, env, [])
    return env["cg_spans"]


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


for _name, _rule in (("paragraph", rules_block.paragraph), ("lheading", rules_block.lheading),
                     ("heading", rules_block.heading)):  # fmt: skip
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
    row_starts = [0]
    for _, row in rows:
        row_starts.append(row_starts[-1] + len(row) + 1)

    def locate(offset: int) -> int:
        offset += trimmed
        i = bisect_right(row_starts, offset) - 1
        end, row = rows[i]
        return end - len(row) + offset - row_starts[i]

    return locate


# --- the fast scanner ---------------------------------------------------------------------------


class _Unsure(Exception):
    """The scanner met a construct it does not model; markdown-it decides instead."""


_ATX = re.compile(r"#{1,6}(?=[ \t]|$)")
_HR = re.compile(r"([*_-])(?:[ \t]*\1){2,}[ \t]*")
_ORDERED = re.compile(r"[0-9]{1,9}[.)](?=[ \t]|$)")
_BULLET = re.compile(r"[*+-](?=[ \t]|$)")
_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*")
_BLOCK_STARTS = frozenset("`~>*-_+<#=0123456789")
_TICKS_OR_ESCAPE = re.compile(r"\\[\s\S]|`+")


@functools.cache
def _closing_run(length: int) -> re.Pattern[str]:
    return re.compile(rf"(?<!`)`{{{length}}}(?!`)")


def _plain_code_spans(text: str, unpaired_ok: bool = False) -> list[tuple[int, int]] | None:
    """Code spans by the CommonMark pairing rule alone, for text with no link or HTML.

    None when a run of backticks finds no partner, unless `unpaired_ok`.
    """
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
            if not unpaired_ok:
                return None
            unpaired.add(length)
        else:
            spans.append((m.start(), close.end()))
            pos = close.end()
    return spans


# Lines whose first character past any container marks may open an HTML block, or a link
# reference definition.
_HTML_START = re.compile(r"^[ >*+\-.)0-9]*<", re.MULTILINE)
_REFERENCE_START = re.compile(r"^[ >*+\-.)0-9]*\[(?!\[)", re.MULTILINE)
# markdown-it skips what is nested `maxNesting` (20) deep, and each level takes a character.
_DEEP = re.compile(r"^[ >*+\-.)0-9]{16}", re.MULTILINE)


def _code_ranges_fast(text: str) -> list[tuple[int, int]] | None:
    """Code ranges as `_code_ranges_markdown_it` finds them, or None when unsure."""
    spans = _line_local_code_spans(text)
    return _code_ranges_scanned(text) if spans is None else spans


def _line_local_code_spans(text: str) -> list[tuple[int, int]] | None:
    """Code spans when every line is prose and pairs its own backticks, else None.

    With no fence marker, no indentation deep enough for an indented code block, and no line
    able to open an HTML block or a reference definition, every non-blank line is paragraph or
    heading text. A code span may still run across lines of one paragraph, but not when each
    line's backtick runs pair up within the line, since pairing goes left to right.
    """
    if "```" in text or "~~~" in text or "\t" in text or "    " in text:
        return None
    if _HTML_START.search(text) or ("]:" in text and _REFERENCE_START.search(text)):
        return None
    if _DEEP.search(text):
        return None
    spans: list[tuple[int, int]] = []
    start = 0
    guarded = False  # a `](` or `<` since the last blank line could swallow a backtick
    for row in text.split("\n"):
        if not row.strip(" "):
            guarded = False
        else:
            guarded = guarded or "](" in row or "<" in row
            if "`" in row:
                if guarded:
                    return None
                pairs = _plain_code_spans(row)
                if pairs is None:
                    return None
                spans.extend((start + a, start + z) for a, z in pairs)
        start += len(row) + 1
    return spans


def _code_ranges_scanned(text: str) -> list[tuple[int, int]] | None:
    blocks = _Blocks(text)
    try:
        blocks.tokenize(0, blocks.line_max)
    except _Unsure:
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
        spans = _plain_code_spans(content, unpaired_ok=True) or []
    if len(rows) == 1:
        return [(rows[0][0] + start, rows[0][0] + end) for start, end in spans]
    row_starts, offset = [], 0
    for start, end in rows:
        row_starts.append(offset)
        offset += end - start + 1

    def locate(offset: int) -> int:
        i = bisect_right(row_starts, offset) - 1
        return rows[i][0] + offset - row_starts[i]

    return [(locate(start), locate(end - 1) + 1) for start, end in spans]


class _Blocks:
    """markdown-it's block rules, reduced to what decides code; no tokens are built.

    Per-line numbers follow markdown-it's model (b: content start, e: line end, t: indent
    characters, s: indent columns, bs: tab offset) because containers re-base them (a
    blockquote strips its `>` from each line) and exactness is easiest with the same numbers.
    Results: `code` (line ranges of code blocks) and `inlines` (source rows of each paragraph or
    heading that holds a backtick).
    """

    __slots__ = ("b", "blk", "bs", "code", "e", "inlines", "level", "line", "line_max",
                 "list_indent", "parent", "s", "src", "t")  # fmt: skip

    def __init__(self, src: str) -> None:
        self.src = src
        rows = src.split("\n")
        if not rows[-1].strip(" \t"):
            rows.pop()  # markdown-it keeps no blank last line that has no "\n"
        lengths = [len(row) for row in rows]
        b = list(accumulate([length + 1 for length in lengths], initial=0))
        b[-1] = len(src)  # one extra line past the end, as markdown-it has
        e = [start + length for start, length in zip(b, lengths, strict=False)]
        e.append(len(src))
        t = [length - len(row.lstrip(" \t")) for row, length in zip(rows, lengths, strict=True)]
        t.append(0)
        s = t.copy()
        if "\t" in src:
            for i, row in enumerate(rows):
                if "\t" in row[: t[i]]:
                    s[i] = _columns(row[: t[i]])
        self.b, self.e, self.t, self.s, self.bs = b, e, t, s, [0] * len(b)
        self.line_max = len(rows)
        self.blk = self.level = self.line = 0
        self.list_indent = -1
        self.parent = "root"
        self.code: list[tuple[int, int]] = []
        self.inlines: list[list[tuple[int, int]]] = []

    def _empty(self, line: int) -> bool:
        return self.b[line] + self.t[line] >= self.e[line]

    def tokenize(self, start: int, end: int) -> None:
        b, e, t = self.b, self.e, self.t
        line = start
        while line < end:
            while line < self.line_max and b[line] + t[line] >= e[line]:
                line += 1
            self.line = line
            if line >= end or self.s[line] < self.blk:
                break
            if self.level >= _MAX_NESTING:
                raise _Unsure  # markdown-it drops the rest here; not worth modelling
            self._block(line, end)
            line = self.line
            if line < end and b[line] + t[line] >= e[line]:
                line += 1
                self.line = line

    def _block(self, line: int, end: int) -> None:
        if self.s[line] - self.blk >= 4:
            self._code(line, end)
            return
        pos = self.b[line] + self.t[line]
        ch = self.src[pos]
        if ch not in _BLOCK_STARTS and ch != "[":
            self._paragraph(line, end)
            return
        if ch in "`~" and self._fence(line, end, silent=False):
            return
        if ch == ">":
            self._blockquote(line, end)
            return
        if ch in "*-_" and _HR.fullmatch(self.src, pos, self.e[line]):
            self.line = line + 1
            return
        if (ch in "*-+" or "0" <= ch <= "9") and self._list(line, end, silent=False):
            return
        if ch == "[":
            self._check_reference(pos + 1, self.e[line])
        if ch == "<" and self._html(line, end, silent=False):
            return
        if ch == "#" and (m := _ATX.match(self.src, pos, self.e[line])):
            self._heading(line, m.end())
            return
        self._paragraph(line, end)

    def _interrupts(self, line: int, end: int, rules: str = "paragraph") -> bool:
        """Whether `line` starts a block that ends a paragraph (or a list, or a blockquote)."""
        if self.s[line] - self.blk >= 4 or self._empty(line):
            return False
        pos = self.b[line] + self.t[line]
        ch = self.src[pos]
        if ch in "`~":
            return self._fence(line, end, silent=True)
        if ch == ">":
            return True
        if ch in "*-_" and _HR.fullmatch(self.src, pos, self.e[line]):
            return True
        if rules == "list":
            return False
        if (ch in "*-+" or "0" <= ch <= "9") and self._list(line, end, silent=True):
            return True
        if ch == "<":
            return self._html(line, end, silent=True)
        return ch == "#" and _ATX.match(self.src, pos, self.e[line]) is not None

    def _check_reference(self, pos: int, end: int) -> None:
        # A link reference definition would change how links, and so code spans, parse.
        src = self.src
        while pos < end:
            ch = src[pos]
            if ch == "[":
                return
            if ch == "]":
                if src.startswith(":", pos + 1):
                    raise _Unsure
                return
            pos += 2 if ch == "\\" else 1
        raise _Unsure  # a label that goes on to the next line

    def _code(self, start: int, end: int) -> None:
        last = line = start + 1
        while line < end:
            if not self._empty(line):
                if self.s[line] - self.blk < 4:
                    break
                last = line + 1
            line += 1
        self.line = last
        self.code.append((start, last))

    def _fence(self, start: int, end: int, silent: bool) -> bool:
        src, b, e, t, s = self.src, self.b, self.e, self.t, self.s
        pos = b[start] + t[start]
        if s[start] - self.blk >= 4 or pos + 3 > e[start]:
            return False
        marker = src[pos]
        length = _run_length(src, pos, e[start])
        if length < 3 or (marker == "`" and "`" in src[pos + length : e[start]]):
            return False
        if silent:
            return True
        line, closed = start + 1, False
        while line < end:
            pos, mx = b[line] + t[line], e[line]
            if pos < mx and s[line] < self.blk:
                break
            if pos >= len(src):
                break
            if src[pos] == marker and s[line] - self.blk < 4:
                run = _run_length(src, pos, mx)
                if run >= length and not src[pos + run : mx].strip(" \t"):
                    closed = True
                    break
            line += 1
        self.line = line + closed
        self.code.append((start, self.line))
        return True

    def _quote_line(self, line: int, pos: int, saved: list[tuple[int, ...]]) -> bool:
        """Strip a `>` (pos is just after it) from `line`; True when nothing follows it."""
        src, s, bs = self.src, self.s, self.bs
        initial = offset = s[line] + 1
        ch = src[pos] if pos < len(src) else ""
        adjust = space_after = 0
        if ch == " ":
            pos, initial, offset, space_after = pos + 1, initial + 1, offset + 1, 1
        elif ch == "\t":
            space_after = 1
            if (bs[line] + offset) % 4 == 3:
                pos, initial, offset = pos + 1, initial + 1, offset + 1
            else:
                adjust = 1
        saved.append((line, self.b[line], self.t[line], s[line], bs[line]))
        self.b[line] = pos
        mx = self.e[line]
        while pos < mx:
            ch = src[pos]
            if ch == "\t":
                offset += 4 - (offset + bs[line] + adjust) % 4
            elif ch == " ":
                offset += 1
            else:
                break
            pos += 1
        bs[line] = s[line] + 1 + space_after
        s[line] = offset - initial
        self.t[line] = pos - self.b[line]
        return pos >= mx

    def _blockquote(self, start: int, end: int) -> None:
        src, s = self.src, self.s
        old_line_max, old_parent, old_blk = self.line_max, self.parent, self.blk
        saved: list[tuple[int, ...]] = []
        last_empty = self._quote_line(start, self.b[start] + self.t[start] + 1, saved)
        self.parent = "blockquote"
        line = start + 1
        while line < end:
            pos = self.b[line] + self.t[line]
            if pos >= self.e[line]:
                break
            if src[pos] == ">" and s[line] >= old_blk:
                last_empty = self._quote_line(line, pos + 1, saved)
                line += 1
                continue
            if last_empty:
                break
            if self._interrupts(line, end):
                self.line_max = line
                if old_blk:
                    saved.append((line, self.b[line], self.t[line], s[line], self.bs[line]))
                    s[line] -= old_blk
                break
            saved.append((line, self.b[line], self.t[line], s[line], self.bs[line]))
            s[line] = -1  # a lazy continuation line
            line += 1
        self.blk = 0
        self.level += 1
        self.tokenize(start, line)
        self.level -= 1
        self.line_max, self.parent, self.blk = old_line_max, old_parent, old_blk
        for row, b, t, sc, bs in reversed(saved):
            self.b[row], self.t[row], s[row], self.bs[row] = b, t, sc, bs

    def _list(self, start: int, end: int, silent: bool) -> bool:
        src, b, e, t, s = self.src, self.b, self.e, self.t, self.s
        if s[start] - self.blk >= 4:
            return False
        if 0 <= self.list_indent <= s[start] - 4 and s[start] < self.blk:
            return False  # too deep for a sibling item: a paragraph continuation
        interrupting = silent and self.parent == "paragraph" and s[start] >= self.blk
        first = b[start] + t[start]
        m = _ORDERED.match(src, first, e[start])
        ordered = m is not None
        if m is None and (m := _BULLET.match(src, first, e[start])) is None:
            return False
        after = m.end()
        if interrupting and (
            (ordered and int(src[first : after - 1]) != 1) or not src[after : e[start]].strip(" \t")
        ):
            return False
        if silent:
            return True
        marker = src[after - 1]
        old_parent, self.parent = self.parent, "list"
        self.level += 1
        line = start
        while line < end:
            mx = e[line]
            initial = s[line] + after - (b[start] + t[start])
            pos = mx - len(src[after:mx].lstrip(" \t"))  # where the item's text starts
            offset = initial + pos - after
            if "\t" in src[after:pos]:
                offset = initial
                for ch in src[after:pos]:
                    offset += 4 - (offset + self.bs[line]) % 4 if ch == "\t" else 1
            # Past four columns of spaces the item starts with indented code: one counts.
            spaces = 1 if pos >= mx else offset - initial
            indent = initial + (1 if spaces > 4 else spaces)
            old_t, old_s, old_list_indent = t[start], s[start], self.list_indent
            self.list_indent, self.blk = self.blk, indent
            t[start], s[start] = pos - b[start], offset
            self.level += 1
            if pos >= mx and self._empty(start + 1):
                self.line = min(self.line + 2, end)  # an empty item ends the list at a blank
            else:
                self.tokenize(start, end)
            self.level -= 1
            self.blk, self.list_indent = self.list_indent, old_list_indent
            t[start], s[start] = old_t, old_s
            line = start = self.line
            if line >= end or s[line] < self.blk or s[line] - self.blk >= 4:
                break
            first = b[line] + t[line]
            if src[first] in "`~>*_-" and self._interrupts(line, end, rules="list"):
                break
            m = (_ORDERED if ordered else _BULLET).match(src, first, e[line])
            if m is None or src[m.end() - 1] != marker:
                break
            after = m.end()
        self.level -= 1
        self.line = line
        self.parent = old_parent
        return True

    def _html(self, start: int, end: int, silent: bool) -> bool:
        b, e, t = self.b, self.e, self.t
        row = self.src[b[start] + t[start] : e[start]]
        sequence = next((seq for seq in HTML_SEQUENCES if seq[0].search(row)), None)
        if sequence is None:
            return False
        _, closing, interrupts = sequence
        if silent:
            return interrupts
        line = start + 1
        ends_on_blank = bool(closing.search(""))
        if not closing.search(row):
            while line < end:
                if self.s[line] < self.blk and (ends_on_blank or not self._empty(line)):
                    break
                row = self.src[b[line] + t[line] : e[line]]
                if closing.search(row):
                    line += 1 if row else 0
                    break
                line += 1
        self.line = line
        return True

    def _heading(self, line: int, pos: int) -> None:
        src, mx = self.src, self.e[line]
        self.line = line + 1
        while mx > pos and src[mx - 1] in " \t":
            mx -= 1
        closing = mx
        while closing > pos and src[closing - 1] == "#":
            closing -= 1
        if closing > pos and src[closing - 1] in " \t":
            mx = closing
        if src.find("`", pos, mx) >= 0:
            self.inlines.append([(pos, mx)])

    def _paragraph(self, start: int, end: int) -> None:
        """A paragraph, or a setext heading when an underline comes before its end."""
        old_parent, self.parent = self.parent, "paragraph"
        stop, underlined = self._paragraph_end(start, end, setext=True)
        if not underlined and end != self.line_max:
            stop, _ = self._paragraph_end(start, self.line_max, setext=False)
        self.line = stop + underlined
        self.parent = old_parent
        b, e, t = self.b, self.e, self.t
        if self.src.find("`", b[start] + t[start], e[stop - 1]) >= 0:
            self.inlines.append([(b[row] + t[row], e[row]) for row in range(start, stop)])

    def _paragraph_end(self, start: int, end: int, setext: bool) -> tuple[int, bool]:
        src, b, e, t, s, blk = self.src, self.b, self.e, self.t, self.s, self.blk
        line = start + 1
        while line < end:
            pos = b[line] + t[line]
            if pos >= e[line]:
                break
            indent = s[line]
            # Most lines start with a letter: neither an underline nor the start of a block.
            if indent - blk > 3 or src[pos] not in _BLOCK_STARTS:
                line += 1
                continue
            if setext and indent >= blk and _UNDERLINE.fullmatch(src, pos, e[line]):
                return line, True
            if indent >= 0 and self._interrupts(line, end):
                break
            line += 1
        return line, False


def _run_length(src: str, pos: int, end: int) -> int:
    run = pos + 1
    while run < end and src[run] == src[pos]:
        run += 1
    return run - pos


def _columns(indent: str) -> int:
    column = 0
    for ch in indent:
        column += 4 - column % 4 if ch == "\t" else 1
    return column
