"""Search over the live index: unified (memories and notes) and memories only.

Ranking is cue-first (core/ranking.py): relevance — words through the BM25F index, meaning
through vectors, and the memories saved around a note — decides; a memory's decay score
enters as a bounded prior, so an old memory that answers the question is not buried under
fresh ones that share a word. Every note is considered, however old, and a query that
matches nothing returns nothing.

Review candidates (active memories in the danger zone) are moved up into every k-th place
(k from review_blend_ratio) when they match about as well as the result they move ahead of;
never added from outside the matches and never pushing a result out: the results are a
reordering of all matches, so a page is full whenever enough exist.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from cortexgraph_vault.core.decay import age_days, decay_factor, score_at
from cortexgraph_vault.core.decay_arrays import scores_of
from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import SUPERSEDES
from cortexgraph_vault.core.ranking import RankingConfig, Relevance, discount_episodes, prior
from cortexgraph_vault.core.rules import review_priority
from cortexgraph_vault.core.tags import normalize_tag
from cortexgraph_vault.core.time_cues import TimeFocus, time_focus
from cortexgraph_vault.core.times import format_time, from_epoch, parse_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.engine.memory_views import shown_fields, unchecked
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.graph.catalog_memo import NoteMemo
from cortexgraph_vault.handlers.graph.relation_index import relation_index
from cortexgraph_vault.handlers.request_checks import (
    vault_folder,
    wanted_statuses,
)
from cortexgraph_vault.handlers.search.candidates import Candidate, CandidatePool
from cortexgraph_vault.handlers.search.current_facts import current_first, replaced_rows
from cortexgraph_vault.handlers.search.matched_terms import matched_fields
from cortexgraph_vault.handlers.search.note_table import NOTE, NoteTable, note_table
from cortexgraph_vault.handlers.search.relevance import (
    Matches,
    match,
)
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.models import RankExplain, SearchHit, SearchResult

if TYPE_CHECKING:
    from cortexgraph_vault.requests.vault import SearchUnifiedRequest

REVIEW_NEAR = 0.9
UNIFIED_STATUSES = ("active", "promoted", "archived", "note")

# the fields a memory's hit is given (all but `explain`, which a page asking for it sets)
_HIT_GIVEN = frozenset(SearchHit.model_fields) - {"explain"}


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


def rank(
    engine: VaultEngine,
    query: str,
    terms: Sequence[str],
    *,
    statuses: set[str],
    tags: Sequence[str] | None = None,
    folder: str | None = None,
    used_since: datetime | None = None,
    now: datetime,
    stm_weight: float = 1.0,
    ltm_weight: float = 1.0,
    by_memory_score: bool = False,
    query_vector: np.ndarray | None = None,
    include_superseded: bool = False,
) -> tuple[CandidatePool, Matches | None]:
    """Every note that matches and passes the filters, with its score; with no terms, every
    note passing the filters (relevance 1).

    A superseded memory (one whose note says `superseded_by`) is left out — it is no longer
    true — unless `include_superseded` (history asked for): then it ranks below the memory
    that replaced it, or at half its score when that one is not among the matches.

    Score: relevance × prior(memory score) × stm_weight for active memories, relevance ×
    ltm_weight for the rest — or relevance × prior for every memory when `by_memory_score`
    (search_memory). Worked out over arrays (handlers/search/candidates.py), value for value as the
    formulas above say in Python floats.
    """
    catalog = engine.fresh()
    table = note_table(engine)  # one table for the whole search: rows index into it
    if terms or query_vector is not None:
        matches: Matches | None = match(engine, catalog, query, terms, query_vector, table)
        assert matches is not None
        cfg = matches.config
        found = matches.found
        paths: Sequence[str] = found.paths
        rows = found.rows
        rel = found.total(cfg)
    else:
        matches = None
        cfg = None
        paths = [note.path for note in catalog.notes()]
        rows = table.rows(paths)
        rel = np.ones(len(paths))
    floor = cfg.prior_floor if cfg is not None else engine.config.search_prior_floor
    keep = rows >= 0
    safe = np.maximum(rows, 0)
    code = table.status[safe]
    status_ok = table.status_mask(statuses)[code + 1]
    # A superseded memory that matches lends its place to what replaced it, whatever its
    # status (gc archives it): kept until then, dropped after unless history is asked for.
    relations = relation_index(engine)
    replaced = replaced_rows(relations, table)
    lenders = (rows >= 0) & np.isin(safe, replaced) if len(replaced) else None
    keep &= status_ok if lenders is None else status_ok | lenders
    is_memory = code != NOTE
    prefix = folder.strip().strip("/") + "/" if folder and folder.strip("/ ") else None
    if prefix is not None:
        keep[keep] = [paths[i].startswith(prefix) for i in np.nonzero(keep)[0].tolist()]
    has_tag = _tag_filter(tags)
    if has_tag is not None:
        keep[keep] = [has_tag(table.notes[r]) for r in rows[keep].tolist()]
    since = 0.0
    if used_since is not None:
        since = used_since.timestamp()
        keep &= ~(is_memory & (table.last_used[safe] < since))
        # a note's file time is read from the note: a restamp changes it without a new table
        plain = np.nonzero(keep & ~is_memory)[0]
        note_of = catalog.note
        old = [(n := note_of(paths[i])) is None or n.mtime_ns / 1e9 < since for i in plain.tolist()]
        keep[plain[np.array(old, dtype=bool)]] = False
    at = np.nonzero(keep)[0]
    rel, rows, is_memory = rel[at], safe[at], is_memory[at]
    active_code = table.status_names.index("active") if "active" in table.status_names else -2

    def memory_scores(r: np.ndarray) -> np.ndarray:
        return scores_of(
            table.use_base[r], table.last_used[r], table.strength[r], now.timestamp(), engine.decay
        )

    def scored(
        rel: np.ndarray, s: np.ndarray, is_memory: np.ndarray, active: np.ndarray
    ) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            weighted = rel * (floor + (1.0 - floor) * np.minimum(1.0, np.maximum(0.0, s)))
        if by_memory_score:
            # relevance first; the memory score orders the near-equal (and, with no query,
            # everything)
            return np.where(is_memory, weighted if matches is not None else s, rel * ltm_weight)
        return np.where(active, weighted * stm_weight, rel * ltm_weight)

    s = np.full(len(at), np.nan)
    mem = np.nonzero(is_memory)[0]
    s[mem] = memory_scores(rows[mem])
    active = table.status[rows] == active_code
    priority = np.zeros(len(at))
    rules = engine.rules
    danger = np.nonzero(active & (rules.danger_zone_min <= s) & (s <= rules.danger_zone_max))[0]
    priority[danger] = [review_priority(v, rules) for v in s[danger].tolist()]
    score = scored(rel, s, is_memory, active)
    if cfg is not None and cfg.episode_discount > 0 and len(score) > 1:
        score = _discounted(engine, table, rows, score, cfg)
    score = weigh_time(score, table.created[rows], is_memory, time_focus(query, now))
    pool = CandidatePool(paths, at, score, rel, s, priority)
    if lenders is not None and lenders[at].any():
        wanted = table.status_mask(statuses)

        def allowed(row: int) -> bool:
            note = table.notes[row]
            return (
                bool(wanted[table.status[row] + 1])
                and (has_tag is None or has_tag(note))
                and (prefix is None or note.path.startswith(prefix))
                and (used_since is None or table.last_used[row] >= since)
            )

        def memory_score(row: int) -> float:
            return float(memory_scores(np.array([row]))[0])

        def score_for(row: int, relevance: float) -> float:
            """`score` above for one memory row at the given relevance."""
            one = np.array([row])
            given = np.array([relevance])
            return float(
                scored(given, memory_scores(one), one >= 0, table.status[one] == active_code)[0]
            )

        pool = current_first(
            pool,
            rows,
            lenders[at],
            table,
            relations,
            include_superseded=include_superseded,
            allowed=allowed,
            memory_score=memory_score,
            score_for=score_for,
        )
    return pool, matches


# A query about the present: of memories matching alike, the newer said is likelier true now;
# the oldest keep 1 − PRESENT_WEIGHT of their score, over PRESENT_SCALE_DAYS of age apart.
PRESENT_WEIGHT = 0.15
PRESENT_SCALE_DAYS = 90.0
# A query naming a time ("two weeks ago"): memories saved then keep their score, others this share.
SPAN_OUTSIDE = 0.8


def weigh_time(
    score: np.ndarray, created: np.ndarray, is_memory: np.ndarray, focus: TimeFocus
) -> np.ndarray:
    """`score` weighed by what the query says about time (core/time_cues.py), for memories
    only and relative to the matches: with no match in a named span, the order stays."""
    mem = is_memory & ~np.isnan(created)
    if not mem.any() or not (focus.present or focus.span):
        return score
    weight = np.ones(len(score))
    if focus.span:
        assert focus.since is not None and focus.until is not None
        inside = mem & (created >= focus.since.timestamp()) & (created <= focus.until.timestamp())
        if inside.any():
            weight[mem & ~inside] = SPAN_OUTSIDE
    else:
        behind = (np.nanmax(created[mem]) - created[mem]) / (PRESENT_SCALE_DAYS * 86400)
        weight[mem] = 1.0 - PRESENT_WEIGHT * np.minimum(1.0, behind)
    return score * weight


def _discounted(
    engine: VaultEngine,
    table: NoteTable,
    rows: np.ndarray,
    score: np.ndarray,
    cfg: RankingConfig,
) -> np.ndarray:
    """`discount_episodes` over the best `episode_discount_top` hits: the rest are below any
    page a person reads, and stay as they are."""
    from cortexgraph_vault.handlers.search.relevance_arrays import episode_numbers, links_of

    top = cfg.episode_discount_top
    best = np.argpartition(-score, top - 1)[:top] if len(score) > top else np.arange(len(score))
    numbers = episode_numbers(table, links_of(engine), cfg.context_gap)[rows[best]]
    out = score.copy()
    out[best] = discount_episodes(score[best].tolist(), numbers.tolist(), cfg.episode_discount)
    return out


def blend(ranked: CandidatePool, ratio: float, end: int) -> list[tuple[Candidate, bool]]:
    """The first `end` results in order, review candidates (priority > 0) moved into every
    k-th place — only over a result they nearly match as well (REVIEW_NEAR of its
    relevance): review never buries the answer. Each with whether it is there for review."""
    needed = end * 2 + 1
    primary = ranked.first(needed)
    if ratio <= 0:
        return [(c, False) for c in primary[:end]]
    period = max(2, round(1 / ratio))
    review = ranked.review()
    out: list[tuple[Candidate, bool]] = []
    placed: set[str] = set()
    i = 0
    limit = min(end, len(ranked))
    while len(out) < limit:
        while i < len(primary) and primary[i][1] in placed:
            i += 1
        if i >= len(primary) and len(primary) < len(ranked):
            primary = ranked.first(len(ranked))  # review slots took more than foreseen
            continue
        chosen: Candidate | None = primary[i] if i < len(primary) else None
        as_review = False
        if (len(out) + 1) % period == 0:
            bar = REVIEW_NEAR * chosen[2] if chosen is not None else 0.0
            for cand in review:
                if cand[1] not in placed and cand[2] >= bar:
                    chosen, as_review = cand, True
                    break
        if chosen is None:
            break
        out.append((chosen, as_review))
        placed.add(chosen[1])
    return out


def preview(text: str, length: int) -> str:
    text = text.strip()
    if length and len(text) > length:
        return text[:length].rstrip() + "…"
    return text


def explain_hit(
    engine: VaultEngine,
    r: Ranked,
    place: int,
    matches: Matches | None,
    terms: list[str],
    now: datetime,
    stm_weight: float,
    ltm_weight: float,
    by_memory_score: bool,
) -> RankExplain:
    parts = matches.found.get(r.path, Relevance()) if matches else Relevance(lexical=1.0)
    cfg = matches.config if matches else None
    m = r.note.memory
    weight = ltm_weight
    p = 1.0
    decay = None
    if m is not None and (by_memory_score or m.status == "active"):
        floor = cfg.prior_floor if cfg else engine.config.search_prior_floor
        p = prior(r.memory_score or 0.0, floor)
        weight = 1.0 if by_memory_score else stm_weight
    if m is not None:
        decay = decay_factor(max(0.0, (now - m.last_used).total_seconds()), engine.decay)
    return RankExplain(
        rank=place,
        lexical=round(parts.lexical, 6),
        vector=round(parts.vector, 6) if matches and matches.semantic else None,
        context=round(parts.context, 6),
        relevance=round(r.similarity, 6),
        prior=round(p, 6),
        memory_score=r.memory_score,
        use_count=m.use_count if m else None,
        decay=round(decay, 6) if decay is not None else None,
        strength=m.strength if m else None,
        weight=weight,
        final=round(r.score, 6),
        matched_terms=terms,
    )


# a note's frontmatter is decoded anew at each look (its cold fields keep only the body)
_created_of = NoteMemo(lambda note: parse_time(note.frontmatter.get("created")))


def hit(
    engine: VaultEngine,
    r: Ranked,
    now: datetime,
    preview_length: int,
    expansions: dict[str, list[str]],
    by_words: bool = True,
    matched: list[str] | None = None,
) -> SearchHit:
    """`matched`: the fields `matched_fields` gives, when the caller has them already."""
    note, m = r.note, r.note.memory
    if matched is None:
        matched = matched_fields(note, expansions, by_words=by_words)
    if m is not None:
        decay, rules = engine.decay, engine.rules
        shown = shown_fields(m, preview_length)
        # the memory's score as its view gives it (engine.view)
        score = score_at(m.use_count, m.last_used.timestamp(), m.strength, now.timestamp(), decay)
        active = m.status == "active"
        # made unchecked (engine/memory_views.py): each value is of its field's type already
        return unchecked(
            SearchHit,
            {
                "id": m.id,
                "title": m.title,
                "path": m.path,
                "source": note.kind,
                "status": m.status,
                "content": shown["content"],
                "tags": list(note.tags),
                "score": float(round(r.score, 6)),
                "similarity": float(round(min(1.0, r.similarity), 6)),
                "memory_score": float(round(score, 6)),
                "use_count": m.use_count,
                "last_used": shown["last_used"],
                "created_at": shown["created"],
                "age_days": age_days(m.created, now),
                "review_priority": float(round(review_priority(score, rules), 4))
                if active
                else 0.0,
                "review_candidate": bool(r.review),
                "matched": matched,
                "superseded_by": [link_target(v) for v in m.superseded_by],
                "valid_until": format_time(m.valid_until) if m.valid_until else None,
                "supersedes": [link_target(v) for v in m.relations.get(SUPERSEDES, ())],
                "explain": None,
            },
            _HIT_GIVEN,
        )
    created = _created_of(note)
    modified = from_epoch(note.mtime_ns / 1e9)
    return SearchHit.model_validate(
        dict(
            id=None,
            title=note.title,
            path=note.path,
            source="note",
            status=None,
            content=preview(note.body, preview_length),
            tags=list(note.tags),
            score=round(r.score, 6),
            similarity=round(min(1.0, r.similarity), 6),
            last_used=format_time(modified),
            created_at=format_time(created) if created else None,
            age_days=age_days(created, now) if created else None,
            matched=matched,
        )
    )


def search_unified(engine: VaultEngine, req: SearchUnifiedRequest) -> SearchResult:
    """Short-term memories, promoted memories and ordinary notes, ranked together; the
    answer within the result_max_chars setting, `cursor` continuing."""
    if not req.query.strip():
        raise InvalidArgument("query: give some words to search for")
    wanted = wanted_statuses(
        req.status, known=UNIFIED_STATUSES, default=("active", "promoted", "note")
    )
    folder = vault_folder(engine, "folder", req.folder)
    stm_w = engine.config.search_stm_weight if req.stm_weight is None else req.stm_weight
    ltm_w = engine.config.search_ltm_weight if req.ltm_weight is None else req.ltm_weight
    from cortexgraph_vault.handlers.search.search_page import searched

    return searched(engine, req, wanted, folder=folder, weights=(stm_w, ltm_w))
