"""Cue-first ranking, pure: the prior's bounds, fusion, episode context (fusion and context
match by match as tests/handlers/search/ranking_reference.py states them)."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.ranking import (
    Episodes,
    RankingConfig,
    Relevance,
    discount_episodes,
    prior,
    vector_share,
)
from tests.handlers.search.ranking_reference import fuse, lend_context

CFG = RankingConfig()


def test_the_prior_is_bounded_by_the_floor_and_one() -> None:
    assert prior(0.0, 0.8) == 0.8
    assert prior(0.001, 0.8) > 0.8
    assert prior(1.0, 0.8) == prior(3.5, 0.8) == 1.0
    assert prior(0.5, 0.8) == 0.9


def test_a_much_better_match_is_never_overtaken_by_a_fresher_one() -> None:
    old_exact = Relevance(lexical=0.9).total(CFG) * prior(0.01, CFG.prior_floor)
    fresh_one_word = Relevance(lexical=0.3).total(CFG) * prior(2.0, CFG.prior_floor)
    assert old_exact > fresh_one_word


def test_equal_matches_are_ordered_by_the_prior() -> None:
    rel = Relevance(lexical=0.5, vector=0.4).total(CFG)
    assert rel * prior(0.9, CFG.prior_floor) > rel * prior(0.1, CFG.prior_floor)


def test_meaning_alone_must_be_close_enough_to_count() -> None:
    found = fuse({"a.md": 0.6}, {"a.md": 0.2, "b.md": 0.55, "c.md": 0.1}, CFG)
    assert set(found) == {"a.md", "b.md"}
    assert found["a.md"].total(CFG) == (1 - CFG.vector_weight) * 0.6 + CFG.vector_weight * 0.2
    # a negative cosine takes nothing away from a word match
    assert (
        fuse({"a.md": 0.6}, {"a.md": -0.3}, CFG)["a.md"].total(CFG) == (1 - CFG.vector_weight) * 0.6
    )


def test_a_better_matching_neighbour_pulls_a_memory_up_equals_do_not() -> None:
    episodes = Episodes(["q.md", "a.md", "far.md"], [0.0, 30.0, 90_000.0])
    created = {"q.md": 0.0, "a.md": 30.0, "far.md": 90_000.0}
    found = {
        "q.md": Relevance(lexical=0.9),
        "a.md": Relevance(lexical=0.2),
        "far.md": Relevance(lexical=0.2),
    }
    lend_context(found, episodes, created, CFG)
    assert found["a.md"].context > 0  # saved 30 s after a better match
    assert found["far.md"].context == 0  # a day later: another episode
    assert found["q.md"].context == 0  # the better match gains nothing from a worse one
    same = {"q.md": Relevance(lexical=0.5), "a.md": Relevance(lexical=0.5)}
    lend_context(same, episodes, created, CFG)
    assert same["q.md"].context == same["a.md"].context == 0


def test_context_never_makes_a_match_of_its_own() -> None:
    episodes = Episodes(["q.md", "a.md"], [0.0, 30.0])
    found = {"q.md": Relevance(lexical=0.9)}
    lend_context(found, episodes, {"q.md": 0.0, "a.md": 30.0}, CFG)
    assert set(found) == {"q.md"}


def test_episode_neighbours_stop_at_a_gap() -> None:
    episodes = Episodes(list("abcde"), [0.0, 10.0, 20.0, 5000.0, 5010.0])
    assert episodes.neighbours(1, 2, 1800) == [("a", 1), ("c", 1)]
    assert episodes.neighbours(2, 2, 1800) == [("b", 1), ("a", 2)]
    assert episodes.neighbours(3, 2, 1800) == [("e", 1)]
    assert episodes.position("c", 20.0) == 2 and episodes.position("x", 20.0) is None


def test_a_long_notes_vector_counts_for_more_than_a_short_memorys() -> None:
    """A memory is a sentence or two: the question's words in it are a precise cue. A page
    that has a few of them somewhere says less by them than by what it is about."""
    cfg = RankingConfig(vector_weight=0.3, long_vector_weight=0.5, short_text=60, long_text=240)
    assert vector_share(0, cfg) == vector_share(60, cfg) == 0.3
    assert vector_share(150, cfg) == pytest.approx(0.4)
    assert vector_share(240, cfg) == vector_share(5000, cfg) == 0.5
    words_only = Relevance(lexical=0.5, vector=0.1, length=2000)
    about_it = Relevance(lexical=0.3, vector=0.5, length=2000)
    assert about_it.own(cfg) > words_only.own(cfg)
    # the same two as short memories: the words decide
    assert Relevance(lexical=0.5, vector=0.1).own(cfg) > Relevance(lexical=0.3, vector=0.5).own(cfg)
    off = RankingConfig(vector_weight=0.0, long_vector_weight=0.0)  # semantic search off
    assert about_it.own(off) == 0.3


def test_an_episodes_later_hits_are_discounted_by_how_many_of_it_score_higher() -> None:
    score = [0.9, 0.8, 0.7, 0.6, 0.5]
    episode = [1, 1, 2, 1, -1]  # -1: a plain note, in no episode
    assert discount_episodes(score, episode, 0.0) == score
    out = discount_episodes(score, episode, 0.5)
    assert out == [0.9, 0.4, 0.7, 0.15, 0.5]  # 0.8 · 0.5, 0.6 · 0.5²; the best of each kept
