"""Cue-first ranking, pure: the prior's bounds, fusion, episode context (fusion and context
match by match as tests/handlers/search/ranking_reference.py states them)."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.ranking import (
    Episodes,
    RankingConfig,
    Relevance,
    asks,
    discount_episodes,
    label_credit,
    leading_label,
    prior,
    reply_credit,
    vector_share,
)
from tests.handlers.search.ranking_reference import fuse, lend_context, neighbours, position

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


def test_a_memory_used_often_does_not_outrank_one_matching_a_seventh_better() -> None:
    # a memory of many uses (score 5) and one faded (0.05), the second matching the question
    # 15 % better: use orders near-equal matches, it does not decide between unequal ones
    used_often = 0.27 * prior(5.0, CFG.prior_floor)
    better_match = 0.31 * prior(0.05, CFG.prior_floor)
    assert better_match > used_often


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
    assert neighbours(episodes, 1, 2, 1800) == [("a", 1), ("c", 1)]
    assert neighbours(episodes, 2, 2, 1800) == [("b", 1), ("a", 2)]
    assert neighbours(episodes, 3, 2, 1800) == [("e", 1)]
    assert position(episodes, "c", 20.0) == 2 and position(episodes, "x", 20.0) is None


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


def test_a_long_page_may_give_its_vector_a_share_of_its_own() -> None:
    """A page that is not a memory is read by the encoder from its title and opening only:
    its share may differ from a long memory's; a short one's is the same for both."""
    cfg = RankingConfig(vector_weight=0.3, long_vector_weight=0.5, page_vector_weight=0.4,
                        short_text=60, long_text=240)  # fmt: skip
    assert vector_share(30, cfg, page=True) == vector_share(30, cfg) == 0.3
    assert vector_share(150, cfg, page=True) == pytest.approx(0.35)
    assert vector_share(5000, cfg, page=True) == 0.4 and vector_share(5000, cfg) == 0.5
    words = Relevance(lexical=0.6, vector=0.3, length=2000, page=True)
    opening = Relevance(lexical=0.3, vector=0.55, length=2000, page=True)
    assert words.own(cfg) > opening.own(cfg)
    unset = RankingConfig(vector_weight=0.3, long_vector_weight=0.5)  # pages as memories
    assert vector_share(5000, unset, page=True) == 0.5


def test_an_episodes_later_hits_are_discounted_by_how_many_of_it_score_higher() -> None:
    score = [0.9, 0.8, 0.7, 0.6, 0.5]
    episode = [1, 1, 2, 1, -1]  # -1: a plain note, in no episode
    assert discount_episodes(score, episode, 0.0) == score
    out = discount_episodes(score, episode, 0.5)
    assert out == [0.9, 0.4, 0.7, 0.15, 0.5]  # 0.8 · 0.5, 0.6 · 0.5²; the best of each kept


def test_a_reply_is_lifted_to_a_share_of_its_question_and_no_further() -> None:
    reply_of = {"q1": "r1", "q2": "r1", "q3": "r3"}
    gained = reply_credit(
        [("q1", 0.5), ("q2", 0.8), ("q3", 0.4)], reply_of, {"r1": 0.1, "r3": 0.9}, 0.9
    )
    # the best of its questions counts, less what the reply had already
    assert gained == {"r1": pytest.approx(0.9 * 0.8 - 0.1)}  # r3 already ranks above 0.36
    assert reply_credit([("q1", 0.5)], reply_of, {}, 0.0) == {}
    assert reply_credit([("q9", 0.5)], reply_of, {}, 0.9) == {}  # no reply saved after it


def test_a_memory_asks_when_it_holds_a_question_mark() -> None:
    assert asks("Maria: Wow! How often do you see sunsets like that?")
    assert asks("Is it a yoga studio? It looks great.")
    assert not asks("John: I see them at least once a week.")


def test_the_label_opening_a_memory_is_read_as_who_or_what_it_is_about() -> None:
    assert leading_label("Caroline: I went to a support group yesterday.") == "Caroline"
    assert leading_label("  Project Atlas: launch moved to May") == "Project Atlas"
    assert leading_label("Mary-Jane O'Neil: hello") == "Mary-Jane O'Neil"
    for text in ("10:30 standup moved", "note: buy milk", "The plan is: none", "Caroline said: hi",
                 "Caroline:no space", "A B C D: four words"):  # fmt: skip
        assert leading_label(text) is None, text


def test_a_memory_whose_label_the_question_names_gains_a_share_of_its_relevance() -> None:
    asked = frozenset({"melani", "paint"})
    assert label_credit(0.5, frozenset({"melani"}), asked, 0.4) == pytest.approx(0.2)
    assert label_credit(0.5, frozenset({"carolin"}), asked, 0.4) == 0.0
    assert label_credit(0.5, frozenset(), asked, 0.4) == 0.0
    assert label_credit(0.0, frozenset({"melani"}), asked, 0.4) == 0.0  # no match, no credit
    assert label_credit(0.5, frozenset({"melani"}), asked, 0.0) == 0.0
