"""A note's cold fields (frontmatter, body, links, memory) as the cache holds them.

`stats` reads the memory of every memory note, so unpickling them is most of its time: pickle
looks up a class for every link, every time and the memory itself. Here the
body, the links and the memory's fields are plain values `marshal` reads at C speed (no class
lookups), the two rebuilt by hand; the frontmatter (YAML may hold any type) stays pickled
until it is read. Anything this form cannot hold exactly (a time outside UTC, a value marshal
does not know) is pickled whole instead: decoding gives back equal fields either way. The
first byte says which form follows.
"""

from __future__ import annotations

import dataclasses
import marshal
import pickle
from datetime import UTC, datetime
from typing import Any

from cortexgraph_vault.core.links import LinkRef
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.index.notes.interning import shared

MARSHALLED = b"M"
PICKLED = b"P"
_MEMORY_FIELDS = tuple(f.name for f in dataclasses.fields(Memory) if f.name != "body")
_TIMES = frozenset({"created", "last_used", "promoted_at", "last_review_at"})
_NEW = object.__new__

# frontmatter (or its pickle, until read), body, links, memory
Cold = tuple[Any, str, tuple[Any, ...], Memory | None]


class _Inexact(Exception):
    """The fields cannot be kept in the marshalled form exactly."""


def _time(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if type(value) is not datetime or value.tzinfo is not UTC:
        raise _Inexact
    return (*value.timetuple()[:6], value.microsecond)


def _memory_values(memory: Memory, body: str) -> tuple[Any, ...]:
    if type(memory) is not Memory or memory.body != body:
        raise _Inexact
    values = memory.__dict__
    return tuple(_time(values[name]) if name in _TIMES else values[name] for name in _MEMORY_FIELDS)


def encode(frontmatter: Any, body: str, links: tuple[Any, ...], memory: Memory | None) -> bytes:
    try:
        if type(frontmatter) is bytes:  # still as it was read from the cache
            frontmatter_bytes = frontmatter
        else:
            frontmatter_bytes = pickle.dumps(frontmatter, protocol=pickle.HIGHEST_PROTOCOL)
        plain = (
            frontmatter_bytes,
            body,
            tuple(tuple(link) for link in links),
            None if memory is None else _memory_values(memory, body),
        )
        return MARSHALLED + marshal.dumps(plain)
    except (_Inexact, ValueError):  # ValueError: a value marshal does not know
        if type(frontmatter) is bytes:
            frontmatter = pickle.loads(frontmatter)
        return PICKLED + pickle.dumps(
            (frontmatter, body, links, memory), protocol=pickle.HIGHEST_PROTOCOL
        )


def decode(data: bytes) -> Cold:
    if data[:1] == PICKLED:
        fields: Cold = pickle.loads(data[1:])
        return fields
    frontmatter_bytes, body, raw_links, values = marshal.loads(data[1:])
    links = tuple(
        LinkRef(shared(t), h, b, a, e, shared(k), p, n) for t, h, b, a, e, k, p, n in raw_links
    )
    memory = None
    if values is not None:
        memory = _NEW(Memory)
        state = memory.__dict__
        for name, value in zip(_MEMORY_FIELDS, values, strict=True):
            if name in _TIMES and value is not None:
                y, mo, d, h, mi, s, us = value
                value = datetime(y, mo, d, h, mi, s, us, tzinfo=UTC)
            state[name] = value
        state["body"] = body
    return frontmatter_bytes, body, links, memory


def frontmatter_of(value: Any) -> dict[str, object]:
    """The frontmatter of decoded cold fields (unpickled here, the first time it is read)."""
    if type(value) is bytes:
        result: dict[str, object] = pickle.loads(value)
        return result
    decoded: dict[str, object] = value
    return decoded
