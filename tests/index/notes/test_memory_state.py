"""A memory's status and decay fields kept with its note's hot fields (`memory_state`): what
a search's note table, its episodes and `stats` read of every memory, without decoding one."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.handlers.browse import vault_stats
from cortexgraph_vault.handlers.search.note_table import note_table
from cortexgraph_vault.handlers.search.relevance import episodes
from cortexgraph_vault.index.notes import cold_fields
from cortexgraph_vault.index.notes.records import MemoryState, with_stamp
from tests.index.index_helpers import catalog_of, engine_for


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every note's cold fields decoded from now on."""
    seen: list[bytes] = []
    real = cold_fields.decode
    monkeypatch.setattr(cold_fields, "decode", lambda data: seen.append(data) or real(data))
    return seen


def test_a_warm_start_holds_each_memorys_state_as_its_memory_says(sample_vault: Path) -> None:
    engine_for(sample_vault)
    warm = engine_for(sample_vault)
    assert warm.index_cache.loaded_at_start
    fresh = {n.path: n for n in catalog_of(sample_vault).notes()}
    states = {n.path: n.memory_state for n in warm.catalog.notes()}
    for path, state in states.items():
        memory = fresh[path].memory
        assert state == (None if memory is None else MemoryState.of(memory))
        if memory is not None and state is not None:
            assert state.decay == memory.decay
    assert any(s is None for s in states.values())
    assert {s.status for s in states.values() if s is not None} >= {"active"}


def test_a_search_table_episodes_and_stats_decode_no_memory(
    sample_vault: Path, decoded: list[bytes]
) -> None:
    engine_for(sample_vault)
    warm = engine_for(sample_vault)
    table = note_table(warm)
    order = episodes(warm)
    warm_stats = vault_stats.stats(warm)
    assert decoded == []
    # the same as read from the decoded memories of a fresh parse
    fresh = engine_for(sample_vault)
    for note in fresh.catalog.notes():
        note.memory  # noqa: B018 - decoded: the figures below come from the memories
    memories = {m.path: m for m in fresh.catalog.memories()}
    for path, m in memories.items():
        row = table.row_of[path]
        assert table.status_names[table.status[row]] == m.status
        assert table.use_base[row] == float(max(1, m.use_count))
        assert table.last_used[row] == m.last_used.timestamp()
        assert table.strength[row] == m.strength
    timed = sorted((m.created.timestamp(), m.path) for m in memories.values() if m.created)
    assert list(order.paths) == [p for _, p in timed]
    by_status: dict[str, int] = {}
    for m in memories.values():
        by_status[m.status] = by_status.get(m.status, 0) + 1
    assert warm_stats.memories == by_status
    assert warm_stats == vault_stats.stats(fresh)


def test_a_new_stamp_keeps_the_state_and_an_edit_changes_it(sample_vault: Path) -> None:
    engine = engine_for(sample_vault)
    note = next(n for n in engine.catalog.notes() if n.memory_state is not None)
    path = sample_vault / note.path
    restamped = with_stamp(note, path.stat())
    assert restamped.memory_state == note.memory_state
    text = path.read_text()
    assert "use_count:" in text
    lines = [
        "use_count: 41" if line.startswith("use_count:") else line for line in text.splitlines()
    ]
    path.write_text("\n".join(lines) + "\n")
    engine.catalog.refresh()
    edited = engine.catalog.note(note.path)
    assert edited is not None and edited.memory_state is not None
    assert edited.memory_state.use_count == 41
    assert edited.memory is not None and edited.memory_state == MemoryState.of(edited.memory)


def test_a_plain_note_has_no_state_whatever_memory_it_was_given(sample_vault: Path) -> None:
    memory_note = next(n for n in catalog_of(sample_vault).notes() if n.memory is not None)
    as_plain = memory_note.replace(kind="note")
    assert as_plain.memory is None and as_plain.memory_state is None
    assert not as_plain.has_memory


def test_opening_a_memory_decodes_only_it_and_the_memories_relating_to_it(
    git_vault: Path, decoded: list[bytes]
) -> None:
    from cortexgraph_vault.core.link_values import points_to
    from cortexgraph_vault.handlers.browse.reads import open_memories
    from cortexgraph_vault.requests.memories import OpenMemoriesRequest
    from tests.builders import service_for

    s = service_for(git_vault)
    s.relate("Uses Neovim", "Curious about Rust", "supports")
    s.engine.index_cache.save(s.engine.catalog)
    warm = engine_for(git_vault)
    assert warm.index_cache.loaded_at_start
    decoded.clear()
    target = warm.resolve("Curious about Rust")
    opened = open_memories(warm, OpenMemoriesRequest(memory_ids=[target.path])).memories[0]
    decoded_by_opening = len(decoded)
    relations = opened.relations
    assert relations is not None
    memories = list(engine_for(git_vault).catalog.memories())
    pointing = [
        (o.id, kind)
        for o in memories
        if o.path != target.path
        for kind, values in o.relations.items()
        for value in values
        if points_to(value, target)
    ]
    assert [(r.from_memory_id, r.relation_type) for r in relations.incoming] == pointing
    assert ("supports" in [kind for _, kind in pointing]) and len(memories) > 3
    # itself, the memories that point at it and those it names: not every memory
    named = {o.id for o in memories if any(
        points_to(v, o) for vs in target.relations.values() for v in vs)}  # fmt: skip
    assert 0 < decoded_by_opening <= len({target.id, *(i for i, _ in pointing), *named})
