"""Reading memories: open by reference, search, and vault statistics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.rules import in_danger_zone, promote_reason, should_forget
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import Ambiguous, InvalidArgument, NotFound
from cortexgraph_vault.models import (
    MemoryView,
    OpenResult,
    Relations,
    RelationView,
    SearchResult,
    Skipped,
    StatsResult,
)
from cortexgraph_vault.ops.common import (
    check_range,
    link_target,
    relation_id,
    wanted_statuses,
)
from cortexgraph_vault.ops.relation_index import relation_index
from cortexgraph_vault.ops.writes import MAX_MEMORY_IDS

ALL_STATUSES = ("active", "promoted", "archived")


def relations_of(engine: VaultEngine, m: Memory) -> Relations:
    index = relation_index(engine)
    out: list[RelationView] = []
    for kind, values in m.relations.items():
        for value in values:
            target = index.target_of(value)
            out.append(
                RelationView(
                    id=relation_id(m.id, target.id if target else None, kind, link_target(value)),
                    from_memory_id=m.id, to_memory_id=target.id if target else None,
                    relation_type=kind, target=link_target(value),
                )
            )  # fmt: skip
    incoming = [
        RelationView(
            id=relation_id(rel.source.id, m.id, rel.kind, link_target(rel.value)),
            from_memory_id=rel.source.id, to_memory_id=m.id, relation_type=rel.kind,
            target=link_target(rel.value),
        )
        for rel in index.pointing_at(m)
    ]  # fmt: skip
    return Relations(outgoing=out, incoming=incoming)


def open_memories(
    engine: VaultEngine,
    refs: Sequence[str],
    *,
    include_relations: bool = True,
    include_scores: bool = True,
) -> OpenResult:
    if not refs:
        raise InvalidArgument("memory_ids: give at least one memory id")
    if len(refs) > MAX_MEMORY_IDS:
        raise InvalidArgument(f"memory_ids: at most {MAX_MEMORY_IDS} per call")
    now = engine.now()
    views: list[MemoryView] = []
    not_found: list[str] = []
    for ref in refs:
        try:
            m = engine.resolve(ref)
        except Ambiguous:
            raise
        except NotFound:
            not_found.append(ref)
            continue
        view = engine.view(m, now=now, include_score=include_scores)
        if include_relations:
            view.relations = relations_of(engine, m)
        views.append(view)
    return OpenResult(memories=views, not_found=not_found)


def search_memory(
    engine: VaultEngine,
    query: str | None = None,
    *,
    tags: Sequence[str] | None = None,
    status: str | Sequence[str] | None = None,
    top_k: int = 10,
    window_days: float | None = None,
    min_score: float | None = None,
    page: int | None = None,
    page_size: int | None = None,
    preview_length: int = 300,
    include_review_candidates: bool = True,
    explain: bool = False,
) -> SearchResult:
    """Every memory is considered (not only the recently used); a query filters and ranks.

    Runs on the live index (ops/search.py): relevance first, the memory score as a bounded
    prior; review candidates blended in without dropping a result.
    """
    from cortexgraph_vault.ops.relevance import ONLY_COMMON_WORDS, check_query, only_common_words
    from cortexgraph_vault.ops.search import PageRequest, page_of, rank, search_terms

    check_range("top_k", top_k, 1, 100)
    check_range("page_size", page_size, 1, 100)
    check_range("preview_length", preview_length, 0, 5000)
    if window_days is not None and not 0 < window_days <= 3650:
        raise InvalidArgument(f"window_days: must be from 1 to 3650, got {window_days}")
    check_range("min_score", min_score, 0, 1)
    wanted = wanted_statuses(status, known=ALL_STATUSES, default=("active", "promoted"))
    check_query(query)
    if query and only_common_words(query):
        return SearchResult(count=0, results=[], notice=ONLY_COMMON_WORDS)
    terms = search_terms(query) if query and query.strip() else []
    if query and query.strip() and not terms:
        return SearchResult(count=0, results=[])
    now = engine.now()
    ranked, matches = rank(
        engine, query or "", terms, statuses=wanted, tags=tags, window_days=window_days, now=now,
        by_memory_score=True,
    )  # fmt: skip
    if min_score is not None:
        ranked = [c for c in ranked if (c[3] or 0.0) >= min_score]
    req = PageRequest(page, page_size or top_k, preview_length, include_review_candidates,
                      explain, by_memory_score=True)  # fmt: skip
    return page_of(engine, ranked, matches, req, now=now)


def stats(engine: VaultEngine) -> StatsResult:
    now = engine.now()
    catalog = engine.fresh()
    by_status: Counter[str] = Counter()
    by_folder: Counter[str] = Counter()
    histogram: Counter[str] = Counter()
    forgettable = danger = promotable = 0
    for note in catalog.notes():
        by_folder[note.path.split("/", 1)[0] if "/" in note.path else "."] += 1
        m = note.memory
        if m is None:
            continue
        by_status[m.status] += 1
        if m.status != "active":
            continue
        s = engine.score(m, now)
        bucket = min(int(s * 10), 10) / 10
        histogram[f"{bucket:.1f}" if bucket < 1 else "≥1.0"] += 1
        forgettable += should_forget(s, engine.rules)
        danger += in_danger_zone(s, engine.rules)
        promotable += promote_reason(m.decay, s, now, engine.rules) is not None
    git = "a git repository" if engine.history.available else engine.history.why_unavailable()
    return StatsResult(
        total_notes=len(catalog), memories=dict(by_status), by_folder=dict(sorted(by_folder.items())),
        histogram=dict(sorted(histogram.items())), forgettable=forgettable, danger_zone=danger,
        promotable=promotable,
        problems=[Skipped(path=p, reason=r) for p, r in catalog.problems()], git=git,
    )  # fmt: skip


__all__ = ["format_time", "open_memories", "search_memory", "stats"]
