"""The words a reader sees in a Markdown note once Obsidian renders it.

The sentence encoder reads a note's first 128 tokens. Markup spends them on what nobody
reads: a link's target beside its shown text, a URL, a callout's type, code, table rules,
HTML tags, emphasis marks. A help page's opening lines can be half markup; read as rendered,
the same tokens reach further into what the page says. Approximate on purpose (no Markdown
parse): what is kept is read by a model, never shown or written.
"""

from __future__ import annotations

import re

__all__ = ["reading_text"]

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[^\n]*$|\Z)", re.M | re.S)
_COMMENT = re.compile(r"%%.*?(?:%%|\Z)|<!--.*?(?:-->|\Z)", re.S)
_WIKILINK = re.compile(
    r"(!?)\[\[([^\]|#^\n]*)(?:#([^\]|^\n]*))?(?:\^[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]"
)
_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\([^)\n]*\)")
_URL = re.compile(r"<?\bhttps?://[^\s>)\]]+>?")
_CALLOUT = re.compile(r"^[ \t]*(?:>[ \t]*)+\[![\w-]+\][+-]?[ \t]*", re.M)
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.M)
_HEADING = re.compile(r"^#{1,6}[ \t]+(.*?)[ \t#]*$", re.M)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$", re.M)
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[.\][ \t]+)?", re.M)
_RULE = re.compile(r"^[ \t]*(?:[-*_][ \t]*){3,}$", re.M)
_TAG_HTML = re.compile(r"</?[A-Za-z][^<>\n]*>")
_BLOCK_ID = re.compile(r"[ \t]\^[\w-]+[ \t]*$", re.M)
# Emphasis, highlight and strike marks, and inline code's backticks: the words they wrap stay.
_MARKS = re.compile(r"(?<![\w*_~=`])[*_~=`]{1,3}(?=\S)|(?<=\S)[*_~=`]{1,3}(?![\w*_~=`])")
_SPACES = re.compile(r"[ \t]+")


def _shown_link(found: re.Match[str]) -> str:
    """A wikilink as Obsidian shows it: its alias, else what it names; an embed is not text."""
    embed, target, heading, alias = found.groups()
    if embed:
        return ""
    if alias and alias.strip():
        return alias.strip()
    target = target.strip().removesuffix(".md")
    heading = (heading or "").strip()
    return f"{target} {heading}".strip()


def _heading(found: re.Match[str]) -> str:
    """A heading as a sentence of its own: the encoder reads no line breaks."""
    words = found.group(1)
    return words if not words or words[-1] in ".?!:" else f"{words}."


def reading_text(body: str) -> str:
    """`body` as a reader sees it rendered: code, comments, embeds and URLs left out, links as
    their shown text, headings, quotes, callouts, lists and tables without their marks."""
    text = _FENCE.sub("", body)
    text = _COMMENT.sub("", text)
    text = _WIKILINK.sub(_shown_link, text)
    text = _LINK.sub(lambda m: "" if m.group(1) else m.group(2), text)
    text = _URL.sub("", text)
    text = _CALLOUT.sub("", text)
    text = _QUOTE.sub("", text)
    text = _TABLE_RULE.sub("", text)
    text = _RULE.sub("", text)
    text = text.replace("|", " ")
    text = _TAG_HTML.sub("", text)
    text = _HEADING.sub(_heading, text)
    text = _LIST_MARK.sub("", text)
    text = _BLOCK_ID.sub("", text)
    text = _MARKS.sub("", text)
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)
