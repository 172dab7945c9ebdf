"""A big vault answers by words while its notes are embedded behind; what a search finds is
the same as when every vector was made before the first answer."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cortexgraph_vault import engine as engine_module
from cortexgraph_vault.config import load_config
from cortexgraph_vault.index.cache.index_cache import cache_path
from cortexgraph_vault.index.vectors.semantic import SemanticIndex
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault.sample import copy_sample_vault
from tests.conftest import NOW, NOW_ISO

QUERIES = ["coffee", "who is my manager", "running a race", "database choice", "pet", "talk"]


def found(service: MemoryService) -> list[list[tuple[str, float]]]:
    return [
        [(h.path, h.score) for h in service.search_unified(q, limit=10).results] for q in QUERIES
    ]


def test_vectors_made_behind_find_what_vectors_made_first_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = copy_sample_vault(tmp_path / "vault", NOW)
    config = load_config({"vault": str(vault), "now": NOW_ISO})
    first = MemoryService(config)  # the sample is small: its vectors are made up front
    before = found(first)
    cache = cache_path(Path(tmp_path / "home" / "cache"), vault)
    monkeypatch.setenv("CORTEXGRAPH_CACHE_DIR", str(cache.parent.parent))
    monkeypatch.setattr(engine_module, "BIG_VAULT_NOTES", 1)  # every vault is "big" now
    embedding = threading.Event()
    release = threading.Event()
    real_sync = SemanticIndex.sync

    def slow_sync(self: SemanticIndex, text_of, progress=None):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "cgv-vectors":
            embedding.set()
            release.wait(30)  # held until a search has started waiting for it
        return real_sync(self, text_of, progress)

    monkeypatch.setattr(SemanticIndex, "sync", slow_sync)
    behind = MemoryService(config)
    assert embedding.wait(30), "no embedding behind the start"
    assert behind.engine.catalog.semantic.pending == len(behind.engine.catalog)
    # Answers by words come while the vectors are still being made ...
    assert behind.list_memories(page_size=200).memories
    # ... and a search waits for them, so it ranks exactly as before.
    results: list[list[list[tuple[str, float]]]] = []
    searching = threading.Thread(target=lambda: results.append(found(behind)))
    searching.start()
    searching.join(0.5)
    assert searching.is_alive(), "the search did not wait for the vectors"
    release.set()
    searching.join(60)
    assert results == [before]
    assert behind.engine.catalog.semantic.pending == 0
    assert behind.engine.catalog.semantic.count == first.engine.catalog.semantic.count


def test_a_note_dropped_while_notes_are_embedded_stays_dropped(tmp_path: Path) -> None:
    vault = copy_sample_vault(tmp_path / "vault", NOW)
    service = MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))
    catalog = service.engine.catalog
    sem = catalog.semantic
    path, edited = "_stm/Oat milk in coffee.md", "_stm/Cat named Pixel.md"
    assert sem.vector_of(path) is not None
    model = sem.embedder()
    assert model is not None

    class DropsMidway:
        dim = model.dim

        def embed(self, texts: list[str]):  # type: ignore[no-untyped-def]
            # while the model works (no lock held): one note goes, another is edited
            catalog.drop(path)
            (vault / edited).write_text((vault / edited).read_text() + "\nShe sleeps a lot.\n")
            catalog.reload(edited)
            return model.embed(texts)

        def let_go(self, now: float) -> None:
            model.let_go(now)

    for note in catalog.notes():
        sem.mark(note.path)
    assert sem._notes is not None
    sem._notes.keys[:] = 0  # every note's vector is to be made again (no text has this key)
    sem._embedder = DropsMidway()  # type: ignore[assignment]
    assert catalog.sync_vectors() == len(catalog) + 1  # the dropped one was in the batch
    assert sem.vector_of(path) is None and catalog.note(path) is None
    # the edited note was embedded from its old text, and is due again with its new one
    assert sem.pending == 1
    sem._embedder = model
    assert catalog.sync_vectors() == 1 and sem.pending == 0
