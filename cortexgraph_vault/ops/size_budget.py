"""Results bounded by size as well as by count.

A page of fifty notes can be 2 KB or 400 KB depending on how many links they hold, and a
model's context pays for every character. So every answer that grows with the vault has a
budget in characters of compact JSON (`max_chars`; by default the `result_max_chars` setting,
40,000 — about 10k tokens): whole items are added while they fit, and a cursor says where the
next call continues, so nothing is dropped. At least one item is always returned, so a cursor
always moves on; an item too big alone has its one long text cut, with a marker saying how
to read the rest.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from pydantic import BaseModel

from cortexgraph_vault.errors import InvalidArgument

MIN_MAX_CHARS = 2_000
MAX_MAX_CHARS = 1_000_000
_CURSOR_MARK = "after:"

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


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


# -- continuing a ranked list -------------------------------------------------------------
# A continuation must see the list the first call saw: the cursor carries where to go on,
# where the requested page ends, the instant the list was ranked at (scores decay every
# second), and a digest of the request, so a cursor given with other arguments is refused
# rather than misapplied.
_AT_MARK = "at:"


class Continuation(NamedTuple):
    offset: int  # the first item of the list not yet given
    end: int  # where the requested page ends
    instant: str  # when the list was ranked (ISO time); "" when it does not matter


def request_digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:12]


def continuation_cursor(place: Continuation, digest: str) -> str:
    text = f"{_AT_MARK}{place.offset}:{place.end}:{place.instant}|{digest}"
    return base64.urlsafe_b64encode(text.encode()).decode()


def read_continuation(cursor: str, digest: str, tool: str) -> Continuation:
    """Where a cursor from `tool` continues; refused when it was given for other arguments."""
    refused = InvalidArgument(
        f"cursor: not one {tool} returned; pass next_cursor from its previous answer unchanged"
    )
    try:
        text = base64.urlsafe_b64decode(cursor.strip().encode("ascii")).decode()
        where, _, given = text.removeprefix(_AT_MARK).partition("|")
        offset, end, instant = where.split(":", 2)
        place = Continuation(int(offset), int(end), instant)
    except (binascii.Error, UnicodeError, ValueError):
        raise refused from None
    if not text.startswith(_AT_MARK) or not 0 <= place.offset <= place.end:
        raise refused
    if given != digest:
        raise InvalidArgument(
            f"cursor: it was given for a {tool} call with other arguments; call again with the "
            "same arguments as the answer that gave it, or without cursor to start over"
        )
    return place


def result_budget(setting: int, max_chars: int | None) -> int:
    """The budget of one answer: the call's own, else the vault's `result_max_chars`."""
    return check_max_chars(setting if max_chars is None else max_chars)


def _quoted_size(text: str) -> int:
    return len(json.dumps(text, ensure_ascii=False))


def _prefix_within(text: str, limit: int) -> int:
    """How many leading characters of `text` fit in `limit` characters as a JSON string."""
    keep = min(len(text), limit - 2)
    while keep > 0:
        over = _quoted_size(text[:keep]) - limit
        if over <= 0:
            break
        keep -= over  # each character takes at least one: never cuts more than needed
    return max(0, keep)


def shrink_text(item: M, field: str, room: int, tail: Callable[[int, int], str]) -> M:
    """`item` with its text `field` cut so the whole item fits in `room` characters of JSON;
    `tail(kept, total)` ends the text, saying what was cut and how to read the rest. An item
    that fits is returned as it is; one whose other fields alone overflow keeps only the tail.
    """
    size = json_size(item)
    if size <= room:
        return item
    text = getattr(item, field)
    if not isinstance(text, str):
        raise TypeError(f"{type(item).__name__}.{field} is not text")
    others = size - _quoted_size(text)
    widest = tail(len(text), len(text))  # the longest the tail can be (kept <= total)
    keep = _prefix_within(text, room - others - _quoted_size(widest) + 2)
    return item.model_copy(update={field: text[:keep] + tail(keep, len(text))})


def fill_within(
    places: int, make: Callable[[int], M | None], room: int, shrink: Callable[[M, int], M]
) -> tuple[list[M], int]:
    """The items `make(0)`, `make(1)`, … (None: nothing there, skipped) while their compact
    JSON, comma-separated, fits in `room`; and how many places that covers, so a cursor can
    continue at the next. The first item always comes: `shrink(item, room)` cuts one too big
    alone. Items are made only as they are needed."""
    kept: list[M] = []
    used = 0
    for place in range(places):
        item = make(place)
        if item is None:
            continue
        cost = json_size(item) + 1
        if used + cost > room:
            if kept:
                return kept, place
            item = shrink(item, room - 1)
            cost = json_size(item) + 1
        kept.append(item)
        used += cost
    return kept, places


def page_notice(budget: int, shown: int, first: int, noun: str = "result") -> str:
    """What an answer cut by its budget says, the same for every tool."""
    last = first + shown - 1
    where = f"{noun} {first}" if shown == 1 else f"{noun}s {first}–{last}"
    return (
        f"cut to fit {budget} characters: {where} here; call again with the same arguments "
        "and cursor=next_cursor for the rest"
    )
