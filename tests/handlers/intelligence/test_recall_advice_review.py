"""The review list: active memories in the danger zone, the most urgent first."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument
from tests.intelligence.vaults import NOW, memory_note, service_for, write_notes


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = write_notes(tmp_path / "vault")
    # power-law scores for one use: 3 d 0.50, 7 d 0.29, 14 d 0.17, 30 d 0.08
    for name, days in (("Fresh", 3), ("Week old", 7), ("Fortnight old", 14), ("Month old", 30)):
        memory_note(root, name, f"{name} memory.", tags=["t"], last_used=NOW - timedelta(days=days))
    return root


def test_due_memories_are_those_fading_most_urgent_first(vault: Path) -> None:
    result = service_for(vault).review()
    assert [m.title for m in result.memories] == ["Week old", "Fortnight old"]
    assert result.total_due == 2 and result.count == 2 and result.danger_zone == [0.15, 0.35]
    week, fortnight = result.memories
    assert week.review_priority == pytest.approx(0.81, abs=0.01)
    assert fortnight.review_priority == pytest.approx(0.31, abs=0.01)
    assert 0.15 <= fortnight.score < week.score <= 0.35
    assert week.days_until_forgotten and week.days_until_forgotten > 0


def test_the_limit_cuts_the_list_but_not_the_count(vault: Path) -> None:
    result = service_for(vault).review(limit=1)
    assert [m.title for m in result.memories] == ["Week old"] and result.total_due == 2
    with pytest.raises(InvalidArgument, match="limit"):
        service_for(vault).review(limit=0)


def test_using_a_memory_takes_it_off_the_list(vault: Path) -> None:
    service = service_for(vault)
    service.observe(["week-old"], ["t"])
    assert [m.title for m in service.review().memories] == ["Fortnight old"]


def test_the_danger_zone_is_configurable(vault: Path) -> None:
    wide = service_for(vault, review_danger_zone_min="0.05", review_danger_zone_max="0.6")
    assert {m.title for m in wide.review().memories} == {
        "Fresh",
        "Week old",
        "Fortnight old",
        "Month old",
    }
