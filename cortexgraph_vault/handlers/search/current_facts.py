"""Search answers with what is true now: a superseded memory's place goes to what replaced it.

A question is often worded like the old fact ("where does the user live" matches "I live in
Paris", not "I moved to Berlin"). So a superseded memory that matches lends its rank to the
memory that replaced it (followed along a chain to the current one): the current memory
ranks at least where the old one would have, even when the query's words are not its own.
The old one is then left out, or — when history is asked for — kept just below it, marked.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cortexgraph_vault.handlers.graph.relation_index import RelationIndex
from cortexgraph_vault.handlers.search.candidates import CandidatePool
from cortexgraph_vault.handlers.search.note_table import NoteTable

CHAIN_MOST = 16  # links followed from an old memory to the current one
ALONE = 0.5  # a superseded memory whose replacement is gone keeps this share of its score


def current_of(relations: RelationIndex, path: str) -> list[str]:
    """The current memories that replaced the one at `path` (through a chain); empty when
    none exists any more."""
    found: list[str] = []
    seen = {path}
    todo = relations.replacements(path)
    while todo and len(seen) < CHAIN_MOST:
        step = todo.pop(0)
        if step in seen:
            continue
        seen.add(step)
        if step in relations.superseded:
            todo += relations.replacements(step)
        else:
            found.append(step)
    return found


def replaced_rows(relations: RelationIndex, table: NoteTable) -> np.ndarray:
    """The table rows of the superseded memories (few: looked up by path)."""
    if not relations.superseded:
        return np.zeros(0, np.int64)
    rows = table.rows(list(relations.superseded))
    return rows[rows >= 0]


def current_first(
    pool: CandidatePool,
    rows: np.ndarray,
    superseded: np.ndarray,
    table: NoteTable,
    relations: RelationIndex,
    *,
    include_superseded: bool,
    allowed: Callable[[int], bool],
    memory_score: Callable[[int], float],
    score_for: Callable[[int, float], float],
) -> CandidatePool:
    """`pool` (whose table rows are `rows`; `superseded` masks the superseded among them,
    matched whatever their status: gc archives them) with each superseded match's
    relevance lent to its current replacements — added to the pool when they did not match,
    if `allowed` (the search's filters) lets their row in, and scored by `score_for` as the
    search scores a row — and the superseded matches left out, or with `include_superseded`
    placed just below what replaced them."""
    picked = np.nonzero(superseded)[0].tolist()
    lent: dict[int, float] = {}  # row of a current memory → the relevance lent to it
    below: list[tuple[int, list[int]]] = []  # pool place of an old match → rows above it
    for k in picked:
        currents = [
            table.row_of[p]
            for p in current_of(relations, table.paths[rows[k]])
            if p in table.row_of
        ]
        currents = [r for r in currents if allowed(r)]
        for r in currents:
            lent[r] = max(lent.get(r, 0.0), float(pool.relevance[k]))
        below.append((k, currents))
    found = np.nonzero(np.isin(rows, list(lent)))[0] if lent else np.zeros(0, np.int64)
    place: dict[int, int] = {int(rows[k]): int(k) for k in found.tolist()}
    score, relevance = pool.score.copy(), pool.relevance.copy()
    memory, priority = pool.memory_score, pool.priority.copy()
    added = [r for r in lent if r not in place]
    for r, rel in lent.items():
        at_place = place.get(r)
        if at_place is not None and rel > relevance[at_place]:
            relevance[at_place] = rel
            score[at_place] = max(score[at_place], score_for(r, rel))
    paths, at = pool.paths, pool.at
    if added:
        start = len(paths)
        paths = [*paths, *(table.paths[r] for r in added)]
        at = np.concatenate([at, np.arange(start, start + len(added), dtype=at.dtype)])
        score = np.concatenate([score, [score_for(r, lent[r]) for r in added]])
        relevance = np.concatenate([relevance, [lent[r] for r in added]])
        memory = np.concatenate([memory, [memory_score(r) for r in added]])
        priority = np.concatenate([priority, np.zeros(len(added))])
        for i, r in enumerate(added):
            place[r] = len(pool.at) + i
    keep = np.ones(len(at), dtype=bool)
    for k, currents in below:
        if not include_superseded:
            keep[k] = False
            continue
        priority[k] = 0.0
        tops = [score[place[r]] for r in currents]
        score[k] = min(score[k], min(tops) * 0.999) if tops else score[k] * ALONE
    return CandidatePool(paths, at, score, relevance, memory, priority).where(keep)
