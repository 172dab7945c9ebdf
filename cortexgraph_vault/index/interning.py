"""One string per repeated name across the index: 100k notes repeat the same few thousand
link targets, tags and frontmatter keys, each a new string as parsed (tens of megabytes).
Interning changes no value, only how many copies of it memory holds."""

from __future__ import annotations

import sys
from typing import Any

shared = sys.intern


def shared_strings(frontmatter: dict[str, Any]) -> dict[str, Any]:
    """The frontmatter with its keys, and the strings of its lists (tags, aliases,
    entities), interned."""
    out: dict[str, Any] = {}
    for key, value in frontmatter.items():
        if type(value) is list:
            value = [shared(v) if type(v) is str else v for v in value]
        out[shared(key) if type(key) is str else key] = value
    return out


# Numbers and tag lists many notes hold alike (100k notes: ~500 distinct file sizes, ~3,600
# distinct tag lists), one object each. Separate tables: 1 == True == 1.0 as dict keys.
_sizes: dict[int, int] = {}
_tag_lists: dict[tuple[str, ...], tuple[str, ...]] = {}
_TABLE_MAX = 1 << 16  # past this many distinct values, new ones are kept as they come


def shared_size(value: int) -> int:
    found = _sizes.get(value)
    if found is not None:
        return found
    if type(value) is int and len(_sizes) < _TABLE_MAX:
        _sizes[value] = value
    return value


def shared_tags(value: tuple[str, ...]) -> tuple[str, ...]:
    found = _tag_lists.get(value)
    if found is not None:
        return found
    if type(value) is tuple and len(_tag_lists) < _TABLE_MAX:
        _tag_lists[value] = value
    return value
