"""A newer memory replaces the one it corrects: recorded in both notes (and only those lines),
answered first by search, never promoted when replaced, archived by gc, undone by hand."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument, NotFound
from cortexgraph_vault.service import MemoryService
from tests.builders import frontmatter_of, memory_text, service_for
from tests.conftest import NOW, git

PARIS = "I live in Paris, near the Canal Saint-Martin."
BERLIN = "We moved to Berlin last month; the new flat is in Kreuzberg."
QUESTION = "which city does the user live in"


def at(vault: Path, days: float) -> MemoryService:
    return service_for(vault, NOW + timedelta(days=days))


def title(vault: Path, memory_id: str) -> str:
    return at(vault, 0).open([memory_id]).memories[0].title


def paris_used_then_berlin(vault: Path) -> tuple[str, str]:
    paris = at(vault, 0).save(PARIS).memory_id
    for day in (3, 8, 15):
        at(vault, day).touch(paris)
    berlin = at(vault, 40).save(BERLIN, supersedes=[paris])
    assert berlin.superseded == [paris]
    return paris, berlin.memory_id


def changed_lines(vault: Path, path: str, commit: str) -> list[str]:
    diff = git(vault, "show", "--format=", "-U0", commit, "--", path)
    return [ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]


def test_both_notes_say_it_and_only_those_lines_change(vault: Path) -> None:
    s = at(vault, 0)
    paris = s.save(PARIS)
    # recorded by the call below, not noticed by the save (tests/handlers/writes/test_replacements.py)
    later = service_for(vault, NOW + timedelta(days=30), auto_supersede="false")
    berlin = later.save(BERLIN)
    result = later.supersede(berlin.memory_id, [paris.memory_id])
    assert [m.title for m in result.superseded] == [paris.title]
    new, old = frontmatter_of(vault / berlin.path), frontmatter_of(vault / paris.path)
    assert new["supersedes"] == [f"[[{paris.title}]]"]
    assert old["superseded_by"] == [f"[[{berlin.title}]]"]
    assert old["valid_until"] == NOW + timedelta(days=30)
    # one commit holds both notes; the old note gained exactly two lines
    committed = git(vault, "show", "--name-only", "--format=", result.commit or "").splitlines()
    assert set(committed) == {paris.path, berlin.path}
    until = (NOW + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert changed_lines(vault, paris.path, result.commit or "") == [
        f'+superseded_by: ["[[{berlin.title}]]"]', f"+valid_until: {until}",
    ]  # fmt: skip
    assert (vault / paris.path).read_text().endswith(PARIS + "\n"), "the text is untouched"


def test_the_correction_takes_over_the_standing_of_the_error(vault: Path) -> None:
    paris, berlin = paris_used_then_berlin(vault)
    shown = {m.id: m for m in at(vault, 40).open([paris, berlin]).memories}
    assert shown[paris].use_count == 4 and shown[paris].use_days == 4
    assert shown[berlin].use_count == 5 and shown[berlin].use_days == 4


def test_recording_it_twice_counts_the_standing_once(vault: Path) -> None:
    paris, berlin = paris_used_then_berlin(vault)
    again = at(vault, 41).relate(berlin, paris, "supersedes")
    assert again.created is False and again.relation.relation_type == "supersedes"
    assert at(vault, 41).open([berlin]).memories[0].use_count == 5


def test_search_answers_with_the_current_fact_even_in_the_old_facts_words(vault: Path) -> None:
    paris, berlin = paris_used_then_berlin(vault)
    s = at(vault, 60)
    found = s.search(QUESTION, top_k=5).results
    assert [h.id for h in found] == [berlin]
    assert found[0].supersedes == [title(vault, paris)]
    unified = s.search_unified(QUESTION, limit=5).results
    assert [h.id for h in unified if h.id in (paris, berlin)] == [berlin]


@pytest.mark.parametrize("history", [{"status": "all"}, {"status": ["active", "archived"]}])
def test_asking_for_history_finds_the_old_fact_below_and_marked(
    vault: Path, history: dict[str, object]
) -> None:
    paris, berlin = paris_used_then_berlin(vault)
    found = at(vault, 60).search(QUESTION, top_k=5, **history).results  # type: ignore[arg-type]
    ids = [h.id for h in found]
    assert ids.index(berlin) < ids.index(paris)
    old = found[ids.index(paris)]
    assert old.superseded_by == [title(vault, berlin)]
    assert old.valid_until == (NOW + timedelta(days=40)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_replaced_memory_is_never_promoted_and_gc_archives_it(vault: Path) -> None:
    paris, berlin = paris_used_then_berlin(vault)
    s = at(vault, 41)
    promoted = s.promote(auto_detect=True, dry_run=False)
    assert paris not in promoted.promoted_ids
    with pytest.raises(InvalidArgument, match="superseded"):
        s.promote(paris)
    gc = s.gc(dry_run=False)
    assert gc.archived_count == 1 and gc.removed_count == 0
    assert [c.superseded_by for c in gc.candidates] == [[title(vault, berlin)]]
    archived = s.open([paris]).memories[0]
    assert archived.status == "archived" and archived.path.startswith("_archive/")
    assert berlin not in gc.memory_ids
    # still found when history is asked for, from the archive, below Berlin
    found = at(vault, 60).search(QUESTION, status="all", top_k=5).results
    assert [h.id for h in found][:2] == [berlin, paris]


def test_a_promoted_error_hands_its_place_to_its_correction(vault: Path) -> None:
    paris = at(vault, 0).save(PARIS).memory_id
    at(vault, 2).touch(paris)
    at(vault, 2.5).promote(paris, dry_run=False)
    berlin = at(vault, 40).save(BERLIN, supersedes=[paris])
    assert berlin.path.startswith("memories/")
    assert frontmatter_of(vault / berlin.path)["status"] == "promoted"
    # one commit: the save, its move into memories/ and the old note's new lines
    assert git(vault, "status", "--porcelain") == ""
    assert "replaces" in git(vault, "log", "-1", "--format=%s")


def test_a_bad_id_changes_nothing(vault: Path) -> None:
    paris = at(vault, 0).save(PARIS)
    before = sorted(p.name for p in (vault / "_stm").iterdir())
    with pytest.raises(NotFound):
        at(vault, 1).save(BERLIN, supersedes=["no-such-memory"])
    assert sorted(p.name for p in (vault / "_stm").iterdir()) == before
    with pytest.raises(InvalidArgument, match="itself"):
        at(vault, 1).supersede(paris.memory_id, [paris.memory_id])


def test_a_memory_cannot_supersede_what_replaced_it(vault: Path) -> None:
    paris, berlin = paris_used_then_berlin(vault)
    with pytest.raises(InvalidArgument, match="replaced by"):
        at(vault, 41).relate(paris, berlin, "supersedes")


def test_removing_the_property_by_hand_undoes_it(vault: Path) -> None:
    paris, _ = paris_used_then_berlin(vault)
    path = vault / next(p for p in (vault / "_stm").iterdir() if "Paris" in p.name).relative_to(
        vault
    )
    text = path.read_text()
    path.write_text(
        "\n".join(ln for ln in text.splitlines() if not ln.startswith("superseded_by")) + "\n"
    )
    found = at(vault, 60).search(QUESTION, top_k=5).results
    assert paris in [h.id for h in found]
    assert all(not h.superseded_by for h in found)


def test_update_can_record_a_supersession(vault: Path) -> None:
    paris = at(vault, 0).save(PARIS).memory_id
    berlin = at(vault, 1).save("The flat in Kreuzberg has a balcony.").memory_id
    result = at(vault, 2).update(berlin, supersedes=[paris])
    assert result.changed == ["supersedes"] and result.superseded == [paris]
    assert at(vault, 2).open([paris]).memories[0].relations is not None


def test_a_string_of_links_written_by_hand_is_read_whole(vault: Path) -> None:
    (vault / "_stm" / "Old job.md").write_text(
        memory_text("old-job", "I work at Acme.\n", superseded_by="[[I work at Globex now]]")
    )
    (vault / "_stm" / "I work at Globex now.md").write_text(
        memory_text("new-job", "I work at Globex now.\n")
    )
    found = service_for(vault).search("work", top_k=5, status="all").results
    old = next(h for h in found if h.id == "old-job")
    assert old.superseded_by == ["I work at Globex now"]
    assert [h.id for h in found][:2] == ["new-job", "old-job"]
