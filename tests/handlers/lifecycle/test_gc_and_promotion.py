"""Promotion is earned by use spread over days (README, Scoring): uses on the save's day and
restores never promote; the preview lists exactly what the real run promotes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.builders import frontmatter_of
from tests.conftest import NOW

HOUR = timedelta(hours=1)


def service_at(vault: Path, hours: float = 0, **settings: object) -> MemoryService:
    at = NOW + hours * HOUR
    return MemoryService(load_config({"vault": str(vault), **settings}), clock=lambda: at)


def candidates(s: MemoryService) -> list[str]:
    return [c.id or "" for c in s.promote(auto_detect=True, dry_run=True).candidates]


def test_five_touches_in_one_afternoon_do_not_promote(git_vault: Path) -> None:
    saved = service_at(git_vault).save("Maya's sister lives in Lisbon.")
    for hour in range(1, 6):
        service_at(git_vault, hour).touch(saved.id)
    s = service_at(git_vault, 6)
    assert saved.id not in candidates(s)
    detail = s.open([saved.id]).memories[0]
    assert detail.use_count == 6


def test_uses_on_three_days_are_counted_and_written_only_when_needed(git_vault: Path) -> None:
    saved = service_at(git_vault).save("The team standup moved to Tuesdays.")
    service_at(git_vault, 2).touch(saved.id)
    service_at(git_vault, 30).touch(saved.id)  # day 1 of its life
    # Two days of use follow from created/last_used/use_count: no new line in the note.
    assert "use_days" not in frontmatter_of(git_vault / saved.path)
    assert saved.id in candidates(service_at(git_vault, 31))
    service_at(git_vault, 50).touch(saved.id)  # day 2
    assert frontmatter_of(git_vault / saved.path)["use_days"] == 3
    assert service_at(git_vault, 51).open([saved.id]).memories[0].use_days == 3


def test_the_number_of_days_is_a_setting(git_vault: Path) -> None:
    saved = service_at(git_vault).save("Maya runs on Saturdays.")
    service_at(git_vault, 30).touch(saved.id)
    assert saved.id in candidates(service_at(git_vault, 31))
    assert saved.id not in candidates(service_at(git_vault, 31, promote_use_days=3))


def test_a_restore_after_gc_is_not_a_use_toward_promotion(git_vault: Path) -> None:
    saved = service_at(git_vault).save("Maya once owned a red bicycle.")
    service_at(git_vault, 1).touch(saved.id)
    much_later = 24 * 200
    gone = service_at(git_vault, much_later).gc(dry_run=False)
    assert saved.id in gone.memory_ids
    s = service_at(git_vault, much_later + 1)
    s.restore(saved.id)
    restored = s.open([saved.id]).memories[0]
    assert restored.use_count == 2  # the restore did not add a use
    assert saved.id not in candidates(s)
    assert frontmatter_of(git_vault / restored.path)["use_days"] == 1


def test_the_preview_lists_exactly_what_the_real_run_promotes(git_vault: Path) -> None:
    ids = []
    for text in ("Maya drinks oat milk.", "Maya's cat is called Miso.", "Maya bikes to work."):
        ids.append(service_at(git_vault).save(text).id)
    service_at(git_vault, 1).touch(ids[0])  # same day: not earned
    service_at(git_vault, 30).touch(ids[1])  # next day: earned
    s = service_at(git_vault, 31)
    preview = s.promote(auto_detect=True, dry_run=True)
    done = s.promote(auto_detect=True)
    assert [c.id for c in preview.candidates] == done.promoted_ids
    assert ids[1] in done.promoted_ids and ids[0] not in done.promoted_ids
    assert ids[2] not in done.promoted_ids
