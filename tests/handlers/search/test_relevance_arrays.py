"""Fusing word and meaning matches and lending context over arrays gives what the plain
functions of tests/handlers/search/ranking_reference.py give, value for value and in the same order — here on made-up
episodes dense enough that one memory is lent to by up to four neighbours, whose shares are
summed in the plain order (float addition is not associative)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from cortexgraph_vault.core.ranking import Episodes, RankingConfig
from cortexgraph_vault.handlers.search.note_table import NOTE, NoteTable
from cortexgraph_vault.handlers.search.relevance_arrays import (
    episode_links,
    fuse_arrays,
    lend_context_arrays,
)
from tests.handlers.search.ranking_reference import fuse, lend_context, neighbours, position


def _table(paths: list[str], created: dict[str, float]) -> NoteTable:
    n = len(paths)
    return NoteTable(
        paths, {p: i for i, p in enumerate(paths)}, [], np.where(
            np.array([p in created for p in paths]), 0, NOTE).astype(np.int16),
        ["active"], np.ones(n), np.zeros(n), np.ones(n),
        np.array([created.get(p, math.nan) for p in paths]), {},
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_fused_and_lent_relevance_equal_the_plain_functions(seed: int) -> None:
    rng = random.Random(seed)
    cfg = RankingConfig(
        vector_weight=rng.choice([0.0, 0.3]),
        page_vector_weight=rng.choice([None, 0.4]),  # a long page's share apart from a memory's
        context_reach=rng.choice([1, 2, 3]),
    )
    paths = [f"_stm/m{i}.md" for i in range(300)] + [f"Notes/n{i}.md" for i in range(100)]
    t = 1.7e9
    created: dict[str, float] = {}
    for p in paths[:300]:
        t += rng.choice([60.0, 600.0, 1800.0, 1800.5, 7200.0])  # episodes break past the gap
        created[p] = t
    created[paths[5]] = created[paths[4]]  # two saves in the same second
    timed = sorted((w, p) for p, w in created.items())
    episodes = Episodes([p for _, p in timed], [w for w, _ in timed])
    lexical = {p: rng.choice([0.1, 0.25, 0.5, 0.75, 1.0, rng.random()])
               for p in rng.sample(paths, 250)}  # fmt: skip
    cosine = {p: rng.uniform(-0.2, 0.9) for p in rng.sample(paths, 330)}  # the rest: no vector
    # as the vector search gives them: the nearest (some matched by words too), then words' own
    nearest = [(p, c) for p, c in cosine.items() if c >= 0.3][:50]
    vector = dict(nearest)
    vector.update((p, cosine[p]) for p in lexical if p in cosine)
    cosines = np.array([cosine.get(p, 0.0) for p in lexical])

    # short memories and notes of every length: the share of their vectors differs
    length = {p: rng.choice([0.0, 12.0, 60.0, 150.0, 240.0, 900.0]) for p in paths}

    plain = fuse(lexical, vector, cfg, length, pages=set(paths[300:]))
    lend_context(plain, episodes, created, cfg)
    table = _table(paths, created)
    found = fuse_arrays(lexical, table.rows(list(lexical)), nearest, cosines, cfg, table,
                        np.array([length[p] for p in lexical]),
                        lambda some: np.array([length[p] for p in some]))  # fmt: skip
    lend_context_arrays(found, episode_links(episodes, cfg.context_reach, cfg.context_gap),
                        table, cfg)  # fmt: skip

    assert list(found.items()) == list(plain.items())
    assert found.total(cfg).tolist() == [r.total(cfg) for r in plain.values()]
    # some memory was lent to by three neighbours or more: the order of the sum mattered
    lenders = []
    for p, r in plain.items():
        i = position(episodes, p, created[p]) if p in created else None
        if r.context > 0 and i is not None:
            near = neighbours(episodes, i, cfg.context_reach, cfg.context_gap)
            lenders.append(sum(1 for q, _ in near if q in plain and plain[q].lexical > 0
                               and plain[q].own(cfg) > r.own(cfg)))  # fmt: skip
    assert max(lenders) >= 3 or cfg.context_reach == 1


def test_a_memory_whose_save_time_moved_lends_nothing_as_the_plain_function() -> None:
    """`position` finds a lender only at its recorded save time."""
    cfg = RankingConfig()
    paths = ["_stm/a.md", "_stm/b.md"]
    episodes = Episodes(paths, [100.0, 200.0])
    created = {"_stm/a.md": 150.0, "_stm/b.md": 200.0}
    lexical = {"_stm/a.md": 1.0, "_stm/b.md": 0.2}
    plain = fuse(lexical, {}, cfg)
    lend_context(plain, episodes, created, cfg)
    table = _table(paths, created)
    found = fuse_arrays(lexical, table.rows(list(lexical)), [], None, cfg, table)
    lend_context_arrays(found, episode_links(episodes, 2, cfg.context_gap), table, cfg)
    assert list(found.items()) == list(plain.items())
    assert found["_stm/b.md"].context == 0.0
