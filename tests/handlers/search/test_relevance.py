"""Which words of a query are searched for: the words that name a topic, not the phrasing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.ranking import Relevance
from cortexgraph_vault.handlers.search.relevance import (
    keywords,
    meaning_config,
    only_common_words,
    ranking_config,
    search_terms,
)
from cortexgraph_vault.index.text.text_index import text_tokens
from tests.handlers.search.test_search import memory_note, service_for

SNEEZING = "I've been sneezing quite a bit lately. Do you think it might be my living room?"


def test_filler_words_and_the_pieces_of_contractions_are_not_searched_for() -> None:
    assert search_terms(SNEEZING) == text_tokens("sneezing living room")
    # "any" stems to "ani", "really" to "realli": dropped as words, before stemming
    assert search_terms("did she really say anything about any allergies") == text_tokens(
        "allergies"
    )
    # inflections of a filler verb go with it; a word that only shares a stem with filler stays
    assert search_terms("thinking of the things I mentioned about sailing") == ["sail"]
    assert search_terms("we're running late") == text_tokens("running late")


def test_a_query_of_filler_alone_is_refused_as_common_words() -> None:
    assert only_common_words("what do you think it might be, really?")
    assert not only_common_words("what do you think of the sauna")


def test_a_match_on_filler_alone_is_no_match(tmp_path: Path) -> None:
    stm = tmp_path / "vault" / "_stm"
    memory_note(stm, "Scheduling", "I've been thinking it might be a bit late for the meeting; "
                "any chance we move it? I've been quite busy lately.", days_ago=1)  # fmt: skip
    memory_note(stm, "Dust", "Maya's dust allergy flares up when the living room carpet has not "
                "been vacuumed.", days_ago=40)  # fmt: skip
    memory_note(stm, "Sneezing", "Pollen season: sneezing every morning in May.", days_ago=90)
    hits = service_for(tmp_path / "vault").search(SNEEZING).results
    paths = [h.path for h in hits]
    assert paths[:2] in (["_stm/Dust.md", "_stm/Sneezing.md"], ["_stm/Sneezing.md", "_stm/Dust.md"])
    assert "_stm/Scheduling.md" not in paths


def test_a_question_naming_a_kind_finds_the_memory_naming_the_thing(tmp_path: Path) -> None:
    stm = tmp_path / "vault" / "_stm"
    memory_note(stm, "Guitar", "Maya takes guitar lessons on Thursday evenings.", days_ago=30)
    memory_note(stm, "Coffee", "Maya takes her coffee with oat milk.", days_ago=30)
    memory_note(stm, "Tea", "In the afternoon Maya switches to green tea.", days_ago=30)
    memory_note(stm, "Run", "I run every Saturday morning.", days_ago=30)
    service = service_for(tmp_path / "vault")
    assert service.search("does she play an instrument").results[0].path == "_stm/Guitar.md"
    assert service.search("what does the user do on weekends").results[0].path == "_stm/Run.md"
    drinks = {h.path for h in service.search("what does she drink").results}
    assert {"_stm/Coffee.md", "_stm/Tea.md"} <= drinks
    # one way only: asking about coffee is not asking about tea
    assert "_stm/Tea.md" not in {h.path for h in service.search("coffee").results}


def test_the_episode_discount_keeps_one_conversation_from_filling_the_results(
    tmp_path: Path,
) -> None:
    """Twelve turns of one talk about the garden, saved a minute apart, and three memories
    from other days that mention it once: with the discount, those make the first ten."""
    stm = tmp_path / "vault" / "_stm"
    for i in range(12):
        memory_note(stm, f"Talk {i}", f"The garden: tomatoes, garden beds and garden hoses ({i}).",
                    days_ago=10 - i / 1440)  # fmt: skip
    for i, day in enumerate((40, 60, 80)):
        memory_note(stm, f"Other {i}", f"Visited a friend's garden on day {day}.", days_ago=day)
    plain = [h.path for h in service_for(tmp_path / "vault").search("garden", top_k=10).results]
    diverse = service_for(tmp_path / "vault", search_episode_discount="0.3")
    spread = [h.path for h in diverse.search("garden", top_k=10).results]
    others = {f"_stm/Other {i}.md" for i in range(3)}
    assert not others & set(plain)  # the talk's turns fill the first ten
    assert others <= set(spread)
    assert spread[0] == plain[0]  # the best hit of the talk keeps its place


def test_the_words_of_note_taking_tools_find_their_synonyms(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "Help").mkdir(parents=True)
    (vault / "Help" / "Embed files.md").write_text("Show an image or another note inline.\n")
    (vault / "Help" / "Hotkeys.md").write_text("Assign a hotkey to any command.\n")
    (vault / "Help" / "Sync.md").write_text("Keep your vault the same on every device.\n")
    service = service_for(vault)
    assert (
        service.search_unified("put a picture in a page").results[0].path == "Help/Embed files.md"
    )
    assert service.search_unified("keyboard shortcut").results[0].path == "Help/Hotkeys.md"


def _talk(stm: Path, name: str, turns: list[str], *, days_ago: float) -> None:
    """One conversation: a memory per turn, 30 seconds apart."""
    for i, text in enumerate(turns):
        memory_note(stm, f"{name} {i}", text, days_ago=days_ago - i * 30 / 86400)


def test_the_reply_to_a_matching_question_is_found_through_the_question(tmp_path: Path) -> None:
    """The answer follows the question and repeats none of its words."""
    stm = tmp_path / "vault" / "_stm"
    _talk(stm, "Beach", ["Maria: That picture is amazing! How often do you get to see sunsets "
                         "like that?", "John: At least once a week. It helps me unwind.",
                         "Maria: Lucky you!"], days_ago=20)  # fmt: skip
    memory_note(stm, "Lake", "Maria: The sunset over the lake was lovely.", days_ago=40)
    # a question whose next memory was saved two hours later: another episode, no reply
    memory_note(stm, "Ask", "Maria: Do you ever see sunsets at the cabin?", days_ago=60)
    memory_note(stm, "Later", "Sam: The plumber comes on Tuesday.", days_ago=60 - 2 / 24)
    question = "How often does he get to watch a sunset?"
    paths = [h.path for h in service_for(tmp_path / "vault").search(question).results]
    assert paths.index("_stm/Beach 1.md") < paths.index("_stm/Lake.md")
    assert paths.index("_stm/Beach 1.md") <= 1
    # the turn after the reply, and a memory saved hours after a question, are no replies
    assert "_stm/Beach 2.md" not in paths and "_stm/Later.md" not in paths
    assert "_stm/Ask.md" in paths
    off = service_for(tmp_path / "vault", search_reply_weight="0")
    assert "_stm/Beach 1.md" not in [h.path for h in off.search(question).results]


def test_a_reply_to_a_statement_gains_nothing(tmp_path: Path) -> None:
    stm = tmp_path / "vault" / "_stm"
    _talk(stm, "Talk", ["Maria: I saw the sunset at the beach.", "John: Lovely, well done."],
          days_ago=20)  # fmt: skip
    paths = [h.path for h in service_for(tmp_path / "vault").search("sunset beach").results]
    assert paths == ["_stm/Talk 0.md"]


def test_the_memory_said_by_the_person_asked_about_comes_before_what_was_said_to_them(
    tmp_path: Path,
) -> None:
    stm = tmp_path / "vault" / "_stm"
    _talk(stm, "Art", ["Caroline: Melanie, your painting of the lake at sunrise is beautiful!",
                       "Melanie: Thanks! I painted it last week at the lake."],
          days_ago=20)  # fmt: skip
    # other turns of each, so that the names are common words of this conversation
    for i in range(6):
        memory_note(stm, f"Caroline {i}", f"Caroline: Work was busy today ({i}).", days_ago=30 + i)
        memory_note(stm, f"Melanie {i}", f"Melanie: The kids had school today ({i}).",
                    days_ago=50 + i)  # fmt: skip
    question = "What did Melanie paint at the lake?"
    labelled = [h.path for h in service_for(tmp_path / "vault").search(question).results]
    assert labelled[0] == "_stm/Art 1.md"
    plain = service_for(tmp_path / "vault", search_label_weight="0").search(question).results
    assert plain[0].path == "_stm/Art 0.md"  # its words alone put what Caroline said first


@pytest.mark.parametrize(
    ("query", "most", "expected"),
    [
        ("bikes", 2, ["bike"]),
        ("Database DISK", 2, ["databas", "disk"]),
        ("bikes bike", 2, ["bike"]),  # one stem once
        ("bikes pump shelf", 2, None),  # more words than `most`
        ("bikes pump shelf", 3, ["bike", "pump", "shelf"]),
        ("where are the bikes", 5, None),  # filler: a sentence, read in context
        ("bikes and pumps", 5, None),
        ("the", 2, None),  # filler alone
        ("", 2, None),
        ("bikes", 0, None),
    ],
)
def test_keywords_are_a_few_words_none_of_them_filler(
    query: str, most: int, expected: list[str] | None
) -> None:
    assert keywords(query, most) == expected


def test_a_long_pages_words_are_not_drowned_by_the_vector_of_its_opening(tmp_path: Path) -> None:
    """The sentence encoder reads a page's title and first ~100 words: on a long page the
    answer is often further down, where only its words reach. A page whose words answer the
    question clearly better comes before one whose opening is a little nearer in meaning; an
    opening much nearer still comes first. Long memories keep the encoder's larger share."""
    config = load_config({"vault": str(tmp_path)}, env={}, user_file=tmp_path / "none.toml")
    cfg = meaning_config(config, ranking_config(config))
    answers = Relevance(lexical=0.55, vector=0.4, length=1300, page=True)
    near_opening = Relevance(lexical=0.2, vector=0.5, length=1300, page=True)
    assert answers.own(cfg) > near_opening.own(cfg)
    about_it = Relevance(lexical=0.2, vector=0.6, length=1300, page=True)
    assert about_it.own(cfg) > answers.own(cfg)
    as_memories = [replace(r, page=False).own(cfg) for r in (near_opening, answers)]
    assert as_memories[0] > as_memories[1]
    # a short note is read whole, page or memory: the same share for both
    short = Relevance(lexical=0.55, vector=0.4, length=30)
    assert short.own(cfg) == replace(short, page=True).own(cfg)


