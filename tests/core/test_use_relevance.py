"""The relevance decision: what two texts share about a topic, never everyday words alone."""

from __future__ import annotations

from cortexgraph_vault.core.use_relevance import (
    THRESHOLD,
    Judged,
    MessageView,
    Use,
    WordWeights,
    content_words,
    idf_rarity,
    judge,
    pick,
)
from cortexgraph_vault.index.text.text_index import stems

MEMORIES = [
    "I'm learning Portuguese on Duolingo, about 15 minutes a day.",
    "I live in Porto, near the Bolhão market.",
    "The Heron portal goes live on 3 March.",
    "The office plants get watered on Mondays.",
    "We moved to Ghent last spring; the new flat is near the station.",
]


def weights() -> WordWeights:
    docs = [set(stems(content_words(m))) for m in MEMORIES]
    frequencies: dict[str, int] = {}
    for d in docs:
        for s in d:
            frequencies[s] = frequencies.get(s, 0) + 1
    return WordWeights(stems, idf_rarity(len(docs), frequencies))


def relevance(message: str, memory: str, cosine: float | None = None) -> Use:
    w = weights()
    return judge(MessageView.of(message, w), memory, w, cosine)


def test_everyday_words_weigh_nothing() -> None:
    assert content_words("I live for sunny days like this, let's plan the week") == ["sunny"]
    for memory in MEMORIES:
        for message in ("I live for weekends like this.", "Let's plan the week ahead.",
                        "What a long day, time for a break."):  # fmt: skip
            use = relevance(message, memory)
            assert not use.relevant, (message, memory, use)
            assert use.relevance == 0.0


def test_a_rare_word_shared_alone_is_not_enough_when_the_message_is_about_more() -> None:
    use = relevance("Summer plants look lovely on a balcony.", MEMORIES[3])
    assert use.coverage < 0.5 and not use.relevant


def test_a_question_about_a_slot_is_answered_by_a_memory_stating_it() -> None:
    use = relevance("Which city does the user live in these days?", MEMORIES[4])
    assert use.relevant and use.slot == "home" and "home" in use.why
    # the same words in a statement ask for nothing
    assert not relevance("I live for city breaks these days.", MEMORIES[4]).relevant
    # nor a question about someone else
    assert not relevance("Do you live in a city?", MEMORIES[4]).relevant


def test_a_question_about_my_job_is_not_answered_by_my_partners() -> None:
    use = relevance("What's my job title?", "My partner Ruben works as a nurse at St. Olav.")
    assert use.slot is None and not use.relevant
    assert relevance("What's my job title?", "I work as a data engineer at Finch.").relevant


def test_names_and_rare_words_on_both_sides_make_it_relevant() -> None:
    use = relevance("When does the Heron portal launch?", MEMORIES[2])
    assert use.relevant and "heron" in use.why
    assert use.relevance >= THRESHOLD


def test_meaning_supports_but_never_decides_alone() -> None:
    assert not relevance("Tell me a joke.", MEMORIES[3], cosine=0.95).relevant
    base = relevance("Who waters the office plants?", MEMORIES[3])
    closer = relevance("Who waters the office plants?", MEMORIES[3], cosine=0.9)
    assert closer.relevance >= base.relevance


def _judged(key: str, use: Use, saved: float = 0.0) -> Judged:
    return Judged(key, use, saved)


def test_pick_keeps_the_newest_memory_of_a_single_valued_slot() -> None:
    asked = "Where does the user live now?"
    old = _judged("porto", relevance(asked, MEMORIES[1]), saved=1.0)
    new = _judged("ghent", relevance(asked, MEMORIES[4]), saved=2.0)
    assert old.use.relevant and new.use.relevant
    assert [j.key for j in pick([old, new])] == ["ghent"]


def test_pick_drops_a_match_that_a_better_one_holds_whole() -> None:
    w = weights()
    view = MessageView.of("Which school does Tijn go to?", w)
    school = judge(view, "Our son Tijn goes to De Regenboog primary school.", w)
    swim = judge(view, "Tijn has swimming lessons on Wednesdays.", w)
    assert school.relevant and swim.relevant
    assert [j.key for j in pick([_judged("swim", swim), _judged("school", school)])] == ["school"]


def test_pick_keeps_two_memories_each_about_part_of_the_message() -> None:
    w = weights()
    view = MessageView.of("Any thoughts on oat milk or Postgres?", w)
    milk = judge(view, "Maya drinks oat milk in her coffee.", w)
    db = judge(view, "Maya reaches for Postgres first.", w)
    picked = pick([_judged("milk", milk), _judged("db", db)])
    assert {j.key for j in picked} == {"milk", "db"}


def test_the_person_a_word_names_is_not_the_thing_they_do() -> None:
    """Asking "what do I photograph with?" is about the camera the person uses, not about their job
    as a photographer (one stem, two words)."""
    asked = "What do I photograph with?"
    assert relevance(asked, "I photograph with an old Leica M6.").relevant
    assert not relevance(asked, "I work as a photographer at a local newspaper.").relevant


def test_a_general_how_to_is_no_use_of_a_memory_it_brings_to_mind() -> None:
    """Asking how a thing is done in general uses no memory, even one about that thing; asking
    how the person does it does."""
    memory = "I drink cortados, always with oat milk."
    assert not relevance("How do I make a cortado at home?", memory).relevant
    assert not relevance("How can I clean an espresso machine?", memory).relevant
    assert relevance("How do I take my coffee?", memory).relevant


def test_a_slot_answered_by_a_correction_that_names_someone_leaving() -> None:
    """The manager question is answered by the clause that gives my manager, even when the
    note opens with someone else leaving, and its title repeats that opening."""
    memory = "Jonas left the company\nJonas left the company, so my new manager is Elif Demir."
    use = relevance("Who is my boss right now?", memory)
    assert use.relevant and use.slot == "manager"


def test_a_question_about_one_person_is_not_about_another_for_a_shared_word() -> None:
    asked = "Which secondary school does Noor go to?"
    assert relevance(asked, "Noor moved to Hillside Academy in the spring.").relevant
    assert not relevance(asked, "Ruben now teaches chemistry at a secondary school.").relevant
