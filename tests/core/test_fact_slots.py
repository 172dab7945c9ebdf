"""Slots, holders and change cues of sentences stating facts."""

from __future__ import annotations

from cortexgraph_vault.core.fact_slots import (
    change_cues,
    holder_of,
    same_holder,
    slot_holders,
    slots_asked,
    slots_stated,
    when_values,
)


def test_statements_name_their_slot_by_phrasing() -> None:
    assert "home" in slots_stated("I live in Ghent, near the station.")
    assert "home" in slots_stated("We relocated to Utrecht in March.")
    assert "home" not in slots_stated("I live for weekends like this.")
    assert "home" not in slots_stated("The standup moved to 10:15.")
    assert "employer" in slots_stated("I'm a data engineer at Finch Analytics.")
    assert "phone" in slots_stated("I carry a Fairphone 5.")
    assert "phone" not in slots_stated("My headphones are broken.")
    assert "car" in slots_stated("We share a grey Volkswagen ID.3.")
    assert "favourite author" in slots_stated("My favourite author is Ursula K. Le Guin.")


def test_a_question_asks_for_the_slot_it_names_first() -> None:
    assert slots_asked("Which colour theme do I like in my editor?") == {"theme"}
    assert slots_asked("Which city does the user live in?") == {"home"}
    assert slots_asked("Who is my boss right now?") == {"manager"}
    assert slots_asked("What a lovely day") == frozenset()


def test_the_holder_is_the_subject_not_every_person_mentioned() -> None:
    assert holder_of("My sister lives in Lyon.").relatives == {"sister"}
    assert holder_of("We share the car with my brother-in-law.").relatives == frozenset()
    me, sister = holder_of("I live in Lyon."), holder_of("Maya's sister lives in Lyon.")
    assert not same_holder(me, sister)
    daughter, mia = holder_of("Our daughter Mia attends Riverside."), holder_of("Mia moved school.")
    assert same_holder(mia, daughter)
    assert not same_holder(holder_of("Maya likes hiking."), holder_of("I like hiking."))


def test_change_cues_and_values() -> None:
    assert change_cues("I switched to Neovim and no longer use VS Code.") == [
        "switched",
        "no longer",
    ]
    assert change_cues("I like green tea.") == []
    assert when_values("The launch slipped to April 2, at 9:30.") == {"april", "2", "9:30"}


def test_each_slot_is_held_by_the_subject_of_its_own_clause() -> None:
    holders = slot_holders("Jonas left the company, so my new manager is Elif Demir.")
    assert holders["employer"].names == {"jonas"} and not holders["employer"].self_
    assert holders["manager"].self_
    # a clause with no subject of its own, or about the thing before, has the one before it
    assert slot_holders("Sam changed careers and now teaches biology.")["job_title"].names == {
        "sam"
    }
    assert slot_holders("I changed GP; it's Dr. Haddad now.")["doctor"].self_
