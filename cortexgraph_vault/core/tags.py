"""Tags of a note (frontmatter `tags`/`tag` and inline `#tags`), and the tag spelling we write.

Inline tags follow Obsidian: letters of any script, digits, `_`, `-` and `/` for nesting, at
least one character that is not a digit, after the start of a line, a space or an opening
punctuation mark. Nothing in code, math or comments counts (see `code_ranges.prose_view`), nor
a `#` inside a link or a URL.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

__all__ = ["extract_tags", "normalize_tag", "tag_ancestors"]

_INLINE_TAG = re.compile(r"#(\w[\w/\-\u0300-\u036f]*)")
# What may come just before `#`. `&` may not (`&#123;` is an entity), nor letters or `/`
# (`Note#Heading`, `x.com/#frag`).
_BEFORE_TAG = frozenset(" \t\n\r\f\v\u00a0\u3000([{,;:!?\"'*~>=")
# Wikilinks and link destinations, whose `#` starts a heading or an anchor, not a tag.
_URL_LOOKBACK = 2000  # how far back a URL may start; bounds the work on pathological text
_LINK_PARTS = re.compile(r"\[\[[^\]\n]*\]\]|\]\([^)\n]*\)")
_SEPARATORS = re.compile(r"[,\s]+")


def extract_tags(body: str, frontmatter: Mapping[str, Any] | None = None) -> list[str]:
    """Tags without `#`, frontmatter first, then the body in reading order.

    Obsidian treats `#Work` and `#work` as one tag, so duplicates are found ignoring case and
    the first spelling is kept.
    """
    tags: list[str] = []
    seen: set[str] = set()

    def add(tag: str) -> None:
        tag = tag.strip().lstrip("#").rstrip("/")
        if tag and not tag.isdigit() and (key := tag.casefold()) not in seen:
            seen.add(key)
            tags.append(tag)

    # markdown-it (code_ranges) only where a body is read: a search's tag filter needs none
    from cortexgraph_vault.core.code_ranges import prose_view

    if frontmatter:
        for key in ("tags", "tag"):
            for item in _frontmatter_items(frontmatter.get(key)):
                for piece in _SEPARATORS.split(item):
                    add(piece)
    text = prose_view(body)
    if "#" in text:
        found = list(_INLINE_TAG.finditer(text))
        if any(_after_link_start(text, m.start()) for m in found):
            text = _LINK_PARTS.sub("\x00", text)
            found = list(_INLINE_TAG.finditer(text))
        for m in found:
            start = m.start()
            if start and text[start - 1] not in _BEFORE_TAG:
                continue
            # A URL's fragment (`https://x.com/a?b=(#frag)`) is no tag either.
            window = max(0, start - _URL_LOOKBACK)
            word_start = max(text.rfind(" ", window, start), text.rfind("\n", window, start)) + 1
            if "://" not in text[max(window, word_start) : start]:
                add(m.group(1))
    return tags


def _after_link_start(text: str, pos: int) -> bool:
    """A wikilink or a link destination (`[[`, `](`) opens on pos's line before it: only
    then can a link part hold the `#` at pos (their text never spans lines)."""
    line = text.rfind("\n", 0, pos) + 1
    return text.find("[[", line, pos) >= 0 or text.find("](", line, pos) >= 0


def _frontmatter_items(value: Any) -> list[str]:
    values = value if isinstance(value, list | tuple) else [value]
    # YAML reads `tags: [2024]` as a number; it becomes a string, and then no tag (all digits).
    return [
        str(item)
        for item in values
        if isinstance(item, str) or (isinstance(item, int | float) and not isinstance(item, bool))
    ]


_RUNS = re.compile(r"[_-]{2,}")


def normalize_tag(tag: str) -> str:
    """The tag as we write it: `"DB Prefs"` → `db_prefs`, `"Machine.Learning/PyTorch"` →
    `machine-learning/pytorch`, `"Café Crème"` → `café_crème`; "" when nothing is left.

    Letters and digits of any script stay (CortexGraph dropped them); `.` becomes `-`, any
    other space or punctuation `_`; `/` separates levels, and empty levels are dropped.
    """
    text = unicodedata.normalize("NFC", tag).strip().lower()
    chars = "".join(map(_tag_char, text))
    collapsed = _RUNS.sub(lambda m: "-" if "-" in m.group() else "_", chars)
    levels = (level.strip("_-") for level in collapsed.split("/"))
    return "/".join(level for level in levels if level)


def _tag_char(ch: str) -> str:
    if ch.isascii():
        return ch if ch.isalnum() or ch in "_-/" else "-" if ch == "." else "_"
    # Marks stay: many scripts write vowels as combining marks (Devanagari "हिंदी").
    return ch if unicodedata.category(ch)[0] in "LNM" else "_"


def tag_ancestors(tag: str) -> list[str]:
    """`"a/b/c"` → `["a", "a/b", "a/b/c"]`: a nested tag also counts as each of its parents."""
    levels = [level for level in tag.split("/") if level]
    return ["/".join(levels[: i + 1]) for i in range(len(levels))]
