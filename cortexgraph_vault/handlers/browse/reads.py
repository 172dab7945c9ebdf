"""Reading memories: open by reference, and search."""

from __future__ import annotations

import functools
from datetime import datetime

from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.relation_ids import relation_id
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import NotFound
from cortexgraph_vault.handlers.browse.size_budget import (
    Continuation,
    continuation_cursor,
    fill_within,
    json_size,
    lists_within,
    page_notice,
    read_continuation,
    request_digest,
    shrink_text,
)
from cortexgraph_vault.handlers.graph.relation_index import relation_index
from cortexgraph_vault.handlers.request_checks import wanted_statuses
from cortexgraph_vault.models import (
    MemoryView,
    OpenResult,
    Relations,
    RelationView,
    SearchResult,
)
from cortexgraph_vault.requests.memories import OpenMemoriesRequest, SearchMemoryRequest

ALL_STATUSES = ("active", "promoted", "archived")


def relation_view(
    from_id: str | None,
    to_id: str | None,
    kind: str,
    target: str,
    strength: float = 1.0,
    metadata: dict[str, str] | None = None,
) -> RelationView:
    """A relation as answers show it, with its stable id (core/relation_ids.py)."""
    return RelationView(
        id=relation_id(from_id, to_id, kind, target),
        from_memory_id=from_id,
        to_memory_id=to_id,
        relation_type=kind,
        target=target,
        strength=strength,
        metadata=metadata or {},
    )


def relations_of(engine: VaultEngine, m: Memory) -> Relations:
    index = relation_index(engine)
    out: list[RelationView] = []
    for kind, values in m.relations.items():
        for value in values:
            target = index.target_of(value)
            out.append(relation_view(m.id, target.id if target else None, kind, link_target(value)))
    incoming = [
        relation_view(rel.from_memory.id, m.id, rel.kind, link_target(rel.value))
        for rel in index.pointing_at(m)
    ]
    return Relations(outgoing=out, incoming=incoming)


def open_memories(engine: VaultEngine, req: OpenMemoriesRequest) -> OpenResult:
    """The memories the request names, in order, as many whole ones as fit in the
    result_max_chars setting; `next_cursor` continues with the next. One too big alone has its
    content cut, ending with the read_note cursor that reads on from there."""
    refs, include_relations, include_scores = req.ids, req.include_relations, req.include_scores
    digest = request_digest("open_memories", req)
    place = read_continuation(req.cursor, digest, "open_memories") if req.cursor else None
    start = min(place.offset, len(refs)) if place is not None else 0
    now = datetime.fromisoformat(place.instant) if place and place.instant else engine.now()
    budget = engine.config.result_max_chars
    not_found: list[str] = []
    opened: dict[str, Memory] = {}

    def make(i: int) -> MemoryView | None:
        ref = refs[start + i]
        try:
            m = engine.resolve(ref)
        except NotFound:
            not_found.append(ref)
            return None
        view = engine.view(m, now=now, include_score=include_scores)
        if include_relations:
            view.relations = relations_of(engine, m)
        opened[view.path] = m
        return view

    def shrink(view: MemoryView, room: int) -> MemoryView:
        view = _relations_within(view, room // 2)
        return shrink_text(view, "content", room, functools.partial(_read_on, opened[view.path]))

    end_cursor = continuation_cursor(Continuation(len(refs), len(refs), now.isoformat()), digest)
    envelope = OpenResult(
        memories=[],
        not_found=list(refs[start:]),
        next_cursor=end_cursor,
        notice=page_notice(budget, len(refs), len(refs)),
    )
    views, covered = fill_within(len(refs) - start, make, budget - json_size(envelope), shrink)
    result = OpenResult(memories=views, not_found=not_found)
    if start + covered < len(refs):
        place = Continuation(start + covered, len(refs), now.isoformat())
        result.next_cursor = continuation_cursor(place, digest)
        result.notice = page_notice(budget, covered, start + 1, noun="memory ref")
    return result


def _relations_within(view: MemoryView, room: int) -> MemoryView:
    """A memory linked from thousands of notes keeps the relations that fit half the answer;
    its problems say how many it shows."""
    if view.relations is None or json_size(view.relations) <= room:
        return view
    whole = view.relations
    cut = lists_within(whole, room, ("outgoing", "incoming"), say=None)
    said = (
        f"relations cut to fit the answer: outgoing {len(cut.outgoing)} of {len(whole.outgoing)}, "
        f"incoming {len(cut.incoming)} of {len(whole.incoming)}"
    )
    return view.model_copy(update={"relations": cut, "problems": [*view.problems, said]})


def _read_on(m: Memory, kept: int, total: int) -> str:
    """The end of a memory's content cut to fit: how much is left and the read_note cursor
    that reads on from the cut (the body keeps its leading blank lines; content does not)."""
    # read_note's module (its result models, its request's) only for a memory cut short
    from cortexgraph_vault.handlers.browse.notes import note_cursor

    offset = len(m.body) - len(m.body.lstrip()) + kept
    return (
        f"…[{total - kept} more characters; read_note(path, "
        f"cursor={note_cursor(offset, m.path, m.content_hash)!r}) reads on]"
    )


def search_memory(engine: VaultEngine, req: SearchMemoryRequest) -> SearchResult:
    """Every memory is considered (not only the recently used); a query filters and ranks.
    The answer stays within the result_max_chars setting; when it is cut, `next_cursor`
    (passed back as `cursor`) continues the same page.

    Runs on the live index (handlers/search/search.py): relevance first, the memory score as a bounded
    prior; review candidates blended in without dropping a result.
    """
    from cortexgraph_vault.handlers.search.search_page import searched

    wanted = wanted_statuses(req.status, known=ALL_STATUSES, default=("active", "promoted"))
    return searched(engine, req, wanted)
