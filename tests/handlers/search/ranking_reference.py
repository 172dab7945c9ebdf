"""The straightforward ranking, note by note in Python floats, as it was before ranking ran
over arrays: the reference the array path must equal value for value, in the same order
(tests/handlers/search/test_rank_arrays.py); `fuse` and `lend_context` are the formulas of
core/ranking.py match by match, which handlers/search/relevance_arrays.py works out over arrays.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Container, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from cortexgraph_vault.core.decay import score_at
from cortexgraph_vault.core.ranking import Episodes, RankingConfig, Relevance, prior
from cortexgraph_vault.core.rules import review_priority
from cortexgraph_vault.core.time_cues import TimeFocus, time_focus
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.search.candidates import Candidate, CandidatePool
from cortexgraph_vault.handlers.search.relevance import (
    SYNONYM_WEIGHT,
    SYNONYMS,
    Matches,
    episodes,
    ranking_config,
)
from cortexgraph_vault.handlers.search.search import (
    PRESENT_SCALE_DAYS,
    PRESENT_WEIGHT,
    REVIEW_NEAR,
    SPAN_OUTSIDE,
    _tag_filter,
)
from tests.index.vectors.nearest_reference import nearest


def fuse(
    lexical: Mapping[str, float],
    vector: Mapping[str, float],
    cfg: RankingConfig,
    lengths: Mapping[str, float] | None = None,
    pages: Container[str] = (),
) -> dict[str, Relevance]:
    """Every note matched by words, and every note near enough in meaning; `lengths`: each
    note's indexed length (none: every note is short); `pages`: the notes that are not
    memories."""
    size = (lengths or {}).get
    out = {
        path: Relevance(lexical=sim, length=size(path, 0.0), page=path in pages)
        for path, sim in lexical.items()
    }
    for path, cos in vector.items():
        found = out.get(path)
        if found is not None:
            found.vector = cos
        elif cos >= cfg.vector_min:
            out[path] = Relevance(vector=cos, length=size(path, 0.0), page=path in pages)
    return out


def lend_context(
    found: dict[str, Relevance],
    episodes: Episodes,
    created: Mapping[str, float],
    cfg: RankingConfig,
) -> None:
    """Each memory matched by words lends part of its relevance to its episode neighbours
    that match too: context orders matches, it never makes one (a note saved beside a
    match is not itself an answer)."""
    if cfg.context_weight <= 0 or cfg.context_reach <= 0:
        return
    lent: dict[str, float] = {}
    own_of = {path: rel.own(cfg) for path, rel in found.items()}
    for path, rel in found.items():
        when = created.get(path)
        own = own_of[path]
        if when is None or own <= 0 or rel.lexical <= 0:
            continue
        i = position(episodes, path, when)
        if i is None:
            continue
        for other, k in neighbours(episodes, i, cfg.context_reach, cfg.context_gap):
            gain = own - own_of.get(other, own)
            if gain > 0:
                lent[other] = lent.get(other, 0.0) + cfg.context_weight * 0.5 ** (k - 1) * gain
    for path, amount in lent.items():
        found[path].context = amount


def position(episodes: Episodes, path: str, created: float) -> int | None:
    """Where the memory at `path` saved at `created` is among `episodes`, if it is."""
    i = bisect_left(episodes.times, created)
    while i < len(episodes.times) and episodes.times[i] == created:
        if episodes.paths[i] == path:
            return i
        i += 1
    return None


def neighbours(episodes: Episodes, i: int, reach: int, gap: float) -> list[tuple[str, int]]:
    """(path, distance) of the memories saved around position i in the same episode."""
    times, out = episodes.times, []
    for step in (-1, 1):
        j = i
        for k in range(1, reach + 1):
            nxt = j + step
            if not 0 <= nxt < len(times) or abs(times[nxt] - times[j]) > gap:
                break
            out.append((episodes.paths[nxt], k))
            j = nxt
    return out


def reference_match(
    engine: VaultEngine, query: str, terms: Sequence[str], query_vector: np.ndarray | None = None
) -> tuple[dict[str, Relevance], Matches]:
    catalog = engine.fresh()
    cfg = ranking_config(engine.config)
    sem = catalog.semantic
    use_vectors = engine.config.semantic_search and (bool(terms) or query_vector is not None)
    related = {t: [(s, SYNONYM_WEIGHT) for s in SYNONYMS[t]] for t in terms if t in SYNONYMS}
    vector: dict[str, float] = {}
    qvec = None
    if use_vectors:
        catalog.sync_vectors()
        qvec = query_vector if query_vector is not None else sem.query_vector(query)
    lexical, expansions = catalog.search_text(list(terms), related)
    if qvec is not None:
        vector = nearest(sem, qvec, cfg.vector_candidates, cfg.vector_min, also=lexical)
    all_paths = [*lexical, *vector]
    notes = {path: catalog.note(path) for path in all_paths}
    pages = {path for path, note in notes.items()
             if note is not None and (note.memory is None or note.memory.created is None)}  # fmt: skip
    found = fuse(lexical, vector, cfg,
                 dict(zip(all_paths, catalog.text_lengths(all_paths).tolist(), strict=True)),
                 pages)  # fmt: skip
    if found and cfg.context_weight > 0:
        created = {}
        for path in found:
            note = catalog.note(path)
            if note is not None and note.memory is not None and note.memory.created:
                created[path] = note.memory.created.timestamp()
        lend_context(found, episodes(engine), created, cfg)
    matches = Matches(
        found, expansions, cfg, semantic=qvec is not None,  # type: ignore[arg-type]
        problem=sem.problem if use_vectors else None,
        related={t: [c for c, _ in r] for t, r in related.items()},
    )  # fmt: skip
    return found, matches


def reference_rank(
    engine: VaultEngine, query: str, terms: Sequence[str], *, statuses: set[str],
    tags: Sequence[str] | None = None, folder: str | None = None,
    used_since: datetime | None = None, now: datetime, stm_weight: float = 1.0,
    ltm_weight: float = 1.0, by_memory_score: bool = False,
    query_vector: np.ndarray | None = None, include_superseded: bool = False,
) -> tuple[list[Candidate], Matches | None]:  # fmt: skip
    """A superseded memory is left out (or, with `include_superseded`, kept as it is): the
    vaults compared with this hold no supersession; lending a superseded match's place to
    what replaced it is tested on its own (tests/handlers/writes/test_supersession.py)."""
    catalog = engine.fresh()
    if terms or query_vector is not None:
        found, matches = reference_match(engine, query, terms, query_vector)
        cfg = matches.config
        items = [(path, r.total(cfg)) for path, r in found.items()]
        floor = cfg.prior_floor
    else:
        matches = None
        items = [(note.path, 1.0) for note in catalog.notes()]
        floor = engine.config.search_prior_floor
    has_tag = _tag_filter(tags)
    prefix = folder.strip().strip("/") + "/" if folder and folder.strip("/ ") else None
    since = used_since.timestamp() if used_since is not None else None
    out: list[Candidate] = []
    created: dict[str, float] = {}
    for path, rel in items:
        note = catalog.note(path)
        if note is None:
            continue
        m = note.memory
        if (m is None and "note" not in statuses) or (m is not None and m.status not in statuses):
            continue
        if prefix is not None and not path.startswith(prefix):
            continue
        if has_tag is not None and not has_tag(note):
            continue
        if m is None:
            if since is not None and note.mtime_ns / 1e9 < since:
                continue
            out.append((rel * ltm_weight, path, rel, None, 0.0))
            continue
        last_used = m.last_used.timestamp()
        if since is not None and last_used < since:
            continue
        if m.superseded and not include_superseded:
            continue
        created[path] = m.created.timestamp()
        s = score_at(m.use_count, last_used, m.strength, now.timestamp(), engine.decay)
        active = m.status == "active"
        priority = review_priority(s, engine.rules) if active else 0.0
        if by_memory_score:
            key = rel * prior(s, floor) if matches is not None else s
            out.append((key, path, rel, s, priority))
        elif active:
            out.append((rel * prior(s, floor) * stm_weight, path, rel, s, priority))
        else:
            out.append((rel * ltm_weight, path, rel, s, priority))
    return _weighed_by_time(out, created, time_focus(query, now)), matches


def _weighed_by_time(
    out: list[Candidate], created: dict[str, float], focus: TimeFocus
) -> list[Candidate]:
    """handlers/search/search.py `weigh_time`, one candidate at a time."""
    if not created or not (focus.present or focus.span):
        return out
    weight: dict[str, float] = {}
    if focus.span:
        assert focus.since is not None and focus.until is not None
        low, high = focus.since.timestamp(), focus.until.timestamp()
        inside = {p for p, t in created.items() if low <= t <= high}
        if inside:
            weight = {p: 1.0 if p in inside else SPAN_OUTSIDE for p in created}
    else:
        newest = max(created.values())
        scale = PRESENT_SCALE_DAYS * 86400
        weight = {
            p: 1.0 - PRESENT_WEIGHT * min(1.0, (newest - t) / scale) for p, t in created.items()
        }
    return [(c[0] * weight.get(c[1], 1.0), *c[1:]) for c in out]  # type: ignore[misc]


def _order(c: Candidate) -> tuple[float, float, str]:
    return (-c[0], -(c[3] or 0.0), c[1])


def reference_blend(
    ranked: list[Candidate], ratio: float, end: int
) -> list[tuple[Candidate, bool]]:
    primary = sorted(ranked, key=_order)
    if ratio <= 0:
        return [(c, False) for c in primary[:end]]
    period = max(2, round(1 / ratio))
    review = sorted((c for c in ranked if c[4] > 0), key=lambda c: (-c[4], -c[0], c[1]))
    out: list[tuple[Candidate, bool]] = []
    placed: set[str] = set()
    i = 0
    while len(out) < min(end, len(ranked)):
        while i < len(primary) and primary[i][1] in placed:
            i += 1
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


def pooled(ranker: Callable[..., tuple[list[Candidate], Any]]) -> Callable[..., Any]:
    """A ranker giving its candidates as a pool (what the search functions take)."""

    def run(*args: Any, **kwargs: Any) -> tuple[CandidatePool, Any]:
        found, matches = ranker(*args, **kwargs)
        ms = [np.nan if c[3] is None else c[3] for c in found]
        pool = CandidatePool([c[1] for c in found], np.arange(len(found)),
                             np.array([c[0] for c in found], dtype=np.float64),
                             np.array([c[2] for c in found], dtype=np.float64),
                             np.array(ms, dtype=np.float64),
                             np.array([c[4] for c in found], dtype=np.float64))  # fmt: skip
        return pool, matches

    return run


__all__ = ["pooled", "reference_blend", "reference_match", "reference_rank"]
