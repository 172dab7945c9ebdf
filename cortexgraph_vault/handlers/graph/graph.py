"""The vault as a graph: a bounded page of it, one note's neighbourhood, the index's status."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from datetime import UTC, datetime

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.times import format_time, from_epoch
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.browse.notes import find_note, link_kind
from cortexgraph_vault.handlers.browse.paging import paginate
from cortexgraph_vault.handlers.browse.size_budget import (
    cursor_after,
    fitting,
    json_size,
    lists_within,
    path_of_cursor,
)
from cortexgraph_vault.handlers.search.search import UNIFIED_STATUSES, note_status
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.graph import Edge
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.models import Skipped
from cortexgraph_vault.models.graph import (
    CacheStatus,
    GraphNode,
    GraphRelation,
    GraphResult,
    GraphStats,
    NeighbourhoodResult,
    NeighbourNode,
    ReindexResult,
    SemanticStatus,
    UnresolvedTarget,
    VaultStatus,
    WatcherStatus,
)
from cortexgraph_vault.requests.browse import GraphNeighbourhoodRequest
from cortexgraph_vault.requests.vault import ReadGraphRequest

MAX_RELATIONS = 2000
TOP_TAGS = 30


def _node(engine: VaultEngine, note: IndexedNote, include_scores: bool, now: datetime) -> GraphNode:
    graph = engine.catalog.graph
    edges = graph.outgoing(note.path)
    m = note.memory
    return GraphNode(
        path=note.path,
        title=note.title,
        source=note.kind,
        id=m.id if m else None,
        status=m.status if m else None,
        tags=list(note.tags),
        aliases=list(note.aliases),
        entities=list(note.entities),
        outgoing=sum(1 for e in edges if e.target is not None and e.target != note.path),
        backlinks=len(graph.backlinks(note.path)),
        unresolved=sum(1 for e in edges if e.target is None),
        created=format_time(m.created) if m else None,
        last_used=format_time(m.last_used) if m else None,
        use_count=m.use_count if m else None,
        strength=m.strength if m else None,
        score=round(engine.score(m, now), 6) if m and include_scores else None,
    )


def _relation(engine: VaultEngine, edge: Edge) -> GraphRelation:
    catalog = engine.catalog
    from_note = catalog.note(edge.from_path)
    to_note = catalog.note(edge.target) if edge.target else None
    link = edge.link
    kind = link.property if link.kind == "property" and link.property else None
    relation_type = link_kind(link)
    key = f"{edge.from_path}|{relation_type}|{link.target}|{link.heading}|{link.line}"
    # Two links on one line to the same target differ by block or alias.
    key += f"|{link.block}|{link.alias}" if link.block or link.alias else ""
    strength, metadata = _relation_meta(from_note, kind, to_note.title if to_note else link.target)
    return GraphRelation(
        id=hashlib.sha256(key.encode()).hexdigest()[:16],
        from_path=edge.from_path,
        from_memory_id=from_note.memory.id if from_note and from_note.memory else None,
        to_path=edge.target,
        to_memory_id=to_note.memory.id if to_note and to_note.memory else None,
        relation_type=relation_type,
        target=link.target,
        heading=link.heading,
        block=link.block,
        resolved=edge.target is not None,
        strength=strength,
        metadata=metadata,
    )


def _relation_meta(
    from_note: IndexedNote | None, kind: str | None, target_title: str
) -> tuple[float, dict[str, str]]:
    """A typed relation's strength and metadata, kept beside the link in `<type>_meta`
    (`related_meta: {Target: "strength=0.5; why=same project"}`)."""
    if from_note is None or kind is None:
        return 1.0, {}
    companion = from_note.frontmatter.get(f"{kind}_meta")
    entry = companion.get(target_title) if isinstance(companion, dict) else None
    if not isinstance(entry, str):
        return 1.0, {}
    pairs = dict(
        (k.strip(), v.strip())
        for k, _, v in (p.partition("=") for p in entry.split(";"))
        if k.strip()
    )
    try:
        strength = min(1.0, max(0.0, float(pairs.pop("strength", 1.0))))
    except ValueError:
        strength = 1.0
    return strength, pairs


def _stats(engine: VaultEngine) -> GraphStats:
    catalog = engine.catalog
    graph = catalog.graph
    notes = catalog.notes()
    memories = Counter(n.memory.status for n in notes if n.memory is not None)
    resolved, unresolved = graph.link_counts()
    tags = graph.tag_counts()
    top = sorted(tags.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_TAGS]
    return GraphStats(
        notes=len(notes),
        memories=dict(sorted(memories.items())),
        attachments=graph.attachment_count(),
        links=resolved + unresolved,
        resolved_links=resolved,
        unresolved_links=unresolved,
        unresolved_targets=len(graph.unresolved()),
        orphans=len(graph.orphans()),
        tags=len(tags),
        entities=len(graph.entity_counts()),
        top_tags=dict(top),
    )


def read_graph(engine: VaultEngine, req: ReadGraphRequest) -> GraphResult:
    """A bounded page of the graph: notes, the links from them, and whole-vault stats.

    Bounded by count (`limit` / `page_size`) and by size: the answer, as compact JSON, stays
    within `max_chars`; `next_cursor` continues after the last note it holds. The whole-vault
    lists (unresolved targets, orphans) come with the first call, not with continuations.
    """
    limit, page, page_size, max_chars = req.limit, req.page, req.page_size, req.max_chars
    include_scores = req.include_scores
    if req.cursor is not None and page is not None:
        raise InvalidArgument("give page or cursor, not both", params=("page", "cursor"))
    after = path_of_cursor(req.cursor) if req.cursor is not None else None
    wanted: set[str] = set(UNIFIED_STATUSES) if req.status == "all" else {req.status}
    now = engine.now()
    catalog = engine.fresh()
    with catalog.lock:
        chosen = sorted(
            (n for n in catalog.notes() if note_status(n) in wanted), key=lambda n: n.path
        )
        rest = chosen if after is None else [n for n in chosen if n.path > after]
        start, end, info = paginate(len(chosen), page, page_size or limit)
        if after is not None:
            start, end = 0, page_size or limit
        result = GraphResult(
            memories=[],
            relations=[],
            stats=_stats(engine),
            count=0,
            total_count=len(chosen),
            pagination=info,
            max_chars=max_chars,
            # Room for the longest cursor this answer could carry.
            next_cursor=cursor_after(max((n.path for n in rest), key=len, default="")),
        )
        room = max_chars - json_size(result)
        if after is None:
            room -= _summaries(result, catalog, wanted, limit, room // 4)
        page_notes = rest[start:end]
        edges_seen = 0
        for note in page_notes:
            node = _node(engine, note, include_scores, now)
            edges = catalog.graph.outgoing(note.path)
            relations = [_relation(engine, e) for e in edges[: max(0, MAX_RELATIONS - edges_seen)]]
            truncated = len(relations) < len(edges)
            cost = json_size(node) + 1 + sum(json_size(r) + 1 for r in relations)
            if cost > room:
                if result.memories:
                    break
                # The first note alone is too big: it comes with the links that fit.
                relations, _ = fitting(relations, room - json_size(node) - 1)
                truncated, cost = True, room
            edges_seen += len(edges)
            result.memories.append(node)
            result.relations.extend(relations)
            result.relations_truncated |= truncated
            room -= cost
    result.count = len(result.memories)
    more = start + result.count < len(rest)
    result.next_cursor = cursor_after(result.memories[-1].path) if more and result.count else None
    return result


def _summaries(
    result: GraphResult, catalog: VaultCatalog, wanted: set[str], limit: int, room: int
) -> int:
    """Fill the whole-vault lists (most linked missing targets, orphans) within `room`."""
    unresolved = catalog.graph.unresolved_links()
    top = sorted(unresolved.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
    views = [UnresolvedTarget(target=t, count=n, notes=len(s), sources=s[:10]) for t, (n, s) in top]
    result.unresolved, used = fitting(views, room // 2)
    orphans = [
        p
        for p in catalog.graph.orphans()
        if (note := catalog.note(p)) is not None and note_status(note) in wanted
    ]
    result.orphans, more = fitting(orphans[:limit], room - used)
    return used + more


def neighbourhood(engine: VaultEngine, req: GraphNeighbourhoodRequest) -> NeighbourhoodResult:
    """The notes within `hops` links of one note, in either direction, and the links among them."""
    hops, include_scores = req.hops, req.include_scores
    center = engine.catalog.note(find_note(engine, req.path, "path"))
    assert center is not None  # find_note indexes a note it finds on disk
    now = engine.now()
    catalog = engine.catalog
    with catalog.lock:
        found, truncated = catalog.graph.neighbourhood(center.path, hops, req.max_nodes)
        nodes = []
        for path, distance in sorted(found.items(), key=lambda kv: (kv[1], kv[0])):
            note = catalog.note(path)
            if note is not None:
                base = _node(engine, note, include_scores, now)
                nodes.append(NeighbourNode(**base.model_dump(), distance=distance))
        edges = [
            e
            for path in found
            for e in catalog.graph.outgoing(path)
            if (e.target is None and path == center.path) or e.target in found
        ]
        relations = [_relation(engine, e) for e in edges[:MAX_RELATIONS]]
        backlinks = catalog.graph.backlinks(center.path)
    found_all = NeighbourhoodResult(
        center=nodes[0],
        hops=hops,
        nodes=nodes[1:],
        relations=relations,
        backlinks=backlinks,
        truncated=truncated or len(edges) > MAX_RELATIONS,
    )
    shown = lists_within(
        found_all, engine.config.result_max_chars, ("nodes", "relations", "backlinks"), say=None
    )
    shown.truncated = shown.truncated or shown is not found_all
    return shown


def _iso(moment: datetime | None) -> str | None:
    return format_time(moment) if moment else None


def _semantic_status(engine: VaultEngine) -> SemanticStatus:
    sem = engine.catalog.semantic
    enabled = bool(engine.config.semantic_search)
    model = sem.embedder() if enabled else None
    return SemanticStatus(
        enabled=enabled,
        available=model is not None,
        vectors=sem.count,
        pending=sem.pending,
        model=model.source if model else None,
        problem=sem.problem if enabled else None,
    )


def vault_status(engine: VaultEngine) -> VaultStatus:
    """Counts, the watcher's heartbeat, the cache, and every file that could not be parsed."""
    catalog = engine.catalog if engine.watching else engine.fresh()
    watcher = engine.watcher
    if watcher is not None and watcher.running:
        st = watcher.state
        age = max(0.0, time.time() - st.heartbeat) if st.heartbeat else None
        watch = WatcherStatus(
            running=True,
            started_at=_iso(st.started_at),
            heartbeat_at=format_time(from_epoch(st.heartbeat)) if st.heartbeat else None,
            heartbeat_age_seconds=round(age, 3) if age is not None else None,
            events=st.events,
            batches=st.batches,
            paths_checked=st.paths_checked,
            pending=watcher.pending(),
            last_batch_at=_iso(st.last_batch_at),
            last_batch_ms=round(st.last_batch_seconds * 1000, 3) if st.batches else None,
            reconciliations=st.reconciliations,
            last_reconcile_at=_iso(st.last_reconcile_at),
            last_reconcile_changes=st.last_reconcile_changes,
            errors=list(st.errors),
        )
    else:
        watch = WatcherStatus(running=False)
    cache = engine.index_cache
    with catalog.lock:
        notes = catalog.notes()
        memories = Counter(n.memory.status for n in notes if n.memory is not None)
        resolved, unresolved = catalog.graph.link_counts()
        orphans = len(catalog.graph.orphans())
        tags = len(catalog.graph.tag_counts())
        vocabulary = catalog.text.vocabulary_size
        changes = cache.changes_since_save(catalog)
    status = VaultStatus(
        vault=str(engine.root),
        notes=len(notes),
        memories=dict(sorted(memories.items())),
        links=resolved + unresolved,
        unresolved_links=unresolved,
        orphans=orphans,
        tags=tags,
        vocabulary=vocabulary,
        watcher=watch,
        semantic=_semantic_status(engine),
        cache=CacheStatus(
            path=str(cache.path),
            loaded_at_start=cache.loaded_at_start,
            load_seconds=round(cache.load_seconds, 4),
            saved_at=format_time(datetime.fromtimestamp(cache.saved_at, UTC))
            if cache.saved_at
            else None,
            save_seconds=round(cache.save_seconds, 4) if cache.saved_at else None,
            notes_parsed=catalog.parsed,
            changes_since_save=changes,
        ),
        unparseable=[Skipped(path=p, reason=r) for p, r in catalog.problems()],
    )
    return _problems_within(status, engine.config.result_max_chars)


