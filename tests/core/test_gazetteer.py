"""Finding vault names in text: word boundaries, longest first, variants, and false friends."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.gazetteer import Gazetteer, Name, singular, tokenize


def names(*specs: tuple[str, str] | str) -> Gazetteer:
    out = []
    for spec in specs:
        surface, target = (spec, spec) if isinstance(spec, str) else spec
        out.append(Name(surface, target, target, surface == target))
    return Gazetteer(out)


VAULT = names(
    "Project Atlas", ("Atlas", "Project Atlas"), "Ledger Migration", "Homelab",
    "Designing Data-Intensive Applications", ("DDIA", "Designing Data-Intensive Applications"),
    "Priya Raman", ("Priya", "Priya Raman"), "Go", "Rest", "Key", "Home", "Atlas Shrugged",
)  # fmt: skip


def found(text: str, g: Gazetteer = VAULT) -> list[tuple[str, str]]:
    return [(m.text, m.name.target) for m in g.find(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Atlas launches in January", [("Atlas", "Project Atlas")]),
        ("the project atlas launch", [("project atlas", "Project Atlas")]),
        ("I finally read Atlas Shrugged", [("Atlas Shrugged", "Atlas Shrugged")]),  # longest first
        ("work on the ledger-migration", [("ledger-migration", "Ledger Migration")]),
        ("both ledger migrations slipped", [("ledger migrations", "Ledger Migration")]),
        ("my home lab is down", [("home lab", "Homelab")]),
        (
            "reading designing data intensive application",
            [("designing data intensive application", "Designing Data-Intensive Applications")],
        ),
        ("ask Priya's team", [("Priya's", "Priya Raman")]),
        ("the Ledger Migratoin is late", [("Ledger Migratoin", "Ledger Migration")]),  # a typo
        ("atlases and priyanka", []),  # whole words only
        ("Atlas, Priya", [("Atlas", "Project Atlas"), ("Priya", "Priya Raman")]),
        ("Project. Atlas", [("Atlas", "Project Atlas")]),  # a sentence break ends a name
    ],
)
def test_names_are_found_on_word_boundaries_longest_first_with_variants(
    text: str, expected: list
) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Go for a run, then get some rest.",
        "let's go home, the key is to rest",
        "Rest assured, we will go.",
        "Key rotation happens monthly.",  # sentence-initial capital says nothing
        "Home is where the heart is.",
        "GO GO GO",
    ],
)
def test_common_word_titles_do_not_match_ordinary_words(text: str) -> None:
    assert found(text) == []


def test_common_word_titles_match_with_exact_case_mid_sentence() -> None:
    assert found("We rewrote the CLI in Go and the Rest note links it.") == [
        ("Go", "Go"),
        ("Rest", "Rest"),
    ]
    assert found("We wrote it in go.") == []


def test_an_alias_shared_by_two_notes_links_neither() -> None:
    g = Gazetteer(
        [Name("Standup", "Standup", "Work/Standup"), Name("Standup", "Standup", "Home/Standup")]
    )
    assert g.find("the standup moved") == []
    one = Gazetteer(
        [Name("Atlas", "Project Atlas", "Project Atlas", False), Name("Atlas", "Atlas", "Atlas")]
    )
    assert [m.name.target for m in one.find("Atlas again")] == ["Atlas"]  # a title beats an alias


def test_sentence_starts_are_marked() -> None:
    toks = tokenize("This is Node.js. Then: Go! (Rest) and CI/CD")
    assert [t.text for t in toks if t.initial] == ["This", "Then", "Go", "Rest"]


def test_singular_is_consistent_for_names_and_text() -> None:
    assert singular("applications") == singular("application") == "application"
    assert (
        singular("policies") == "policy"
        and singular("class") == "class"
        and singular("bus") == "bus"
    )
