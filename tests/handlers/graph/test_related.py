"""related_to_note: what else the vault holds about the note a person has open."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument, NotFound, UnsafePath
from tests.builders import service_for


def write(vault: Path, rel: str, text: str) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_memory_finds_the_note_on_its_topic_first_and_never_itself(sample_vault: Path) -> None:
    s = service_for(sample_vault)
    result = s.related_to_note("_stm/Half marathon goal.md", limit=5)
    paths = [hit.path for hit in result.results]
    assert paths[0] == "Areas/Running.md"
    assert "_stm/Half marathon goal.md" not in paths
    assert result.count == len(result.results) == 5
    assert result.results[0].source == "note" and result.results[0].id is None
    scores = [hit.score for hit in result.results]
    assert scores == sorted(scores, reverse=True)


def test_a_note_finds_memories_and_notes_in_the_search_result_shape(sample_vault: Path) -> None:
    s = service_for(sample_vault)
    result = s.related_to_note("Projects/Project Atlas.md", limit=20)
    by_path = {hit.path: hit for hit in result.results}
    assert "Projects/Project Atlas.md" not in by_path
    # linked from it, and about the same event log and read models
    assert {
        "Projects/Ledger Migration.md",
        "Reading/Designing Data-Intensive Applications.md",
    } <= set(by_path)
    memories = [hit for hit in result.results if hit.id]
    assert memories and all(hit.source in {"stm", "ltm"} and hit.status for hit in memories)
    assert all(hit.similarity > 0 for hit in result.results)  # by words or by meaning
    assert any(hit.matched for hit in result.results)
    searched = s.search_unified("atlas", limit=1).results[0]
    assert set(result.results[0].model_dump()) == set(searched.model_dump())


def test_the_topic_decides_not_the_small_words(sample_vault: Path) -> None:
    write(
        sample_vault,
        "Crafts/Kiln.md",
        "She can fire all of it over again: the kiln firing schedule for stoneware glaze.\n",
    )
    write(sample_vault, "Crafts/Words.md", "She can do all of it over and over again, she said.\n")
    write(sample_vault, "Crafts/Glaze.md", "Stoneware glaze tests after the second kiln firing.\n")
    paths = [h.path for h in service_for(sample_vault).related_to_note("Crafts/Kiln.md").results]
    assert paths[0] == "Crafts/Glaze.md"
    assert "Crafts/Kiln.md" not in paths


def test_two_notes_that_share_rare_words_find_each_other(sample_vault: Path) -> None:
    write(sample_vault, "Garden/Quince.md", "# Quince tree\n\nPruned the quince; espalier wires.\n")
    write(
        sample_vault,
        "_stm/Espalier quince.md",
        "---\ntags: [garden]\n---\nEspalier the quince along the south wall.\n",
    )
    s = service_for(sample_vault)
    assert s.related_to_note("Garden/Quince.md").results[0].path == "_stm/Espalier quince.md"
    back = s.related_to_note("_stm/Espalier quince.md").results[0]
    assert back.path == "Garden/Quince.md"


def test_a_note_sharing_no_word_with_another_has_nothing_related(sample_vault: Path) -> None:
    write(sample_vault, "Lonely.md", "Zyzzyva quokka.\n")
    write(sample_vault, "Empty.md", "")
    s = service_for(sample_vault)
    for rel in ("Lonely.md", "Empty.md"):
        result = s.related_to_note(rel)
        assert result.count == 0 and result.results == []


def test_a_long_note_still_answers_with_what_it_shares(sample_vault: Path) -> None:
    shared = [f"word{i}x" for i in range(3000)]
    write(sample_vault, "Big.md", "# Big\n\n" + " ".join(shared) + "\n")
    write(sample_vault, "Small.md", " ".join(shared[:40]) + "\n")
    result = service_for(sample_vault).related_to_note("Big.md", limit=3)
    assert [hit.path for hit in result.results] == ["Small.md"]


def test_limit_and_paths_are_checked_and_named(sample_vault: Path) -> None:
    s = service_for(sample_vault)
    assert len(s.related_to_note("Projects/Project Atlas.md", limit=1).results) == 1
    for bad in (0, 51):
        with pytest.raises(InvalidArgument, match="limit: must be from 1 to 50"):
            s.related_to_note("Projects/Project Atlas.md", limit=bad)
    with pytest.raises(NotFound, match=r"Projects/Nothing here\.md: no such Markdown note"):
        s.related_to_note("Projects/Nothing here.md")
    with pytest.raises(NotFound, match=r"atlas-architecture\.png"):
        s.related_to_note("Projects/assets/atlas-architecture.png")
    with pytest.raises(UnsafePath, match="would leave the vault"):
        s.related_to_note("../outside.md")


def test_reading_related_notes_changes_no_file(sample_vault: Path) -> None:
    before = {p: p.read_bytes() for p in sample_vault.rglob("*") if p.is_file()}
    service_for(sample_vault).related_to_note("_stm/Half marathon goal.md")
    after = {p: p.read_bytes() for p in sample_vault.rglob("*") if p.is_file()}
    assert after == before