def _problems_within(status: VaultStatus, max_chars: int) -> VaultStatus:
    """A hostile vault can hold thousands of unreadable files: the first are listed, then one
    line says how many more and where every one is listed."""
    total = len(status.unparseable)

    def more(n: int) -> Skipped:
        return Skipped(
            path="…",
            reason=f"{n} more not listed here, to fit {max_chars} "
            "characters; `cortexgraph-vault stats --json` lists every one",
        )

    room = max_chars - json_size(status.model_copy(update={"unparseable": [more(total)]}))
    if json_size(status) <= max_chars:
        return status
    kept, _ = fitting(status.unparseable, room)
    return status.model_copy(update={"unparseable": [*kept, more(total - len(kept))]})


def reindex(engine: VaultEngine) -> ReindexResult:
    """Throw the index and its cache away and parse every note again."""
    started = time.perf_counter()
    cache = engine.index_cache
    cache.path.unlink(missing_ok=True)
    fresh = VaultCatalog(
        engine.layout,
        max_note_bytes=engine.config.max_note_bytes,
        embedder=engine.catalog.semantic.loader,
    )
    fresh.progress = engine.progress("indexing")
    fresh.vector_progress = engine.progress("embedding")
    fresh.refresh()
    engine.catalog.replace_with(fresh)
    cache.save(engine.catalog)
    seconds = time.perf_counter() - started
    notes = len(engine.catalog)
    memories = sum(1 for _ in engine.catalog.memories())
    return ReindexResult(
        notes=notes,
        memories=memories,
        seconds=round(seconds, 3),
        cache=str(cache.path),
        message=wording.indexed(notes, memories, seconds),
    )
