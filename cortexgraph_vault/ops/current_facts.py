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

from cortexgraph_vault.ops.candidates import CandidatePool
from cortexgraph_vault.ops.note_table import NoteTable
from cortexgraph_vault.ops.relation_index import RelationIndex

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
) -> CandidatePool:
    """`pool` (whose table rows are `rows`; `superseded` a mask of the superseded among them)
    with each superseded match's score given to its current replacements — added to the pool
    when they did not match, if `allowed` (the search's filters) lets their row in — and the
    superseded matches left out, or with `include_superseded` placed just below them."""
    picked = np.nonzero(superseded)[0].tolist()
    lifts: dict[int, tuple[float, float]] = {}  # row of a current memory → (score, relevance)
    below: list[tuple[int, list[int]]] = []  # pool place of an old match → rows above it
    for k in picked:
        currents = [table.row_of[p] for p in current_of(relations, table.paths[rows[k]])
                    if p in table.row_of]  # fmt: skip
        currents = [r for r in currents if allowed(r)]
        score, rel = float(pool.score[k]), float(pool.relevance[k])
        for r in currents:
            held = lifts.get(r, (0.0, 0.0))
            lifts[r] = (max(held[0], score), max(held[1], rel))
        below.append((k, currents))
    at_row = {int(r): k for k, r in zip(np.nonzero(np.isin(rows, list(lifts)))[0].tolist(),
                                           rows[np.isin(rows, list(lifts))].tolist(), strict=True)}  # fmt: skip
    score = pool.score.copy()
    relevance = pool.relevance.copy()
    priority = pool.priority.copy()
    added: list[int] = []
    for r, (lift, rel) in lifts.items():
        k = at_row.get(r)
        if k is None:
            added.append(r)
        else:
            score[k] = max(score[k], lift)
            relevance[k] = max(relevance[k], rel)
    paths, at, memory = pool.paths, pool.at, pool.memory_score
    if added:
        paths = [*paths, *(table.paths[r] for r in added)]
        start = len(pool.paths)
        at = np.concatenate([at, np.arange(start, start + len(added), dtype=at.dtype)])
        score = np.concatenate([score, [lifts[r][0] for r in added]])
        relevance = np.concatenate([relevance, [lifts[r][1] for r in added]])
        memory = np.concatenate([memory, [memory_score(r) for r in added]])
        priority = np.concatenate([priority, np.zeros(len(added))])
    lifted = CandidatePool(paths, at, score, relevance, memory, priority)
    keep = np.ones(len(at), dtype=bool)
    if not include_superseded:
        keep[picked] = False
        return lifted.where(keep)
    priority[picked] = 0.0
    place = {r: at_row.get(r) for r in lifts}
    for i, r in enumerate(added):
        place[r] = len(pool.at) + i
    for k, currents in below:
        tops = [score[place[r]] for r in currents if place.get(r) is not None]
        score[k] = min(score[k], min(tops) * 0.999) if tops else score[k] * ALONE
    return lifted


__all__ = ["current_first", "current_of", "replaced_rows"]
