"""Results bounded by size as well as by count.

A page of fifty notes can be 2 KB or 400 KB depending on how many links they hold, and a
model's context pays for every character. So a graph page is also given a budget in
characters of compact JSON (`max_chars`): items are added while they fit, and a cursor says
where the next call continues. At least one item is always returned, so a cursor always
moves on.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from cortexgraph_vault.errors import InvalidArgument

MIN_MAX_CHARS = 2_000
MAX_MAX_CHARS = 1_000_000
_CURSOR_MARK = "after:"

T = TypeVar("T")


def check_max_chars(max_chars: int) -> int:
    if not MIN_MAX_CHARS <= max_chars <= MAX_MAX_CHARS:
        raise InvalidArgument(
            f"max_chars: must be from {MIN_MAX_CHARS} to {MAX_MAX_CHARS}, got {max_chars}"
        )
    return max_chars


def json_size(item: object) -> int:
    """Characters of `item` as compact JSON (as the doors send it)."""
    if isinstance(item, BaseModel):
        return len(item.model_dump_json())
    return len(json.dumps(item, ensure_ascii=False, separators=(",", ":")))


def fitting(items: Sequence[T], room: int) -> tuple[list[T], int]:
    """The leading items whose JSON (with a separating comma each) fits in `room`, and the
    characters they take."""
    kept: list[T] = []
    used = 0
    for item in items:
        cost = json_size(item) + 1
        if used + cost > room:
            break
        kept.append(item)
        used += cost
    return kept, used


def cursor_after(path: str) -> str:
    """An opaque cursor: continue after this vault path."""
    return base64.urlsafe_b64encode((_CURSOR_MARK + path).encode()).decode()


def path_of_cursor(cursor: str) -> str:
    try:
        text = base64.urlsafe_b64decode(cursor.encode("ascii")).decode()
    except (binascii.Error, UnicodeError, ValueError):
        text = ""
    if not text.startswith(_CURSOR_MARK):
        raise InvalidArgument(
            "cursor: not one this tool returned; pass next_cursor from the previous answer"
        )
    return text[len(_CURSOR_MARK) :]
