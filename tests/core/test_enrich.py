"""Auto-enrichment from text alone: entities, strength, tags (the vault-backed save is elsewhere)."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.enrich import MAX_ENTITIES, enrich, extract_entities, importance
from cortexgraph_vault.core.gazetteer import Gazetteer, Name

VAULT = Gazetteer(
    [
        Name("Project Atlas", "Project Atlas", "Project Atlas"),
        Name("Atlas", "Project Atlas", "Project Atlas", is_title=False),
        Name("Priya Raman", "Priya Raman", "People/Priya Raman"),
        Name("Priya", "Priya Raman", "People/Priya Raman", is_title=False),
        Name("Go", "Go", "Go"),
    ]
)


def names(text: str, vault: Gazetteer | None = VAULT) -> list[str]:
    return [e.name for e in extract_entities(text, vault)]


def test_vault_names_then_terms_then_capitalised_phrases() -> None:
    entities = extract_entities(
        "Priya moved the Atlas read models to Postgres after talking to Jonas Berg.", VAULT
    )
    assert {(e.name, e.source, e.link) for e in entities} == {
        ("Priya Raman", "vault", "People/Priya Raman"),
        ("Project Atlas", "vault", "Project Atlas"),
        ("Postgres", "term", None),
        ("Jonas Berg", "name", None),
    }
    # CortexGraph's order: longer (more specific) first.
    assert [e.name for e in entities] == ["Project Atlas", "Priya Raman", "Jonas Berg", "Postgres"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("This is what I prefer.", []),
        ("Remember that the key is in the drawer.", []),
        ("What did I say about databases?", []),
        ("Go for a run and rest.", []),
        ("Maya drinks oat milk in her coffee.", ["Maya"]),
        ("Remember Jonas is on leave until May.", ["Jonas"]),
        ("I'm reading Ursula K. Le Guin and I love it.", ["Ursula K. Le Guin"]),
        ("We use C++ and C# with Kafka.", ["Kafka", "C++", "C#"]),
        ("CRITICAL: NEVER RUN MIGRATIONS AGAINST PROD", []),  # shouting is not a list of names
        ("Tomorrow the Berlin office opens.", ["Berlin"]),
    ],
)
def test_sentence_starters_and_common_words_are_not_entities(
    text: str, expected: list[str]
) -> None:
    assert names(text) == expected


def test_entities_are_capped_and_the_vaults_own_names_survive_the_cap() -> None:
    text = "Atlas: " + ", ".join(f"Zed{n} Qux{n}" for n in range(15))
    got = extract_entities(text, VAULT)
    assert len(got) == MAX_ENTITIES
    assert "Project Atlas" in [e.name for e in got]


@pytest.mark.parametrize(
    ("text", "strength"),
    [
        ("Maya drinks oat milk in her coffee.", 1.0),
        (
            "Jonas, Priya, Elin and Tomas ran the Atlas load test on Kafka.",
            1.0,
        ),  # many names, plain
        ("Important: all customer data must stay in the EU region.", 1.3),
        ("Remember that standup moved to 10:15. It's important.", 1.6),
        ("Never forget that I'm allergic to peanuts.", 2.0),
        ("Critical: never run migrations against prod without a backup.", 2.0),
    ],
)
def test_strength_comes_from_importance_markers(text: str, strength: float) -> None:
    assert importance(text, len(names(text))).strength == strength


def test_long_detailed_memories_earn_a_little_more() -> None:
    text = ("Postgres read models for Atlas are owned by Priya Raman and Jonas Berg. " * 5).strip()
    assert len(text) >= 300
    assert importance(text, 4).strength == 1.2
    assert importance(text[:290], 4).strength == 1.0


def test_tags_come_from_the_vaults_tags_and_technical_terms() -> None:
    result = enrich(
        "Moving the Atlas databases to Postgres, and I keep running at lunch.",
        VAULT,
        ["databases", "project/atlas", "running", "travel", "person"],
    )
    assert result.tags[:3] == ("databases", "project/atlas", "running")
    assert "postgres" in result.tags
    assert "travel" not in result.tags and "person" not in result.tags
    assert result.links == ["[[Project Atlas]]"]


def test_a_possessive_is_not_part_of_a_name() -> None:
    assert names("Tomas's bike was stolen.", None) == ["Tomas"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A sentence's first word that is an ordinary word is no name (issue 19).
        ("Favourite tea is genmaicha.", []),
        ("Favorite color is blue.", []),
        ("Colour scheme in the editor is dark.", []),
        ("Usual order: oat flat white.", []),
        ("Sister lives in Lisbon.", ["Lisbon"]),
        ("Loves jazz; hates cilantro.", []),
        ("Vegetarian since 2019.", []),
        ("Kids are called Tom and Ana.", ["Tom", "Ana"]),
        # Short technical terms typed in lower case are how people type, not names.
        ("Maya uses git every day.", ["Maya"]),
        ("We deploy on aws with python.", ["Python"]),
        # Spelled as names, they are entities.
        ("Maya uses Git every day.", ["Maya", "Git"]),
        ("Maya's favourite editor is Neovim.", ["Neovim", "Maya"]),
        ("Maya prefers oat milk.", ["Maya"]),
    ],
)
def test_sentence_starters_and_lowercase_short_terms_are_not_entities(
    text: str, expected: list[str]
) -> None:
    assert names(text, None) == expected


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Title: Q3 plan. Jonas agrees.", ["Jonas", "Q3"]),
        ("Title of the book is Dune.", ["Dune"]),
        ("The Title says it all.", []),
        ("Status: done. Priya signs off.", ["Priya"]),
        ("Lena: she starts at the clinic on Monday.", ["Lena"]),  # a speaker, not a field
        ("I work at Apple in Cupertino.", ["Cupertino", "Apple"]),
    ],
)
def test_field_names_sentence_starts_and_common_nouns_are_no_entities(
    text: str, names: list[str]
) -> None:
    assert [e.name for e in extract_entities(text)] == names
