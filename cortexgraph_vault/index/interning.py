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
