"""The persistent cache: outside the vault, a warm start re-parses only what changed, and a
cache that cannot be trusted is ignored and rebuilt."""

from __future__ import annotations

import io
import os
import pickle
import stat
from pathlib import Path

import pytest

from cortexgraph_vault import engine as engine_module
from cortexgraph_vault.config import load_config, user_cache_dir
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.cache.index_cache import cache_path, save_cache
from cortexgraph_vault.index.catalog.vault_catalog import PickledVectors
from tests.index.index_helpers import file_hashes, fresh_signature, signature


def engine_for(vault: Path) -> VaultEngine:
    return VaultEngine(load_config({"vault": str(vault)}))


def count_embedded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every text the embedder is given (for tests of what a start embeds)."""
    from cortexgraph_vault.index.vectors.embedder import Embedder

    embedded: list[str] = []
    real = Embedder.embed

    def counting(self: Embedder, texts: list[str]):  # type: ignore[no-untyped-def]
        embedded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(Embedder, "embed", counting)
    return embedded


def test_the_cache_lives_outside_the_vault_and_a_warm_start_parses_nothing(
    link_vault: Path,
) -> None:
    before = file_hashes(link_vault)
    cold = engine_for(link_vault)
    path = cache_path(user_cache_dir(), link_vault)
    assert path.is_file() and link_vault not in path.parents
    assert cold.catalog.parsed == len(cold.catalog) == len(list(link_vault.rglob("*.md"))) == 13
    assert not cold.index_cache.loaded_at_start
    warm = engine_for(link_vault)
    assert warm.index_cache.loaded_at_start
    assert warm.catalog.parsed == 0
    assert signature(warm.catalog) == signature(cold.catalog) == fresh_signature(link_vault)
    assert file_hashes(link_vault) == before


def test_a_warm_start_re_parses_only_the_files_that_changed(link_vault: Path) -> None:
    engine_for(link_vault)
    edge = link_vault / "Edge.md"
    edge.write_text(edge.read_text() + "\nnew words here\n")
    (link_vault / "Lonely.md").unlink()
    (link_vault / "Added.md").write_text("added [[Edge]]\n")
    warm = engine_for(link_vault)
    assert warm.catalog.parsed == 2  # Edge.md and Added.md
    assert warm.catalog.note("Lonely.md") is None
    assert signature(warm.catalog) == fresh_signature(link_vault)
    assert set(warm.catalog.search_text(["new"])[0]) == {"Edge.md"}


def test_a_touched_file_with_the_same_bytes_is_not_re_parsed(link_vault: Path) -> None:
    engine_for(link_vault)
    os.utime(link_vault / "Beta.md", ns=(1_000_000_000, 1_000_000_000))
    warm = engine_for(link_vault)
    assert warm.catalog.parsed == 0
    assert warm.catalog.note("Beta.md").mtime_ns == 1_000_000_000  # type: ignore[union-attr]


def test_a_corrupt_cache_is_ignored_and_rebuilt(link_vault: Path) -> None:
    engine_for(link_vault)
    path = cache_path(user_cache_dir(), link_vault)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    again = engine_for(link_vault)
    assert not again.index_cache.loaded_at_start and again.catalog.parsed == 13
    assert signature(again.catalog) == fresh_signature(link_vault)
    assert engine_for(link_vault).index_cache.loaded_at_start  # rewritten whole


def test_a_cache_from_another_version_or_layout_is_not_trusted(link_vault: Path) -> None:
    engine_for(link_vault)
    path = cache_path(user_cache_dir(), link_vault)
    raw = io.BytesIO(path.read_bytes())
    stamp = pickle.load(raw)
    stamp["parser"] = "an older parser"
    path.write_bytes(pickle.dumps(stamp) + raw.read())
    assert not engine_for(link_vault).index_cache.loaded_at_start
    other_layout = VaultEngine(load_config({"vault": str(link_vault), "stm_folder": "Daily"}))
    assert not other_layout.index_cache.loaded_at_start
    assert other_layout.catalog.note("Daily/2026-01-05.md").memory is not None  # type: ignore[union-attr]


def test_deleting_the_cache_is_always_safe(link_vault: Path) -> None:
    engine_for(link_vault)
    cache_path(user_cache_dir(), link_vault).unlink()
    again = engine_for(link_vault)
    assert signature(again.catalog) == fresh_signature(link_vault)


def test_two_vaults_have_two_caches(link_vault: Path, sample_vault: Path) -> None:
    engine_for(link_vault)
    engine_for(sample_vault)
    assert cache_path(user_cache_dir(), link_vault) != cache_path(user_cache_dir(), sample_vault)
    assert engine_for(sample_vault).catalog.note("Beta.md") is None


def test_a_big_vaults_cache_is_written_behind_the_first_answers(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "BIG_VAULT_NOTES", 5)
    monkeypatch.setattr(engine_module.gc, "freeze", lambda: None)  # keep the test process's heap
    first = engine_for(link_vault)
    assert first.catalog.search_text(["alpha"])[0]  # answers at once
    second = engine_for(link_vault)  # waits for the write in progress, then loads it
    assert second.index_cache.loaded_at_start and second.catalog.parsed == 0
    assert signature(second.catalog) == fresh_signature(link_vault)


def test_a_cache_that_cannot_be_written_leaves_no_temp_file_and_is_not_fatal(
    link_vault: Path, caplog: pytest.LogCaptureFixture
) -> None:
    engine = engine_for(link_vault)
    path = engine.index_cache.path
    path.unlink()
    notes, text, vectors = engine.catalog.snapshot()
    note = next(iter(notes.values()))
    deep: list[object] = []
    for _ in range(100_000):  # deeper than pickle can follow: RecursionError, not OSError
        deep = [deep]
    notes[note.path] = note.replace(frontmatter={"deep": deep})
    save_cache(path, engine.layout, engine.config.max_note_bytes, notes, text, vectors)
    assert not path.exists()
    assert list(path.parent.iterdir()) == []
    assert "cannot write the index cache (RecursionError" in caplog.text


def test_the_cache_holding_the_vaults_text_is_private(link_vault: Path) -> None:
    folder = user_cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    engine_for(link_vault)
    path = cache_path(user_cache_dir(), link_vault)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    # a cache written by an older version, readable by all, is made private when next saved
    path.chmod(0o644)
    path.parent.chmod(0o755)
    engine = engine_for(link_vault)
    engine.index_cache.save(engine.catalog)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_note_vectors_come_back_from_the_cache_and_only_changed_notes_are_embedded(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedded = count_embedded(monkeypatch)
    cold = engine_for(link_vault)
    assert len(embedded) == len(cold.catalog) == 13
    vectors = {n.path: cold.catalog.semantic.vector_of(n.path) for n in cold.catalog.notes()}
    embedded.clear()
    warm = engine_for(link_vault)
    assert embedded == [] and warm.catalog.semantic.pending == 0
    for path, vec in vectors.items():
        assert (warm.catalog.semantic.vector_of(path) == vec).all()
    note = next(p for p in link_vault.rglob("*.md") if p.name != "Index.md")
    note.write_text(note.read_text("utf-8") + "\nA new closing line about sailboats.\n", "utf-8")
    edited = engine_for(link_vault)
    assert len(embedded) == 1 and "sailboats" in embedded[0]
    rel = note.relative_to(link_vault).as_posix()
    assert not (edited.catalog.semantic.vector_of(rel) == vectors[rel]).all()


def test_vectors_a_process_never_used_are_written_back_as_they_were(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = engine_for(link_vault)
    vectors = {n.path: cold.catalog.semantic.vector_of(n.path) for n in cold.catalog.notes()}
    embedded = count_embedded(monkeypatch)
    untouched = engine_for(link_vault)  # loads the cache and never searches by meaning
    untouched.index_cache.save(untouched.catalog)
    (link_vault / "Added.md").write_text("a note about lighthouses\n")
    after = engine_for(link_vault)
    assert embedded == ["Added\na note about lighthouses"]
    assert after.catalog.semantic.pending == 0
    for path, vec in vectors.items():
        assert (after.catalog.semantic.vector_of(path) == vec).all()


def test_a_damaged_vectors_part_costs_an_embedding_not_the_index(link_vault: Path) -> None:
    cold = engine_for(link_vault)
    path = cache_path(user_cache_dir(), link_vault)
    notes, text, _ = cold.catalog.snapshot()
    damaged = PickledVectors(
        lambda: pickle.loads(b"not a pickle"), lambda out: out.write(b"not a pickle"), True
    )
    save_cache(path, cold.layout, cold.config.max_note_bytes, notes, text, damaged)
    warm = engine_for(link_vault)
    assert warm.index_cache.loaded_at_start and warm.catalog.parsed == 0
    found, _ = warm.catalog.search_text(["nowhere"])
    assert found and warm.catalog.semantic.pending == len(warm.catalog)  # all to embed again
    assert warm.catalog.sync_vectors() == len(warm.catalog)
    assert set(found) == set(cold.catalog.search_text(["nowhere"])[0])
