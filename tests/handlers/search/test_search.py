"""search_unified and search_memory over the live index: what a caller sees."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from pydantic_core import to_json

from cortexgraph_vault import engine as engine_module
from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.ranking import prior
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.models import SearchHit
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text, write_note
from tests.conftest import NOW, NOW_ISO


def service_for(vault: Path, **settings: str) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO, **settings}))


def memory_note(folder: Path, name: str, body: str, *, days_ago: float, uses: int = 1,
                status: str = "active") -> None:  # fmt: skip
    text = memory_text(f"id-{name}", f"{body}\n", created=NOW - timedelta(days=days_ago),
                       use_count=uses, status=status)  # fmt: skip
    write_note(folder, f"{name}.md", text)


def test_results_say_where_they_live_and_what_matched(sample_vault: Path) -> None:
    result = service_for(sample_vault).search_unified("atlas launch", limit=20)
    by_path = {h.path: h for h in result.results}
    stm = by_path["_stm/Atlas launch date.md"]
    assert stm.source == "stm" and stm.id and stm.status == "active"
    assert set(stm.matched) >= {"title", "content"} and stm.memory_score is not None
    note = by_path["Projects/Project Atlas.md"]
    assert note.source == "note" and note.id is None and note.status is None
    assert note.matched and "content" in note.matched
    assert note.last_used is not None and note.score > 0
    assert result.results[0].path == "_stm/Atlas launch date.md"
    ltm = service_for(sample_vault).search_unified("kestrel labs").results
    assert any(h.source == "ltm" and h.path.startswith("memories/") for h in ltm)


def test_a_query_that_matches_nothing_returns_nothing(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    assert service.search_unified("zebra quantum xylophone").results == []
    assert service.search_unified("zebra quantum xylophone", page=1).pagination.total_count == 0  # type: ignore[union-attr]
    assert service.search("zebra quantum xylophone").results == []


def test_weights_decide_between_memories_and_notes(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    notes_first = service.search_unified(
        "atlas", stm_weight=0.0, ltm_weight=2.0, limit=5, include_review_candidates=False
    )
    assert {h.source for h in notes_first.results} <= {"note", "ltm"}
    memories_first = service.search_unified(
        "atlas", stm_weight=2.0, ltm_weight=0.0, limit=10, include_review_candidates=False
    ).results
    sources = [h.source for h in memories_first]
    assert sources[:2] == ["stm", "stm"] and set(sources[2:]) == {"note"}
    assert all(h.score == 0 for h in memories_first[2:])  # still found, weighted to nothing


def test_filters_status_tags_folder_window_and_min_score(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    only_notes = service.search_unified("atlas", status="note", limit=50).results
    assert only_notes and all(h.source == "note" for h in only_notes)
    tagged = service.search_unified("atlas", tags=["project"], limit=50).results
    assert tagged and all(any(t.split("/")[0] == "project" for t in h.tags) for h in tagged)
    assert "Projects/Project Atlas.md" in {h.path for h in tagged}  # #project/atlas inline
    folder = service.search_unified("atlas", folder="Daily/", limit=50).results
    assert folder and all(h.path.startswith("Daily/") for h in folder)
    recent = service.search_unified("atlas", window_days=1, status="active", limit=50).results
    assert all(h.last_used and h.last_used >= format_time(NOW - timedelta(days=1)) for h in recent)
    strong = service.search_unified("atlas", min_score=0.4, limit=50).results
    assert strong and all(h.score >= 0.4 for h in strong)
    with pytest.raises(InvalidArgument, match="status"):
        service.search_unified("atlas", status="deleted")
    for bad in ({"limit": 0}, {"stm_weight": 3.0}, {"min_score": 2.0}, {"window_days": 0}):
        with pytest.raises(InvalidArgument):
            service.search_unified("atlas", **bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="query"):
        service.search_unified("   ")


def test_archived_memories_only_when_asked(sample_vault: Path) -> None:
    memory_note(sample_vault / "_archive", "Old kayak", "Sold the kayak in spring.",
                days_ago=40, status="archived")  # fmt: skip
    service = service_for(sample_vault)
    assert service.search_unified("kayak").results == []
    found = service.search_unified("kayak", status="all").results
    assert [(h.path, h.source) for h in found] == [("_archive/Old kayak.md", "archive")]


def test_an_old_relevant_memory_is_found_among_thousands_of_newer_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (not a "big vault" here: no frozen heap or background cache write in the test process)
    monkeypatch.setattr(engine_module, "BIG_VAULT_NOTES", 10**9)
    vault = tmp_path / "vault"
    stm = vault / "_stm"
    memory_note(stm, "Burr grinder", "Bought a conical burr grinder for the coffee.",
                days_ago=300)  # fmt: skip
    for i in range(2000):
        memory_note(stm, f"Coffee {i}", f"Had coffee number {i} at the office.", days_ago=i / 500)
    service = service_for(vault)
    hits = service.search_unified("burr grinder").results
    assert [h.path for h in hits] == ["_stm/Burr grinder.md"]
    assert hits[0].memory_score is not None and hits[0].memory_score < 0.05
    assert [h.path for h in service.search("grinder").results] == ["_stm/Burr grinder.md"]
    many = service.search_unified("coffee", page=1, page_size=100)
    assert many.pagination is not None and many.pagination.total_count == 2001


def test_review_candidates_are_blended_in_without_dropping_results(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    stm = vault / "_stm"
    # fresh memories score about 1; a week-old one sits in the danger zone (0.15-0.35)
    for i in range(12):
        memory_note(stm, f"Fresh {i}", f"Espresso note {i}", days_ago=0.01 * i)
    for i in range(4):
        memory_note(stm, f"Fading {i}", f"Espresso memory fading {i}", days_ago=8 + i)
    service = service_for(vault)
    seen: list[str] = []
    for page in range(1, 5):
        result = service.search_unified("espresso", page=page, page_size=5)
        assert result.pagination is not None and result.pagination.total_count == 16
        assert result.count == len(result.results) == (5 if page < 4 else 1)
        seen += [h.path for h in result.results]
    assert sorted(seen) == sorted(f"_stm/{n}.md" for n in
                                  [*(f"Fresh {i}" for i in range(12)), *(f"Fading {i}" for i in range(4))])  # fmt: skip
    first = service.search_unified("espresso", limit=10).results
    assert len(first) == 10
    flagged = [i for i, h in enumerate(first) if h.review_candidate]
    assert flagged == [2, 5, 8]  # every third place, as review_blend_ratio 0.3 says
    assert all(first[i].path.startswith("_stm/Fading") for i in flagged)
    assert all(0.15 <= (first[i].memory_score or 0) <= 0.35 for i in flagged)
    plain = service.search_unified("espresso", limit=10, include_review_candidates=False)
    assert not any(h.review_candidate for h in plain.results)
    assert [h.path for h in plain.results][:5] == [h.path for h in first if not h.review_candidate][
        :5
    ]
    assert len(service.search_unified("espresso", limit=100).results) == 16


def test_preview_length(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    short = service.search_unified("atlas", preview_length=20).results
    assert short and all(len(h.content) <= 21 for h in short)
    full = service.search_unified("atlas", preview_length=0, limit=1).results[0]
    assert len(full.content) > 20


def test_hits_are_what_validating_their_fields_makes(tmp_path: Path) -> None:
    """Memories' hits are made without validation: each field already holds what validation
    gives, a review candidate's and an explained one's too."""
    vault = tmp_path / "vault"
    for i in range(6):
        memory_note(vault / "_stm", f"Fresh {i}", f"Espresso note {i}", days_ago=0.01 * i,
                    uses=1 + i)  # fmt: skip
    memory_note(vault / "_stm", "Fading", "Espresso memory fading", days_ago=8)
    write_note(vault, "Espresso.md", "# Espresso\n\nA plain note on espresso.\n")
    service = service_for(vault)
    for explain in (False, True):
        hits = service.search_unified("espresso", limit=10, explain=explain).results
        assert any(h.review_candidate for h in hits) and any(h.source == "note" for h in hits)
        for h in hits:
            checked = SearchHit.model_validate(h.model_dump(exclude_unset=True))
            assert h == checked and h.model_fields_set == checked.model_fields_set
            assert to_json(h) == to_json(checked)


def test_a_note_hit_says_the_created_time_of_its_version(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write_note(
        vault, "Kiln.md", "---\ncreated: 2026-01-02T03:04:05Z\n---\nThe kiln fires at dawn.\n"
    )
    service = service_for(vault)
    first = service.search_unified("kiln").results[0]
    assert first.created_at == "2026-01-02T03:04:05Z"
    assert service.search_unified("kiln").results[0].created_at == "2026-01-02T03:04:05Z"
    write_note(vault, "Kiln.md", "---\ncreated: 2025-05-06T07:08:09Z\n---\nThe kiln fires late.\n")
    assert service.search_unified("kiln").results[0].created_at == "2025-05-06T07:08:09Z"


def test_search_memory_runs_on_the_index(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    hits = service.search("atlas", top_k=20).results
    assert hits and all(h.source in ("stm", "ltm") for h in hits)  # no ordinary notes
    # cue-first: relevance × a prior in [0.9, 1] from the memory score
    assert all(h.score == pytest.approx(h.similarity * prior(h.memory_score or 0, 0.9), abs=2e-6)
               for h in hits if not h.review_candidate)  # fmt: skip
    everything = service.search(top_k=100, include_review_candidates=False).results
    assert len(everything) == 24  # no query: every active and promoted memory, best first
    assert [h.score for h in everything] == sorted((h.score for h in everything), reverse=True)
    assert service.search(status="promoted", top_k=100).results
    assert all(h.status == "promoted" for h in service.search(status="promoted").results)
    with pytest.raises(InvalidArgument):
        service.search("atlas", status="note")


def test_a_question_about_now_prefers_the_newer_of_two_alike(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "v", {
        "_stm/Gym a.md": memory_text("gym-old", "My gym is the Fitbox on Main Street.\n",
                                     created=NOW - timedelta(days=120), use_count=1),
        "_stm/Gym b.md": memory_text("gym-new", "My gym is the Fitbox on Main Street.\n",
                                     created=NOW - timedelta(days=10), use_count=1),
    })  # fmt: skip
    s = service_for(vault)
    assert [h.id for h in s.search("which gym do I go to now", top_k=2).results] == [
        "gym-new", "gym-old"
    ]  # fmt: skip


def test_a_question_naming_a_time_prefers_what_was_saved_then(tmp_path: Path) -> None:
    from tests.builders import a_vault, memory_text

    def note(mid: str, days: float, uses: int) -> str:
        return memory_text(mid, "We chose Postgres for the billing service.\n", use_count=uses,
                           created=NOW - timedelta(days=days), last_used=NOW - timedelta(days=1))  # fmt: skip

    vault = a_vault(
        tmp_path / "v", {"_stm/A.md": note("recent", 2, 3), "_stm/B.md": note("then", 14, 1)}
    )
    s = service_for(vault)
    ids = [h.id for h in s.search("what did we choose for billing two weeks ago", top_k=2).results]
    assert ids == ["then", "recent"]
    ids = [
        h.id for h in s.search("what did we choose for billing in the past 3 days", top_k=2).results
    ]
    assert ids == ["recent", "then"]
