"""What a big vault's index holds in memory: notes parsed in worker processes keep their
fields in a spool file, not in the process; the cache is read by position; the vectors come
back with room to grow, and a change after a cache write copies nothing. Each step gives back
exactly what a fresh parse gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.index.cache import index_cache as cache_module
from cortexgraph_vault.index.cache.cache_records import SPARE_ROWS, CacheRecords
from cortexgraph_vault.index.cache.cold_spool import ColdSpool
from cortexgraph_vault.index.cache.index_cache import cache_path
from cortexgraph_vault.index.catalog import parallel_parse
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes import cold_fields
from cortexgraph_vault.vault.layout import VaultLayout
from tests.index.index_helpers import catalog_of, engine_for, fields, fresh_signature, signature


def vectors_bytes(path: Path) -> int:
    trailer = cache_module._TRAILER
    vectors_at, base, _, _, _, _ = trailer.unpack(path.read_bytes()[-trailer.size :])
    return int(base - vectors_at)


@pytest.fixture
def in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", 5)
    monkeypatch.setattr(parallel_parse, "worker_count", lambda: 2)


def test_notes_parsed_in_workers_read_their_fields_from_an_unnamed_spool_file(
    sample_vault: Path, tmp_path: Path, in_workers: None
) -> None:
    fresh = {n.path: fields(n) for n in catalog_of(sample_vault).notes()}
    folder = tmp_path / "spool"
    folder.mkdir()
    catalog = VaultCatalog(VaultLayout(sample_vault))
    catalog.spool_folder = folder
    catalog.refresh()
    notes = catalog.notes()
    assert {type(n._loc[0]) for n in notes if n._loc is not None} == {ColdSpool}
    assert all(n._cold is None for n in notes)  # nothing decoded by indexing them
    assert list(folder.iterdir()) == []  # no name: a killed process leaves nothing
    assert {n.path: fields(n) for n in notes} == fresh


def test_a_cold_start_in_workers_then_a_warm_one_equal_a_fresh_parse(
    sample_vault: Path, in_workers: None
) -> None:
    expected = fresh_signature(sample_vault)
    fresh = {n.path: fields(n) for n in catalog_of(sample_vault).notes()}
    cold = engine_for(sample_vault)
    notes = cold.catalog.notes()
    assert {type(n._loc[0]) for n in notes if n._loc is not None} == {CacheRecords}
    assert [p.name for p in cold.index_cache.path.parent.iterdir()] == [cold.index_cache.path.name]
    warm = engine_for(sample_vault)
    assert warm.index_cache.loaded_at_start and warm.catalog.parsed == 0
    assert {n.path: fields(n) for n in warm.catalog.notes()} == fresh
    assert signature(warm.catalog) == signature(cold.catalog) == expected


def test_a_memory_is_told_from_a_note_without_decoding_either(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine_for(sample_vault)
    decoded: list[bytes] = []
    real = cold_fields.decode
    monkeypatch.setattr(cold_fields, "decode", lambda data: decoded.append(data) or real(data))
    warm = engine_for(sample_vault)
    told = {n.path: n.has_memory for n in warm.catalog.notes()}
    assert decoded == []
    assert told == {n.path: n.memory is not None for n in catalog_of(sample_vault).notes()}
    assert any(told.values()) and not all(told.values())


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9, 0.999])
def test_a_cache_cut_short_anywhere_is_rebuilt(sample_vault: Path, cut: float) -> None:
    """As a disk that filled up, or a copy that stopped, would leave it (a kill -9 leaves the
    old file whole: the new one is written beside it and renamed)."""
    expected = fresh_signature(sample_vault)
    engine_for(sample_vault)
    path = cache_path(user_cache_dir(), sample_vault)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * cut)])
    rebuilt = engine_for(sample_vault)
    assert not rebuilt.index_cache.loaded_at_start and rebuilt.catalog.parsed > 0
    assert signature(rebuilt.catalog) == expected
    again = engine_for(sample_vault)
    assert again.index_cache.loaded_at_start and signature(again.catalog) == expected


def test_vectors_come_back_with_room_for_new_notes_and_the_file_does_not_grow(
    link_vault: Path,
) -> None:
    cold = engine_for(link_vault)
    vectors = {n.path: cold.catalog.semantic.vector_of(n.path) for n in cold.catalog.notes()}
    size = vectors_bytes(cold.index_cache.path)
    warm = engine_for(link_vault)
    rows = warm.catalog.semantic._notes
    assert rows is not None and rows.matrix.shape[0] == len(vectors) + SPARE_ROWS
    matrix = rows.matrix
    (link_vault / "Added.md").write_text("a note about lighthouses\n")
    warm.catalog.refresh()
    assert warm.catalog.sync_vectors() == 1
    assert rows.matrix is matrix  # a spare row taken: the matrix is not copied
    for path, vec in vectors.items():
        assert (warm.catalog.semantic.vector_of(path) == vec).all()
    (link_vault / "Added.md").unlink()
    warm.catalog.refresh()
    warm.index_cache.save(warm.catalog)
    assert vectors_bytes(warm.index_cache.path) == size  # no spare rows written back


def test_an_edit_after_the_cache_is_written_copies_no_vectors(link_vault: Path) -> None:
    engine = engine_for(link_vault)
    engine.catalog.semantic.sync(engine.catalog.vector_text)
    engine.index_cache.save(engine.catalog)  # the writer had the matrix, and is done
    rows = engine.catalog.semantic._notes
    assert rows is not None
    at = rows.matrix.__array_interface__["data"][0]  # not the array: a reference would count
    edge = link_vault / "Edge.md"
    edge.write_text(edge.read_text() + "\nnew words about lighthouses\n")
    engine.catalog.refresh()
    assert engine.catalog.sync_vectors() == 1
    assert rows.matrix.__array_interface__["data"][0] == at
    assert signature(engine.catalog) == fresh_signature(link_vault)


def test_a_memory_read_from_the_cache_shares_the_notes_strings_and_equals_a_fresh_parse(
    sample_vault: Path,
) -> None:
    engine_for(sample_vault)
    warm = engine_for(sample_vault)
    fresh = {n.path: n for n in catalog_of(sample_vault).notes()}
    memories = [n for n in warm.catalog.notes() if n.has_memory]
    for note in memories:
        memory = note.memory
        assert memory is not None and memory == fresh[note.path].memory
        assert memory.path is note.path and memory.id is note.memory_id
        assert note._cold is not None and not isinstance(note._cold[0], dict | bytes)  # not kept
        assert note.frontmatter == fresh[note.path].frontmatter
    assert memories