def test_two_words_a_note_writes_as_one_find_it(tmp_path: Path) -> None:
    """ "spell check" matches the note that says "spellcheck" (one word to the index; "spell"
    is a word of the vault, so no prefix reaches it) by words alone. A note saying both words
    apart still comes first: the compound stands in for one word, at half its weight."""
    vault = tmp_path / "vault"
    (vault / "Help").mkdir(parents=True)
    (vault / "Help" / "Editor.md").write_text("Options of the editor: line width, spellcheck.\n")
    (vault / "Help" / "Magic.md").write_text("A spell book for the wizard of the game.\n")
    (vault / "Help" / "Tasks.md").write_text("Tick the boxes of a task list when done.\n")
    service = service_for(vault, semantic_search="false")
    paths = [h.path for h in service.search_unified("spell check").results]
    assert paths == ["Help/Magic.md", "Help/Editor.md"]
    (vault / "Help" / "Proofing.md").write_text("Spell the words out, then check them again.\n")
    paths = [h.path for h in service.search_unified("spell check").results]
    assert paths[0] == "Help/Proofing.md" and "Help/Editor.md" in paths
    # only neighbours in the query are joined, and a query of the word itself is unchanged
    assert "Help/Editor.md" not in {h.path for h in service.search_unified("check spell").results}
    assert [h.path for h in service.search_unified("spellcheck").results] == ["Help/Editor.md"]
