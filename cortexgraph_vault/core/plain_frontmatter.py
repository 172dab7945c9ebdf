"""A fast reader for the plain frontmatter nearly every note has, exact or silent.

Frontmatter is almost always flat: `key: value` lines whose values are plain or quoted
scalars, one-line flow lists (`tags: [a, b]`) or block lists of scalars. The YAML loader
spends most of a cold index's parsing time on it (building nodes, then objects from them).
`plain_frontmatter` reads exactly that subset and gives up (None) on anything else, so the
caller falls back to the YAML loader; it never guesses. What it returns is what the loader
would: a scalar's type is decided by PyYAML's own resolver and built by its own constructors
(YAML 1.1: `yes`, `0o7`, `1_000`, `12:30`, dates...), so no rule of the spec is re-typed here;
the one exception is the time stamp we write (`2026-06-02T00:07:40Z`), built as the timestamp
constructor builds it (the tests compare the two).

Anything outside the subset — anchors, aliases, tags, block scalars, nested mappings, multi-
line scalars, escapes, tabs, odd line breaks, flow mappings, keys that are not plain words —
gives None, and so does anything the loader would report (its wording stays the one users see).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

_STR = "tag:yaml.org,2002:str"
_resolver = Resolver()
_constructor = SafeConstructor()
# The scalar types the loader builds; a plain value resolving to any other tag (merge `<<`,
# value `=`) is one it refuses, so it is left to it.
_BUILDERS = {
    tag: SafeConstructor.yaml_constructors[tag]
    for tag in (
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:timestamp",
    )
}
_RESOLVED_FIRST = frozenset(k for k in Resolver.yaml_implicit_resolvers if k)

# Characters that make the text anything but plain: tabs, line breaks other than "\n" (YAML
# 1.1 also breaks lines at \r, \x85, \u2028, \u2029), a BOM, and what YAML does not allow.
_UNSAFE = re.compile(
    "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*(?: [A-Za-z0-9_\-]+)*):(?: +(.*))?")
_ITEM = re.compile(r"( *)- +(.*)")
_DOUBLE = re.compile(r'"([^"\\]*)"')
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
# Starts a plain scalar may not have (indicators), besides "-" before a non-space.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_ITEM_BAD = frozenset(",[]{}#:'\"")
# A value that counts past the loader's bound on values is left to it (it reports it).
_MAX_VALUES = 10_000
_MAX_KEY = 200  # libyaml finds no key in a line whose key is over 1,024 characters long


def plain_frontmatter(head: str) -> dict[str, object] | None:
    """The mapping the YAML loader reads from `head`, or None when `head` is outside the
    plain subset (then only the loader can tell)."""
    if "\r" in head:
        head = head.replace("\r\n", "\n")  # a lone \r left is a line break: refused below
    if _UNSAFE.search(head) is not None:
        return None
    lines = head.split("\n")
    data: dict[str, object] = {}
    count = 1
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if not line or line[0] == "#" or not line.strip(" "):
            continue
        found = _KEY_LINE.fullmatch(line)
        if found is None:
            return None
        key, rest = found.group(1), found.group(2)
        if len(key) > _MAX_KEY or (key[0] in _RESOLVED_FIRST and _tag(key) != _STR):
            return None
        rest = _uncommented(rest) if rest else ""
        if rest is None:
            return None
        if rest:
            value = _flow_list(rest) if rest[0] == "[" else _scalar(rest, flow=False)
        else:
            value, i = _block_list(lines, i)
        if value is _NOT_PLAIN:
            return None
        count += 2 + (len(value) if isinstance(value, list) else 0)
        if count > _MAX_VALUES:
            return None
        data[key] = value
    return data


_NOT_PLAIN: Any = object()


def _tag(value: str) -> str:
    tag: str = _resolver.resolve(ScalarNode, value, (True, False))
    return tag


def _uncommented(rest: str) -> str | None:
    """The value's text without a trailing ` # comment` and spaces (None: a "#" right after a
    quote, which the loader may read otherwise)."""
    if not rest or rest[0] == "#":
        return ""  # `key: # note`: no value on the line
    cut = rest.find(" #")
    if cut != -1:
        rest = rest[:cut]
    rest = rest.rstrip(" ")
    if rest[:1] in ("'", '"') and rest[-1:] != rest[0]:
        return None  # `"a" #b` or `"a"x` or an unclosed quote: the loader decides
    return rest


def _scalar(text: str, *, flow: bool) -> Any:
    """One scalar: quoted (no escapes, one line) or plain; _NOT_PLAIN when it is neither."""
    first = text[0]
    if first == '"':
        quoted = _DOUBLE.fullmatch(text)
        return _NOT_PLAIN if quoted is None else quoted.group(1)
    if first == "'":
        quoted = _SINGLE.fullmatch(text)
        return _NOT_PLAIN if quoted is None else quoted.group(1).replace("''", "'")
    if first in _INDICATORS and (first != "-" or len(text) < 2 or text[1] == " "):
        return _NOT_PLAIN
    if flow:
        if not _FLOW_ITEM_BAD.isdisjoint(text):
            return _NOT_PLAIN
    elif ": " in text or text.endswith(":") or " #" in text:
        return _NOT_PLAIN
    if first not in _RESOLVED_FIRST:
        return text
    if (utc := _UTC_SECOND.fullmatch(text)) is not None:
        try:
            year, month, day, hour, minute, second = map(int, utc.groups())
            return datetime(year, month, day, hour, minute, second, tzinfo=UTC)
        except ValueError:
            return _NOT_PLAIN  # a date out of range: the loader reports it in its words
    known = _typed.get(text, _NOT_PLAIN)
    if known is _NOT_PLAIN:
        known = _typed_value(text)
        if len(_typed) >= _TYPED_KEPT:
            _typed.clear()
        _typed[text] = known
    return known


# The time stamps we write (`2026-06-02T00:07:40Z`), as the timestamp constructor builds them
# (UTC, no fraction); it and the resolver cost more than the rest of a note's frontmatter.
_UTC_SECOND = re.compile("([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")
# Other typed scalars repeat from note to note (`use_count: 1`, `strength: 1.0`, tags
# `[todo]`): a value, immutable, is remembered by its text. Bounded: emptied when full.
_TYPED_KEPT = 4096
_typed: dict[str, Any] = {}


def _typed_value(text: str) -> Any:
    tag = _tag(text)
    if tag == _STR:
        return text
    build = _BUILDERS.get(tag)
    if build is None:
        return _NOT_PLAIN
    try:
        value = build(_constructor, ScalarNode(tag, text))
    except Exception:  # a date out of range...: the loader reports it in its words
        return _NOT_PLAIN
    return value


def _flow_list(text: str) -> Any:
    """`[a, b, "c"]` on one line."""
    if text[-1] != "]":
        return _NOT_PLAIN
    inner = text[1:-1]
    if not inner.strip(" "):
        return []
    items = []
    for part in inner.split(","):
        part = part.strip(" ")
        if not part:
            return _NOT_PLAIN  # `[a,,b]`, `[a,]`: the loader's rules, not ours
        value = _scalar(part, flow=True)
        if value is _NOT_PLAIN:
            return _NOT_PLAIN
        items.append(value)
    return items


def _block_list(lines: list[str], i: int) -> tuple[Any, int]:
    """The items under a key with no value on its line (`- a` lines, all at one indent), or
    None when the next line with content is another key."""
    items: list[Any] = []
    indent: str | None = None
    while i < len(lines):
        line = lines[i]
        if not line or line[0] == "#" or not line.strip(" "):
            i += 1
            continue
        if line[0] != " " and line[0] != "-":
            break
        item = _ITEM.fullmatch(line)
        if item is None or (indent is not None and item.group(1) != indent):
            return _NOT_PLAIN, i
        indent = item.group(1)
        text = _uncommented(item.group(2))
        if not text:
            return _NOT_PLAIN, i
        value = _scalar(text, flow=False)
        if value is _NOT_PLAIN:
            return _NOT_PLAIN, i
        items.append(value)
        i += 1
    return (items if indent is not None else None), i
