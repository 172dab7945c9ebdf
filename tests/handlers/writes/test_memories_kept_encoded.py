"""Scans that read a few numbers of every memory — the note table searches rank with, the
save-time order, a gc's candidates, a long list by score — leave the memories as the cache
holds them (encoded): only the memories shown are decoded and kept (100k notes: 30k memories
kept decoded were ~70 MB). What they answer is the same as from the decoded memories."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.handlers.search.relevance import episodes
from cortexgraph_vault.index.cache.index_cache import wait_for_writes
from cortexgraph_vault.index.notes import cold_fields
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text, service_for
from tests.conftest import NOW

MEMORIES = 600


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[MemoryService]:
    rng = random.Random(7)
    notes = {
        f"_stm/m{i:04d}.md": memory_text(
            f"mem-{i:04d}",
            body=f"Memory number {i} about tea.\n",
            created=NOW - timedelta(days=rng.choice([1, 40, 90, 400])),
            last_used=NOW - timedelta(days=rng.choice([0, 3, 60, 300])),
            use_count=rng.choice([1, 2, 5]),
        )
        for i in range(MEMORIES)
    }
    notes.update(
        {f"Notes/n{i}.md": f"# Note {i}\n\nAbout tea and [[Note {i + 1}]].\n" for i in range(40)}
    )
    vault = a_vault(tmp_path / "vault", notes, git_init=True)
    cold = service_for(vault)
    cold.engine.index_cache.save(cold.engine.catalog)
    wait_for_writes(cold.engine.index_cache.path)
    service = service_for(vault)
    assert service.engine.index_cache.loaded_at_start
    service.engine.start_watcher()
    try:
        yield service
    finally:
        service.engine.stop_watcher()


def _decoded(service: MemoryService) -> set[str]:
    return {n.path for n in service.engine.catalog.notes() if n._cold is not None}


def test_scans_of_every_memory_keep_none_decoded(warm: MemoryService) -> None:
    assert _decoded(warm) == set()
    results = warm.search_unified("tea memory", limit=5).results  # note table, save times
    listed = warm.list_memories(page=3, page_size=20).memories
    preview = warm.gc(dry_run=True, limit=1000)
    assert preview.total_affected > 0 and len(results) == 5
    assert len(_decoded(warm)) <= len(results) + len(listed)
    assert {m.path for m in listed} <= _decoded(warm)


def test_what_they_answer_equals_the_decoded_memories(warm: MemoryService) -> None:
    found = episodes(warm.engine)
    listed = [warm.list_memories(page=p, page_size=50).model_dump_json() for p in (1, 4, 12)]
    preview = warm.gc(dry_run=True, limit=1000).model_dump_json()
    every = list(warm.engine.catalog.memories())  # now decoded, every one
    assert len(_decoded(warm)) == MEMORIES
    timed = sorted((m.created.timestamp(), m.path) for m in every if m.created)
    assert (list(found.paths), list(found.times)) == ([p for _, p in timed], [t for t, _ in timed])
    # the plain path of each, from the decoded memories, answers the same
    warm.engine.stop_watcher()  # a list by score from the table is for a watching process
    assert [
        warm.list_memories(page=p, page_size=50).model_dump_json() for p in (1, 4, 12)
    ] == listed
    assert warm.gc(dry_run=True, limit=1000).model_dump_json() == preview


def test_a_gc_decodes_only_the_memories_it_takes(
    warm: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = warm.gc(dry_run=True, limit=1000)
    decoded: list[bytes] = []
    decode = cold_fields.decode
    monkeypatch.setattr(cold_fields, "decode", lambda data: decoded.append(data) or decode(data))
    few = warm.gc(dry_run=True, limit=5)
    assert every.total_affected > 5 and few.total_affected == 5
    assert few.candidates == every.candidates[:5]  # the lowest scores, ties by path
    assert few.memory_ids == every.memory_ids[:5]
    assert len(decoded) == 5  # the candidates chosen from the hot fields; only those decoded
    assert _decoded(warm) == set()
