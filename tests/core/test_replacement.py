"""Noticing that a new statement replaces an older one, without a model."""

from __future__ import annotations

from cortexgraph_vault.core.replacement import Statement, likely_replaced
from tests.core.replacement_set import HELD_OUT, measure, set_weights

OLDS = [
    Statement("home", "Home", "I live in Ghent, two streets from the Vrijdagmarkt."),
    Statement("gp", "GP", "My GP is Dr. Brennan at the Oak Lane practice."),
    Statement("hike", "Hiking", "Maya likes hiking in the Alps."),
    Statement("phone", "Phone", "My phone is a Samsung Galaxy S21."),
    Statement("release", "Release", "The Falcon release is scheduled for 12 May."),
]


def verdicts(new: str) -> list[tuple[str, bool]]:
    weights = set_weights([new, *(o.text for o in OLDS)])
    return [(r.key, r.strong) for r in likely_replaced(new, OLDS, weights)]


def test_a_move_replaces_the_old_home_with_no_word_in_common() -> None:
    assert verdicts("We moved to Antwerp in September; the new flat is near the zoo.") == [
        ("home", True)
    ]


def test_a_change_of_a_slot_mentioned_on_the_way_is_listed_at_most() -> None:
    found = dict(verdicts("I registered with a new GP, Dr. Yusuf, closer to the new flat."))
    assert found["gp"] is True and found.get("home") is not True


def test_another_holder_or_another_slot_replaces_nothing() -> None:
    assert verdicts("Maya's sister lives in Lyon.") == []
    assert verdicts("My sister moved to Lyon last year.") == []
    assert verdicts("I switched my phone plan to a cheaper provider.") == []
    assert verdicts("The Falcon release notes need a new screenshot.") in ([], [("release", False)])


def test_a_later_date_for_the_same_event_replaces_it() -> None:
    assert verdicts("The Falcon release slipped to 2 June.") == [("release", True)]


def test_an_addition_is_never_recorded_alone() -> None:
    assert all(not strong for _, strong in verdicts("I also have an old Nokia as a phone."))


def test_precision_and_recall_on_the_labelled_pairs() -> None:
    """replacement_pairs.jsonl: 108 pairs written for this project, 50 replacements over
    twenty-odd slots, 58 pairs that share a word, a name or a slot but replace nothing."""
    f = measure()
    assert f.ratio(f.strong_right, f.strong) == 1.0, f.wrong
    assert f.ratio(f.strong_right, f.replacements) >= 0.9, f.missed
    assert f.ratio(f.listed_right, f.listed) >= 0.8, f.wrong
    assert f.ratio(f.listed_right, f.replacements) >= 0.95, f.missed


def test_held_out_pairs() -> None:
    """replacement_pairs_heldout.jsonl: 46 pairs written after the rules were set on the
    pairs above and measured once (one fix since: "April" read as a drug name). Measured:
    strong precision 1.00, recall 0.79 (0.83 since a strong verdict drops the rest); listed
    precision 0.74, recall 0.83."""
    f = measure(HELD_OUT)
    assert f.ratio(f.strong_right, f.strong) == 1.0, f.wrong
    assert f.ratio(f.strong_right, f.replacements) >= 0.75, f.missed
    assert f.ratio(f.listed_right, f.listed) >= 0.7, f.wrong


def test_a_slot_another_person_holds_in_an_older_correction_is_not_listed() -> None:
    """An older save that corrected one fact mentions someone else's job on the way ("Jonas
    left the company, so my new manager is…"): a later change of my own employer is not about
    it, and with the memory it does replace, it is recorded alone."""
    olds = [
        Statement("manager", "Manager", "Jonas left the company, so my new manager is Elif Demir."),
        Statement("job", "Job", "I work as a data engineer at Quarry Labs."),
    ]
    new = "Started my new job at Harbor Analytics this week, same data work."
    weights = set_weights([new, *(o.text for o in olds)])
    found = likely_replaced(new, olds, weights)
    assert [(r.key, r.strong) for r in found] == [("job", True)]


def test_a_slot_an_older_memory_mentions_on_the_way_is_not_what_a_move_replaces() -> None:
    """ "A new dentist, closer to the new flat" is about the dentist: a later move replaces the
    home it states, not that memory."""
    olds = [
        Statement("home", "Home", "I live in Ghent, two streets from the Vrijdagmarkt."),
        Statement("gp", "GP", "I registered with a new GP, Dr. Yusuf, closer to the new flat."),
    ]
    new = "We moved to Antwerp in September; the new flat is near the zoo."
    weights = set_weights([new, *(o.text for o in olds)])
    assert [(r.key, r.strong) for r in likely_replaced(new, olds, weights)] == [("home", True)]
