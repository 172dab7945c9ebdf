"""One string per repeated name across the index: 100k notes repeat the same few thousand
link targets, tags and frontmatter keys, each a new string as parsed (tens of megabytes).
Interning changes no value, only how many copies of it memory holds."""

from __future__ import annotations

import sys
from typing import TypeVar

shared = sys.intern
T = TypeVar("T")


def shared_strings(frontmatter: dict[str, object]) -> dict[str, object]:
    """The frontmatter with its keys, and the strings of its lists (tags, aliases,
    entities), interned."""
    out: dict[str, object] = {}
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
    return _one_of(_sizes, value, int)


def shared_tags(value: tuple[str, ...]) -> tuple[str, ...]:
    return _one_of(_tag_lists, value, tuple)


def _one_of(table: dict[T, T], value: T, kind: type) -> T:
    """The object `table` holds equal to `value` (kept when it is the first, of `kind`)."""
    found = table.get(value)
    if found is not None:
        return found
    if type(value) is kind and len(table) < _TABLE_MAX:
        table[value] = value
    return value
