"""Links in one note: wikilinks, embeds, Markdown links to local files, link-valued properties.

A link counts when a reader of the rendered note would see it: nothing inside code (fenced,
indented or inline), math, HTML comments or Obsidian `%%` comments. Which characters those are is
decided in `core.code_ranges` (`prose_view`); this module reads links out of what is left.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from operator import itemgetter
from typing import Any, NamedTuple
from urllib.parse import unquote

__all__ = ["LinkRef", "extract_links"]


class LinkRef(NamedTuple):
    """One link, as the index keeps it: a tuple, so it is made, pickled and marshalled (the
    index cache) fast."""

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
# In the prose view code is NUL: a link's brackets must be prose, but its alias or heading may
# hold inline code (`[[Functions#hasTag|`hasTag`]]`), read back from the body as written.
_PROSE_WIKILINK = re.compile(r"\[\[([^\[\]\n]+)\]\]")
_MD_LINK = re.compile(
    r"\[([^\[\]\n]*)\]\(\s*(?:<([^<>\n\x00]*)>|((?:[^\s()\x00]|\([^\s()\x00]*\))+))"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def extract_links(body: str, frontmatter: Mapping[str, Any] | None = None) -> list[LinkRef]:
    """Every link of a note: properties first (line 0), then the body in reading order.

    A self link `[[#Heading]]` is kept with target "" (LinkResolver resolves it to the note
    itself); a Markdown link to a pure anchor `(#x)` or to a URL with a scheme is not a link
    to a file and is left out.
    """
    # markdown-it (code_ranges) only where a body is read: the index's notes name LinkRef
    from cortexgraph_vault.core.code_ranges import prose_view

    links = _property_links(frontmatter) if frontmatter else []
    text = prose_view(body)
    if "[" not in text:
        return links
    # (offset, (target, heading, block, alias, embed, kind)): sorted into reading order below
    found: list[tuple[int, tuple[str, str | None, str | None, str | None, bool, str]]] = []
    written = _Written(body)
    for m in _PROSE_WIKILINK.finditer(text):
        inner = m.group(1)
        fields = _wikilink_fields(written.at(m.span(1)) if "\x00" in inner else inner)
        if fields is not None:
            embed = text.startswith("!", m.start() - 1) if m.start() else False
            found.append((m.start() - embed, (*fields, embed, "wikilink")))
    if "](" in text:
        for m in _MD_LINK.finditer(text):
            fields = _markdown_link_fields(m, written)
            if fields is not None:
                embed = text.startswith("!", m.start() - 1) if m.start() else False
                found.append((m.start() - embed, (*fields, embed, "markdown")))
    found.sort(key=itemgetter(0))
    line, last = 1, 0
    for pos, (target, heading, block, alias, embed, kind) in found:
        line += text.count("\n", last, pos)
        last = pos
        # a target is mostly another note's name, linked from many notes: one string
        links.append(LinkRef(sys.intern(target), heading, block, alias, embed, kind, None, line))
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


class _Written:
    """The body as written, at prose-view offsets (normalised once, only when asked)."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.text: str | None = None

    def at(self, span: tuple[int, int]) -> str:
        if self.text is None:
            from cortexgraph_vault.core.code_ranges import normalized_body

            self.text = normalized_body(self.body)
        return self.text[span[0] : span[1]]


def _markdown_link_fields(
    m: re.Match[str], written: _Written
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
    label = written.at(m.span(1)) if "\x00" in m.group(1) else m.group(1)
    return target, heading, block, label.strip() or None


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
                        target, heading, block, alias = fields
                        links.append(
                            LinkRef(
                                sys.intern(target),
                                heading,
                                block,
                                alias,
                                embed,
                                "property",
                                str(key),
                                0,
                            )
                        )
    return links
