"""Saving a memory enriches it from the vault: entities, strength, and links into the graph."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.core.note import parse_note
from tests.intelligence.vaults import service_for, write_notes


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_notes(tmp_path / "vault")


def saved_fields(vault: Path, path: str) -> dict:
    return parse_note((vault / path).read_text("utf-8")).frontmatter


@pytest.mark.parametrize(
    ("content", "entities", "links"),
    [
        ("Priya's load test for Project Atlas passed on Tuesday.",
         {"Project Atlas", "Priya Raman"}, {"[[Project Atlas]]", "[[Priya Raman]]"}),
        ("This week the atlas launch slipped again.", {"Project Atlas"}, {"[[Project Atlas]]"}),
        ("Go ahead and read designing data intensive application before the ledger-migrations start.",
         {"Designing Data-Intensive Applications", "Ledger Migration"},
         {"[[Designing Data-Intensive Applications]]", "[[Ledger Migration]]"}),
        ("I rewrote the importer in Go and put a REST API in front of my home lab.",
         {"Go", "REST", "Homelab", "API"}, {"[[Go]]", "[[Homelab]]"}),
        ("Remember to go for a run, get some rest, and the key is sleep.", set(), set()),
        ("What did I say about databases? This matters.", set(), set()),
        ("Key rotation happens monthly, and the Rest note says Mondays are off.", {"Rest"}, {"[[Rest]]"}),
        ("The standup moved to 10:15.", set(), set()),  # two notes titled Standup: no guess
        ("Reread DDIA chapter 5 about replication.", {"Designing Data-Intensive Applications"},
         {"[[Designing Data-Intensive Applications]]"}),
    ],
)  # fmt: skip
def test_entities_and_related_links_come_from_vault_titles_and_aliases(
    vault: Path, content: str, entities: set[str], links: set[str]
) -> None:
    result = service_for(vault).save(content)
    assert result.enrichment_applied
    assert set(result.auto_entities) == entities
    fields = saved_fields(vault, result.path)
    assert set(fields["entities"]) == entities
    assert set(fields.get("related", [])) == links
    for link in links:  # each link resolves to a real note
        target = link.strip("[]")
        assert list(vault.rglob(f"{target.rsplit('/', 1)[-1]}.md")), link


def test_a_plain_sentence_keeps_strength_one_and_importance_raises_it(vault: Path) -> None:
    service = service_for(vault)
    plain = service.save("Maya drinks oat milk in her coffee.")
    assert plain.calculated_strength == 1.0 and saved_fields(vault, plain.path)["strength"] == 1.0
    critical = service.save("Never forget that I'm allergic to peanuts.")
    assert critical.calculated_strength == 2.0
    assert saved_fields(vault, critical.path)["strength"] == 2.0
    assert critical.score > plain.score


def test_explicit_entities_and_strength_always_win(vault: Path) -> None:
    service = service_for(vault)
    result = service.save(
        "Critical: Project Atlas ships Friday.", entities=["Shipping"], strength=1.2
    )
    assert not result.enrichment_applied and result.auto_entities == []
    fields = saved_fields(vault, result.path)
    assert fields["entities"] == ["Shipping"] and fields["strength"] == 1.2
    assert "related" not in fields
    only_strength = service.save("Project Atlas ships Friday, never forget.", strength=1.1)
    fields = saved_fields(vault, only_strength.path)
    assert fields["strength"] == 1.1 and fields["entities"] == ["Project Atlas"]
    assert fields["related"] == ["[[Project Atlas]]"]


def test_a_new_note_is_a_name_for_the_next_save(vault: Path) -> None:
    service = service_for(vault)
    assert service.save("Kestrel Quarterly planning starts soon.").auto_entities == [
        "Kestrel Quarterly"
    ]
    (vault / "Kestrel Quarterly Plan.md").write_text("---\naliases: [KQP]\n---\nPlan.\n", "utf-8")
    result = service.save("The KQP draft is due.")
    assert result.auto_entities == ["Kestrel Quarterly Plan"]
    assert saved_fields(vault, result.path)["related"] == ["[[Kestrel Quarterly Plan]]"]
