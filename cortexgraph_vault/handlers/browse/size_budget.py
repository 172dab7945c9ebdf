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
import functools
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Concatenate, NamedTuple, ParamSpec, TypeVar

from pydantic import BaseModel
from pydantic_core import to_json

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument

_CURSOR_MARK = "after:"

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
P = ParamSpec("P")


def json_size(item: object) -> int:
    """Characters of `item` as compact JSON, exactly as the MCP door sends it."""
    if isinstance(item, BaseModel):
        item = item.model_dump(mode="json", by_alias=True)
    return len(json.dumps(item, ensure_ascii=False, separators=(",", ":")))


def json_size_at_most(item: object) -> int:
    """At least `json_size(item)`, at a fifth of the cost: the length of pydantic's encoding
    in bytes (a character takes at least one), plus what Python's encoder may write longer:
    a digit more for a float's exponent (`1.5e-07`, pydantic `1.5e-7`), five characters for
    a `null` that is an infinite float (`-Infinity`)."""
    try:
        data = to_json(item, by_alias=True)
    except ValueError:  # what pydantic cannot encode (a lone surrogate): Python's encoder can
        return json_size(item)
    return len(data) + data.count(b"e-") + 5 * data.count(b"null")


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


def request_digest(tool: str, request: BaseModel) -> str:
    """The fingerprint of a request's arguments but its cursor: a cursor continues only the
    answer to the same request."""
    fields = request.model_dump(mode="json", exclude={"cursor"})
    return hashlib.sha256(json.dumps([tool, fields], sort_keys=True).encode()).hexdigest()[:12]


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


def quoted_size(text: str) -> int:
    return len(json.dumps(text, ensure_ascii=False))


def prefix_within(text: str, limit: int) -> int:
    """How many leading characters of `text` fit in `limit` characters as a JSON string."""
    keep = min(len(text), limit - 2)
    while keep > 0:
        over = quoted_size(text[:keep]) - limit
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
    others = size - quoted_size(text)
    keep = prefix_within(text, room - others - quoted_size(tail(0, len(text))) + 2)
    while True:
        cut = item.model_copy(update={field: text[:keep] + tail(keep, len(text))})
        over = json_size(cut) - room
        if over <= 0 or keep == 0:  # the tail's numbers may have grown by a digit or two
            return cut
        keep = max(0, keep - over)


def fill_within(
    places: int, make: Callable[[int], M | None], room: int, shrink: Callable[[M, int], M]
) -> tuple[list[M], int]:
    """The items `make(0)`, `make(1)`, … (None: nothing there, skipped) while their compact
    JSON, comma-separated, fits in `room`; and how many places that covers, so a cursor can
    continue at the next. The first item always comes: `shrink(item, room)` cuts one too big
    alone. Items are made only as they are needed."""
    kept: list[M] = []
    used = 0
    exact = False  # sizes are bounds (json_size_at_most) while the items clearly fit
    for place in range(places):
        item = make(place)
        if item is None:
            continue
        if not exact:
            cost = json_size_at_most(item) + 1
            if used + cost <= room:  # then it fits by its exact size too
                kept.append(item)
                used += cost
                continue
            exact = True  # near the budget: as exact as the cut must be
            used = sum(json_size(k) + 1 for k in kept)
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


# -- answers that are not paged -------------------------------------------------------------
# gc, promote, cluster, review, forgotten... answer once, so their long lists are cut to the
# budget instead: leading items kept (they come best or most urgent first), and the answer
# says how many of each list it shows; their counts stay whole.


def _items(value: object) -> list[object]:
    if isinstance(value, dict):
        return [{k: v} for k, v in value.items()]
    return list(value) if isinstance(value, list) else []


def _rebuilt(kept: list[object], like: object) -> object:
    if isinstance(like, dict):
        # _items made each kept item a one-entry dict of `like`
        return {k: v for item in kept if isinstance(item, dict) for k, v in item.items()}
    return kept


def lists_within(result: M, max_chars: int, lists: Sequence[str], say: str | None = "message") -> M:
    """`result` with the trailing items of its `lists` (in that order of priority) left out
    until its compact JSON fits in `max_chars`; the text field `say` then ends with what was
    left out (with no `say`, the caller marks the cut). The very result when it fits."""
    if json_size(result) <= max_chars:
        return result
    full = {name: _items(getattr(result, name)) for name in lists}
    worst = _left_out(max_chars, {n: (len(v), len(v)) for n, v in full.items()}, every=True)
    said = (getattr(result, say) or "") if say else ""
    update: dict[str, object] = {n: _rebuilt([], getattr(result, n)) for n in lists}
    if say:
        update[say] = _joined(said, worst)
    room = max_chars - json_size(result.model_copy(update=update))
    shown: dict[str, tuple[int, int]] = {}
    for name, items in full.items():
        kept, used = fitting(items, room) if room > 0 else ([], 0)
        room -= used
        update[name] = _rebuilt(kept, getattr(result, name))
        shown[name] = (len(kept), len(items))
    if say:
        update[say] = _joined(said, _left_out(max_chars, shown))
    return result.model_copy(update=update)


def _joined(said: str, cut: str) -> str:
    return f"{said} ({cut})" if said else cut


def _left_out(max_chars: int, shown: dict[str, tuple[int, int]], every: bool = False) -> str:
    parts = [
        f"{kept} of {total} {n.replace('_', ' ')}"
        for n, (kept, total) in shown.items()
        if every or kept < total
    ]
    listed = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
    return f"cut to fit {max_chars} characters: {listed} shown; the counts are whole"


def answer_within(
    *lists: str, say: str = "message"
) -> Callable[[Callable[Concatenate[VaultEngine, P], M]], Callable[Concatenate[VaultEngine, P], M]]:
    """An operation (taking the engine first) whose answer keeps within the vault's
    `result_max_chars`, its `lists` cut as `lists_within` cuts them."""

    def wrap(
        fn: Callable[Concatenate[VaultEngine, P], M],
    ) -> Callable[Concatenate[VaultEngine, P], M]:
        @functools.wraps(fn)
        def run(engine: VaultEngine, /, *args: P.args, **kwargs: P.kwargs) -> M:
            result = fn(engine, *args, **kwargs)
            return lists_within(result, engine.config.result_max_chars, lists, say)

        return run

    return wrap
