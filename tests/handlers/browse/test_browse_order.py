"""A long list by score, ordered from the note table's arrays, is the list the plain ordering
gives: same memories, same order (ties by path), every page, after touches too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.handlers.browse import browse_order
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text, service_for
from tests.conftest import NOW

MEMORIES = 700


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[MemoryService]:
    rng = random.Random(16)
    notes = {}
    for i in range(MEMORIES):
        # few distinct values: many memories score exactly alike, so ties by path matter
        notes[f"_stm/m{rng.randrange(10**6):06d}-{i}.md"] = memory_text(
            f"mem-{i:04d}",
            body=f"Memory number {i}.\n",
            created=NOW - timedelta(days=40),
            last_used=NOW - timedelta(days=rng.choice([0, 1, 3, 7, 20])),
            use_count=rng.choice([1, 2, 5]),
            strength=rng.choice([0.5, 1.0, 1.5]),
        )
    service = service_for(a_vault(tmp_path / "vault", notes, git_init=True))
    service.engine.start_watcher()
    try:
        yield service
    finally:
        service.engine.stop_watcher()


def _taken(monkeypatch: pytest.MonkeyPatch, name: str) -> list[bool]:
    """Whether each call of browse_order's `name` took its path (returned something)."""
    taken: list[bool] = []
    real = getattr(browse_order, name)

    def spy(*args: object, **kw: object) -> object:
        got = real(*args, **kw)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(browse_order, name, spy)
    return taken


def _pages(service: MemoryService) -> list[list[str]]:
    return [
        [m.model_dump_json() for m in service.list_memories(page=p, page_size=50).memories]
        for p in (1, 2, 7, 14)
    ]


def test_long_list_by_score_is_the_plain_order(
    watched: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        taken = _taken(monkeypatch, "memory_rows")
        by_arrays = _pages(watched)
        monkeypatch.setattr(browse_order, "LONG_LIST", 10**9)  # the plain path
        plain = _pages(watched)
        monkeypatch.undo()
        assert taken[:4] == [True] * 4 and taken[4:] == [False] * 4
        assert by_arrays == plain
        assert [len(page) for page in plain] == [50] * 4  # page 14 is the last
        # a touch makes a new state of the catalogue (and a new table): still the same order
        watched.touch("mem-0003")
        watched.touch("mem-0400")


def test_a_short_list_keeps_the_plain_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notes = {f"_stm/m{i}.md": memory_text(f"mem-{i}", use_count=i + 1) for i in range(5)}
    service = service_for(a_vault(tmp_path / "vault", notes, git_init=True))
    service.engine.start_watcher()
    try:
        listed = service.list_memories().memories
        assert browse_order.memory_rows(service.engine, {"active"}) is None  # too short
    finally:
        service.engine.stop_watcher()
    assert [m.id for m in listed] == [f"mem-{i}" for i in (4, 3, 2, 1, 0)]


def test_memories_chosen_from_the_table_list_as_the_catalogue_does(
    watched: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every status, sort and a tag: the memories a long list picks from the note table's
    status codes are the ones a walk of the catalogue picks, after a touch and a forget too."""
    watched.touch("mem-0010")
    watched.save("One more memory about tea", tags=["tea"])
    variants = [
        {"status": status, "sort": sort, "page": page}
        for status in ("active", "all", "archived")
        for sort in ("score", "age", "last_used")
        for page in (1, 3)
    ] + [{"tag": "tea"}]

    def lists() -> list[str]:
        return [watched.list_memories(page_size=50, **v).model_dump_json() for v in variants]

    picked = _taken(monkeypatch, "memory_rows")
    from_table = lists()
    # every list but the archived (none: a short list) chooses from the table
    assert picked == [v.get("status") != "archived" for v in variants]
    monkeypatch.setattr(browse_order, "LONG_LIST", 10**9)  # the plain path
    assert from_table == lists()
    assert not any(picked[len(variants) :])
