"""`Blocks`: markdown-it's CommonMark block rules reduced to what decides code, for
`core.code_ranges`. It finds the lines of fenced and indented code blocks and the rows of each
paragraph or heading holding a backtick, and raises `Unsure` where it does not model markdown-it.
"""

from __future__ import annotations

import re
from itertools import accumulate

from markdown_it.presets import commonmark
from markdown_it.rules_block.html_block import HTML_SEQUENCES

__all__ = ["Blocks", "Unsure"]


class Unsure(Exception):
    """The scanner met a construct it does not model; markdown-it decides instead."""


# markdown-it skips what is nested deeper than this (the preset `code_ranges` parses with).
_MAX_NESTING: int = commonmark.make()["options"]["maxNesting"]

_ATX = re.compile(r"#{1,6}(?=[ \t]|$)")
_HR = re.compile(r"([*_-])(?:[ \t]*\1){2,}[ \t]*")
_ORDERED = re.compile(r"[0-9]{1,9}[.)](?=[ \t]|$)")
_BULLET = re.compile(r"[*+-](?=[ \t]|$)")
_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*")
_BLOCK_STARTS = frozenset("`~>*-_+<#=0123456789")


class Blocks:
    """markdown-it's block rules, reduced to what decides code; no tokens are built.

    Per-line numbers follow markdown-it's model (b: content start, e: line end, t: indent
    characters, s: indent columns, bs: tab offset) because containers re-base them (a
    blockquote strips its `>` from each line) and exactness is easiest with the same numbers.
    Results: `code` (line ranges of code blocks) and `inlines` (source rows of each paragraph or
    heading that holds a backtick).
    """

    __slots__ = (
        "b",
        "blk",
        "bs",
        "code",
        "e",
        "inlines",
        "level",
        "line",
        "line_max",
        "list_indent",
        "parent",
        "s",
        "src",
        "t",
    )

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
                    s[i] = len(row[: t[i]].expandtabs(4))  # its indent in columns
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
                raise Unsure  # markdown-it drops the rest here; not worth modelling
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
                    raise Unsure
                return
            pos += 2 if ch == "\\" else 1
        raise Unsure  # a label that goes on to the next line

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
        mx = pos + len(src[pos:mx].rstrip(" \t"))
        closing = pos + len(src[pos:mx].rstrip("#"))
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
    return end - pos - len(src[pos:end].lstrip(src[pos]))
