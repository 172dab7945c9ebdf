"""The catalogue: our own writes and their echoes, problems reported, parsing on every core."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.index.catalog import parallel_parse
from cortexgraph_vault.index.catalog import vault_catalog as catalog_module
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW_ISO
from tests.index.index_helpers import catalog_of, fresh_signature, signature, wait_until


def service_for(vault: Path) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))


def test_our_own_write_is_indexed_at_once_and_its_echo_is_a_no_op(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    engine = service.engine
    engine.start_watcher(debounce=0.02)
    try:
        saved = service.save("Prefers oolong over green tea in the afternoon.", tags=["tea"])
        # read-your-writes: searchable before any event arrives
        assert [h.path for h in service.search("oolong").results] == [saved.path]
        parsed = engine.catalog.parsed
        watcher = engine.watcher
        assert watcher is not None
        wait_until(lambda: watcher.state.paths_checked >= 1, what="the echo of our write")
        wait_until(lambda: watcher.pending() == 0)
        assert engine.catalog.parsed == parsed  # recognised by its stamp: not parsed again
        service.touch(saved.memory_id)
        wait_until(lambda: watcher.state.paths_checked >= 2, what="the echo of the touch")
        assert engine.catalog.parsed == parsed + 1  # the touch itself, once
    finally:
        engine.stop_watcher()


def test_a_watching_engine_does_not_walk_the_vault_per_call(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(sample_vault)
    walks: list[str] = []
    real = catalog_module.VaultCatalog.refresh

    def counting(self: catalog_module.VaultCatalog, start: str = "") -> object:
        walks.append(start)
        return real(self, start)

    monkeypatch.setattr(catalog_module.VaultCatalog, "refresh", counting)
    service.search("coffee")
    assert walks == [""]  # without a watcher, each call makes the catalogue current
    service.engine.start_watcher()
    try:
        walks.clear()
        service.search("coffee")
        service.search_unified("atlas")
        service.read_graph()
        assert walks == []
        assert service.vault_status().watcher.running
    finally:
        service.engine.stop_watcher()
    assert not service.vault_status().watcher.running


def test_problems_are_reported_and_the_files_left_alone(sample_vault: Path) -> None:
    (sample_vault / "_stm" / "Bad yaml.md").write_text("---\nkey: [unclosed\n---\nbody\n")
    (sample_vault / "Latin1.md").write_bytes("caf\xe9 au lait".encode("latin-1"))
    (sample_vault / "Empty.md").write_text("")
    twin = sample_vault / "_stm" / "Oat milk in coffee.md"
    (sample_vault / "_stm" / "Oat milk copy.md").write_bytes(twin.read_bytes())
    before = {p: p.read_bytes() for p in sample_vault.rglob("*.md")}
    status = service_for(sample_vault).vault_status()
    reasons = {(p.path, p.reason) for p in status.unparseable}
    paths = {p for p, _ in reasons}
    assert {"_stm/Bad yaml.md", "Latin1.md", "Empty.md", "_stm/Oat milk copy.md"} <= paths
    assert any("not valid YAML" in r for p, r in reasons if p == "_stm/Bad yaml.md")
    assert any("not UTF-8" in r for p, r in reasons if p == "Latin1.md")
    assert any("also used by _stm/Oat milk copy.md" in r for p, r in reasons)
    assert {p: p.read_bytes() for p in sample_vault.rglob("*.md")} == before


def test_parsing_in_worker_processes_gives_the_same_index(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(40):
        (link_vault / "Many" / f"N{i}.md").parent.mkdir(exist_ok=True)
        (link_vault / "Many" / f"N{i}.md").write_text(
            f"---\ntags: [t{i}]\n---\nnote {i} [[Home]]\n"
        )
    serial = fresh_signature(link_vault)
    used: list[int] = []
    real = parallel_parse._in_workers

    def spy(*args: object, **kwargs: object) -> object:
        used.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", 10)
    monkeypatch.setattr(parallel_parse, "worker_count", lambda: 2)
    monkeypatch.setattr(parallel_parse, "_in_workers", spy)
    parallel = catalog_of(link_vault)
    assert used == [1]
    assert signature(parallel) == serial


def test_when_workers_cannot_start_this_process_parses(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = fresh_signature(link_vault)
    monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", 5)
    monkeypatch.setattr(parallel_parse, "worker_count", lambda: 2)
    monkeypatch.setattr(parallel_parse.sys, "executable", "/nonexistent/python")
    assert signature(catalog_of(link_vault)) == serial


def test_names_and_generations_follow_changes(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    assert catalog.name_in_use("Beta.md") and catalog.name_in_use("BETA.md")
    assert not catalog.name_in_use("Beta.md", besides="Beta.md")  # moving, it gives it up
    assert catalog.name_in_use("Note.md", besides="Projects/Note.md")  # Areas/Note.md too
    generation, notes = catalog.generation, catalog.note_generation
    (link_vault / "_stm" / "New memory.md").write_text("a memory\n")
    catalog.refresh()
    assert catalog.name_in_use("new memory.md")
    assert catalog.generation == generation + 1 and catalog.note_generation == notes
    (link_vault / "Beta.md").unlink()
    catalog.refresh()
    assert not catalog.name_in_use("beta.md")
    assert catalog.note_generation == notes + 1
    (link_vault / "Projects" / "Note.md").unlink()
    catalog.refresh()
    assert catalog.name_in_use("note.md")  # Areas/Note.md still has the name


def test_names_in_use_ignore_the_unicode_form(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Cafe\u0301.md").write_text("decomposed, as macOS writes it\n", encoding="utf-8")
    catalog = catalog_of(vault)
    assert catalog.name_in_use("Café.md") and catalog.name_in_use("CAFÉ.md")
    assert not catalog.name_in_use("Café.md", besides="Cafe\u0301.md")


def test_tags_in_use_follow_edits_and_deletes(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    before = catalog.tags_in_use()
    assert before == {t for n in catalog.notes() for t in n.tags}
    (link_vault / "Tagged.md").write_text("---\ntags: [brand-new, also/nested]\n---\n#inline\n")
    catalog.refresh()
    assert catalog.tags_in_use() == before | {"brand-new", "also/nested", "inline"}
    (link_vault / "Tagged.md").write_text("#inline only now\n")
    catalog.refresh()
    assert catalog.tags_in_use() == before | {"inline"}
    (link_vault / "Tagged.md").unlink()
    catalog.refresh()
    assert catalog.tags_in_use() == before


@pytest.mark.parametrize("asked_first", [False, True])
def test_names_and_tags_taken_from_the_cache_follow_changes(
    link_vault: Path, tmp_path: Path, asked_first: bool
) -> None:
    # A catalogue loaded from the cache counts its names and tags when first asked: changes
    # made before that (the start's walk) and after it are both in the counts, as in a
    # catalogue that indexed the files itself.
    from cortexgraph_vault.index.cache.index_cache import IndexCache
    from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog

    made = catalog_of(link_vault)
    cache = IndexCache(tmp_path / "index.pickle", made.layout, made.max_note_bytes)
    cache.save(made)
    warm = VaultCatalog(made.layout)
    assert cache.load_into(warm)
    names = ("beta.md", "note.md", "tagged.md", "lonely.md")

    def same_as_indexed_anew() -> None:
        warm.refresh()
        anew = catalog_of(link_vault)
        assert warm.tags_in_use() == anew.tags_in_use()
        assert [warm.name_in_use(n) for n in names] == [anew.name_in_use(n) for n in names]

    if asked_first:
        assert warm.tags_in_use() == made.tags_in_use() and warm.name_in_use("beta.md")
    (link_vault / "Tagged.md").write_text("---\ntags: [brand-new]\n---\n#inline\n")
    (link_vault / "Beta.md").unlink()
    same_as_indexed_anew()
    assert {"brand-new", "inline"} <= warm.tags_in_use() and not warm.name_in_use("beta.md")
    (link_vault / "Tagged.md").unlink()
    (link_vault / "Areas" / "Note.md").unlink()
    same_as_indexed_anew()
    assert warm.name_in_use("note.md")  # Projects/Note.md still has the name
    (link_vault / "Projects" / "Note.md").unlink()
    same_as_indexed_anew()
    assert not warm.name_in_use("note.md")
