"""Search over the live index: unified (memories and notes) and memories only.

Relevance comes from the word index (BM25F over title, aliases, tags, entities and content,
prefix and typo tolerant); it is combined with the decay score for short-term memories
(× stm_weight) and with ltm_weight for promoted memories and ordinary notes. Every note is
considered, however old: an old relevant memory is found among thousands of newer ones, and
a query that matches nothing returns nothing.

Review candidates (active memories in the danger zone) are moved up into every k-th place
(k from review_blend_ratio), never added from outside the matches and never pushing a result
out: the results are a reordering of all matches, so a page is full whenever enough exist.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from cortexgraph_vault.core.decay import DAY, score_at
from cortexgraph_vault.core.relevance import STOP_WORDS
from cortexgraph_vault.core.rules import review_priority
from cortexgraph_vault.core.tags import normalize_tag
from cortexgraph_vault.core.times import format_time, from_epoch, parse_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.index.records import IndexedNote
from cortexgraph_vault.index.text_index import FIELDS, text_tokens
from cortexgraph_vault.models import SearchHit, SearchResult
from cortexgraph_vault.ops.common import check_range, paginate, vault_folder, wanted_statuses

UNIFIED_STATUSES = ("active", "promoted", "archived", "note")
SOURCE_STATUS = {"stm": "active", "ltm": "promoted", "archive": "archived", "note": "note"}


def search_terms(query: str | None) -> list[str]:
    """The words of a query that carry meaning (all of them if every word is a stop word)."""
    words = text_tokens(query or "")
    meaningful = [w for w in words if w not in STOP_WORDS]
    return list(dict.fromkeys(meaningful or words))


class Ranked(NamedTuple):
    score: float
    path: str
    note: IndexedNote
    similarity: float
    memory_score: float | None
    priority: float  # review priority; > 0 only for active memories in the danger zone
    review: bool = False


def note_status(note: IndexedNote) -> str:
    return note.memory.status if note.memory is not None else "note"


def _tag_filter(tags: Sequence[str] | None) -> Callable[[IndexedNote], bool] | None:
    wanted = {normalize_tag(t) for t in tags or [] if str(t).strip()}
    wanted.discard("")
    if not wanted:
        return None
    # A nested tag counts for its parents: `project` finds `project/atlas`, as in Obsidian.
    return lambda note: any(t == w or t.startswith(w + "/") for t in note.tags for w in wanted)


# A match while ranking, kept as a plain tuple (10k of them per broad query):
# (score, path, similarity, memory score or None, review priority)
Candidate = tuple[float, str, float, float | None, float]


def rank(
    engine: VaultEngine,
    terms: Sequence[str],
    *,
    statuses: set[str],
    tags: Sequence[str] | None = None,
    folder: str | None = None,
    window_days: float | None = None,
    now: datetime,
    stm_weight: float = 1.0,
    ltm_weight: float = 1.0,
    by_memory_score: bool = False,
) -> tuple[list[Candidate], dict[str, list[str]]]:
    """Every note that matches and passes the filters, with its score; with no terms, every
    note passing the filters (similarity 1).

    Score: similarity × memory score × stm_weight for active memories, similarity ×
    ltm_weight for the rest — or similarity × memory score for every memory when
    `by_memory_score` (search_memory).
    """
    catalog = engine.fresh()
    if terms:
        found, expansions = catalog.search_text(list(terms))
        items = list(found.items())
    else:
        expansions = {}
        items = [(note.path, 1.0) for note in catalog.notes()]
    has_tag = _tag_filter(tags)
    prefix = folder.strip().strip("/") + "/" if folder and folder.strip("/ ") else None
    since = (now - timedelta(days=window_days)).timestamp() if window_days is not None else None
    cfg, rules = engine.decay, engine.rules
    now_ts = now.timestamp()
    want_notes = "note" in statuses
    note_of = catalog.note
    out: list[Candidate] = []
    append = out.append
    for path, sim in items:
        note = note_of(path)
        if note is None:
            continue
        m = note.memory
        if m is None:
            if not want_notes:
                continue
        elif m.status not in statuses:
            continue
        if prefix is not None and not path.startswith(prefix):
            continue
        if has_tag is not None and not has_tag(note):
            continue
        if m is None:
            if since is not None and note.mtime_ns / 1e9 < since:
                continue
            append((sim * ltm_weight, path, sim, None, 0.0))
            continue
        last_used = m.last_used.timestamp()
        if since is not None and last_used < since:
            continue
        s = score_at(m.use_count, last_used, m.strength, now_ts, cfg)
        active = m.status == "active"
        priority = review_priority(s, rules) if active else 0.0
        if by_memory_score:
            append((sim * s, path, sim, s, priority))
        elif active:
            append((sim * s * stm_weight, path, sim, s, priority))
        else:
            append((sim * ltm_weight, path, sim, s, priority))
    return out, expansions


def _order(c: Candidate) -> tuple[float, str]:
    return (-c[0], c[1])


def _review_order(c: Candidate) -> tuple[float, float, str]:
    return (-c[4], -c[0], c[1])


def blend(ranked: list[Candidate], ratio: float, end: int) -> list[tuple[Candidate, bool]]:
    """The first `end` results in order, review candidates (priority > 0) moved into every
    k-th place; each with whether it is there as a review candidate."""
    needed = end * 2 + 1
    if len(ranked) > needed * 4:
        primary = heapq.nsmallest(needed, ranked, key=_order)
    else:
        primary = sorted(ranked, key=_order)
    if ratio <= 0:
        return [(c, False) for c in primary[:end]]
    period = max(2, round(1 / ratio))
    review = sorted((c for c in ranked if c[4] > 0), key=_review_order)
    out: list[tuple[Candidate, bool]] = []
    placed: set[str] = set()
    next_review = iter(review)
    i = 0
    limit = min(end, len(ranked))
    while len(out) < limit:
        chosen: Candidate | None = None
        as_review = False
        if (len(out) + 1) % period == 0:
            for cand in next_review:
                if cand[1] not in placed:
                    chosen, as_review = cand, True
                    break
        if chosen is None:
            while i < len(primary) and primary[i][1] in placed:
                i += 1
            if i >= len(primary):  # review slots took more from the top than foreseen
                primary = sorted(ranked, key=_order)
                continue
            chosen = primary[i]
        out.append((chosen, as_review))
        placed.add(chosen[1])
    return out


def matched_fields(note: IndexedNote, expansions: dict[str, list[str]]) -> list[str]:
    words = {w for found in expansions.values() for w in found}
    if not words:
        return []
    fields = note.document().field_tokens()
    return [name for name, toks in zip(FIELDS, fields, strict=True) if words & set(toks)]


def preview(text: str, length: int) -> str:
    text = text.strip()
    if length and len(text) > length:
        return text[:length].rstrip() + "…"
    return text


def hit(
    engine: VaultEngine,
    r: Ranked,
    now: datetime,
    preview_length: int,
    expansions: dict[str, list[str]],
) -> SearchHit:
    note, m = r.note, r.note.memory
    matched = matched_fields(note, expansions)
    if m is not None:
        view = engine.view(m, now=now, preview=preview_length)
        return SearchHit(
            id=m.id, memory_id=m.id, title=m.title, path=m.path, source=note.kind,
            status=m.status, content=view.content, tags=list(note.tags), score=round(r.score, 6),
            similarity=round(r.similarity, 6), memory_score=view.score, use_count=m.use_count,
            last_used=view.last_used, created_at=view.created, age_days=view.age_days,
            review_priority=view.review_priority, review_candidate=r.review, matched=matched,
        )  # fmt: skip
    created = parse_time(note.frontmatter.get("created"))
    modified = from_epoch(note.mtime_ns / 1e9)
    return SearchHit(
        id=None, memory_id=None, title=note.title, path=note.path, source="note", status=None,
        content=preview(note.body, preview_length), tags=list(note.tags),
        score=round(r.score, 6), similarity=round(r.similarity, 6), last_used=format_time(modified),
        created_at=format_time(created) if created else None,
        age_days=round((now - created).total_seconds() / DAY, 3) if created else None,
        matched=matched,
    )  # fmt: skip


def search_unified(
    engine: VaultEngine,
    query: str,
    *,
    tags: Sequence[str] | None = None,
    status: str | Sequence[str] | None = None,
    folder: str | None = None,
    limit: int = 10,
    stm_weight: float | None = None,
    ltm_weight: float | None = None,
    window_days: float | None = None,
    min_score: float | None = None,
    page: int | None = None,
    page_size: int | None = None,
    preview_length: int = 300,
    include_review_candidates: bool = True,
) -> SearchResult:
    """Short-term memories, promoted memories and ordinary notes, ranked together."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidArgument("query: give some words to search for")
    check_range("limit", limit, 1, 100)
    check_range("page_size", page_size, 1, 100)
    check_range("stm_weight", stm_weight, 0, 2)
    check_range("ltm_weight", ltm_weight, 0, 2)
    check_range("window_days", window_days, 1, 3650)
    check_range("min_score", min_score, 0, 1)
    check_range("preview_length", preview_length, 0, 5000)
    wanted = wanted_statuses(status, known=UNIFIED_STATUSES, default=("active", "promoted", "note"))
    folder = vault_folder(engine, "folder", folder)
    stm_w = engine.config.search_stm_weight if stm_weight is None else stm_weight
    ltm_w = engine.config.search_ltm_weight if ltm_weight is None else ltm_weight
    terms = search_terms(query)
    if not terms:
        return SearchResult(count=0, results=[])
    now = engine.now()

    ranked, expansions = rank(
        engine, terms, statuses=wanted, tags=tags,
        folder=folder, window_days=window_days, now=now, stm_weight=stm_w, ltm_weight=ltm_w,
    )  # fmt: skip
    if min_score is not None:
        ranked = [c for c in ranked if c[0] >= min_score]
    return _page(engine, ranked, expansions, page=page, size=page_size or limit, now=now,
                 preview_length=preview_length, review=include_review_candidates)  # fmt: skip


def _page(
    engine: VaultEngine, ranked: list[Candidate], expansions: dict[str, list[str]], *,
    page: int | None, size: int, now: datetime, preview_length: int, review: bool,
) -> SearchResult:  # fmt: skip
    start, end, info = paginate(len(ranked), page, size)
    ratio = engine.config.review_blend_ratio if review else 0.0
    catalog = engine.catalog
    results = []
    for (score, path, sim, memory_score, priority), as_review in blend(ranked, ratio, end)[
        start:end
    ]:
        note = catalog.note(path)
        if note is not None:
            r = Ranked(score, path, note, sim, memory_score, priority, as_review)
            results.append(hit(engine, r, now, preview_length, expansions))
    return SearchResult(count=len(results), results=results, pagination=info)
