"""Browsing memories: a sorted, filtered page of them; one in detail, by reference or by path."""

from __future__ import annotations

import heapq
from datetime import datetime

from cortexgraph_vault.core.decay import scores_at
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.outlook import uses_to_promote
from cortexgraph_vault.core.rules import promote_window_left
from cortexgraph_vault.core.tags import normalize_tag
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import NotFound
from cortexgraph_vault.handlers.browse import browse_order
from cortexgraph_vault.handlers.browse.paging import paginate
from cortexgraph_vault.handlers.browse.reads import ALL_STATUSES, relations_of
from cortexgraph_vault.models import Backlink, MemoryDetail, MemoryList
from cortexgraph_vault.requests.browse import (
    ListMemoriesRequest,
    MemoryAtPathRequest,
    MemoryDetailRequest,
)


def _first(
    chosen: list[Memory], end: int, sort: str, engine: VaultEngine, now: datetime
) -> list[Memory]:
    """The first `end` of `chosen` in `sort` order (ties by path). Only the pages up to the
    one asked for are ordered: the other thousands of memories need not be."""
    if sort == "score":
        rows = [(m.use_count, m.last_used.timestamp(), m.strength) for m in chosen]
        keys = [-s for s in scores_at(rows, now.timestamp(), engine.decay)]
    elif sort == "age":  # newest first
        keys = [-m.created.timestamp() for m in chosen]
    else:
        keys = [-m.last_used.timestamp() for m in chosen]
    paths = (m.path for m in chosen)
    ranked = heapq.nsmallest(end, zip(keys, paths, range(len(chosen)), strict=True))
    return [chosen[i] for _, _, i in ranked]


def _has_tag(m: Memory, tag: str) -> bool:
    # A nested tag counts for its parents: `project` finds `project/alpha`, as in Obsidian.
    return any(t == tag or t.startswith(tag + "/") for t in (normalize_tag(x) for x in m.tags))


def list_memories(engine: VaultEngine, req: ListMemoriesRequest) -> MemoryList:
    status, sort, tag, page, page_size = req.status, req.sort, req.tag, req.page, req.page_size
    now = engine.now()
    wanted: set[str] = set(ALL_STATUSES) if status == "all" else {status}
    norm = normalize_tag(tag) if tag is not None and tag.strip() else None
    found = browse_order.memory_rows(engine, wanted)
    if found is not None and sort == "score" and norm is None:  # from the note table's arrays
        table, rows = found
        start, end, info = paginate(len(rows), page, page_size)
        assert info is not None
        shown = browse_order.rows_by_score(engine, table, rows, start, end, now)
        return MemoryList(memories=[engine.view(m, now=now) for m in shown], pagination=info)
    if found is not None:
        chosen = browse_order.memories_of(*found)
    else:
        chosen = [m for m in engine.fresh().memories() if m.status in wanted]
    if norm is not None:
        chosen = [m for m in chosen if _has_tag(m, norm)]
    start, end, info = paginate(len(chosen), page, page_size)
    assert info is not None
    shown = _first(chosen, end, sort, engine, now)[start:]
    return MemoryList(memories=[engine.view(m, now=now) for m in shown], pagination=info)


def backlinks_of(engine: VaultEngine, m: Memory) -> list[Backlink]:
    """Notes whose links (body or properties) lead to `m`, resolved as Obsidian does."""
    catalog = engine.catalog
    with catalog.lock:
        found = []
        for path in catalog.graph.backlinks(m.path):
            note = catalog.note(path)
            if note is not None:
                memory_id = note.memory.id if note.memory else None
                found.append(Backlink(path=note.path, title=note.title, memory_id=memory_id))
    return found


def detail(engine: VaultEngine, m: Memory) -> MemoryDetail:
    now = engine.now()
    view = engine.view(m, now=now)
    active = m.status == "active"
    return MemoryDetail(
        **view.model_dump(exclude={"relations"}),
        relations=relations_of(engine, m),
        backlinks=backlinks_of(engine, m),
        uses_to_promote=uses_to_promote(m.decay, now, engine.decay, engine.rules)
        if active
        else None,
        days_left_in_promote_window=promote_window_left(m.decay, now, engine.rules)
        if active
        else None,
    )


def memory_detail(engine: VaultEngine, req: MemoryDetailRequest) -> MemoryDetail:
    return detail(engine, engine.resolve(req.memory_id))


def memory_at_path(engine: VaultEngine, req: MemoryAtPathRequest) -> MemoryDetail:
    """The memory a vault file holds; NotFound when the file is missing or is not a memory."""
    rel = engine.safe_rel(req.path)
    note = engine.fresh().note(rel)
    if note is None:
        raise NotFound(f"{rel}: no such note in the vault")
    if note.memory is None:
        raise NotFound(
            f"{rel}: is a note, not a memory (memories live in {engine.layout.stm}/, "
            f"{engine.layout.ltm}/ and {engine.layout.archive}/)"
        )
    return detail(engine, note.memory)
