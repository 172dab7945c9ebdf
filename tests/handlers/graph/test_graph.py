"""read_graph, the neighbourhood of a note and vault_status, as the service returns them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.errors import InvalidArgument, NotFound
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW, NOW_ISO
from tests.index.index_helpers import wait_until


def service_for(vault: Path) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))


def test_read_graph_is_a_bounded_page_with_whole_vault_stats(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    result = service.read_graph(status="all", limit=5)
    assert result.count == len(result.memories) == 5 and result.total_count == 43
    assert result.stats.notes == 43 and result.stats.memories == {"active": 20, "promoted": 4}
    assert result.stats.unresolved_links == 1 and result.stats.attachments == 1
    assert result.stats.top_tags["work"] >= 1 and result.stats.tags > 0
    paths = {n.path for n in result.memories}
    assert {r.from_path for r in result.relations} <= paths  # links from this page only
    assert [u.target for u in result.unresolved] == ["Atlas Retrospective"]
    pages = [service.read_graph(status="all", page=p, page_size=20) for p in (1, 2, 3)]
    assert [len(p.memories) for p in pages] == [20, 20, 3]
    assert pages[2].pagination and not pages[2].pagination.has_more
    assert len({n.path for p in pages for n in p.memories}) == 43
    with pytest.raises(InvalidArgument):
        service.read_graph(limit=0)
    with pytest.raises(InvalidArgument):
        service.read_graph(status="everything")


def test_read_graph_default_is_active_memories_with_scores(sample_vault: Path) -> None:
    result = service_for(sample_vault).read_graph()
    assert result.total_count == 20
    assert all(n.source == "stm" and n.status == "active" for n in result.memories)
    assert all(n.score is not None and n.use_count and n.last_used for n in result.memories)
    typed = [r for r in result.relations if r.relation_type == "related"]
    assert typed and all(r.from_memory_id for r in typed)
    postgres = [r for r in typed if r.from_path == "_stm/Postgres over MySQL.md"]
    assert {r.to_path for r in postgres} == {
        "Projects/Ledger Migration.md", "Reading/Designing Data-Intensive Applications.md",
    }  # fmt: skip
    assert all(n.score is None for n in service_for(sample_vault).read_graph(
        include_scores=False).memories)  # fmt: skip


def test_neighbourhood_by_title_path_or_memory_id(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    around = service.graph_neighbourhood("Project Atlas", hops=1)
    assert around.center.path == "Projects/Project Atlas.md" and around.center.distance == 0
    assert all(n.distance == 1 for n in around.nodes)
    assert "People/Jonas Berg.md" in {n.path for n in around.nodes}
    assert set(around.backlinks) <= {n.path for n in around.nodes}
    two = service.graph_neighbourhood("Projects/Project Atlas.md", hops=2)
    assert len(two.nodes) > len(around.nodes) and {n.distance for n in two.nodes} == {1, 2}
    memory = service.search("postgres").results[0]
    by_id = service.graph_neighbourhood(memory.id or "", hops=1)
    assert by_id.center.path == memory.path and by_id.center.id == memory.id
    capped = service.graph_neighbourhood("Home", hops=3, max_nodes=3)
    assert len(capped.nodes) == 2 and capped.truncated
    with pytest.raises(NotFound):
        service.graph_neighbourhood("No Such Note")
    with pytest.raises(InvalidArgument):
        service.graph_neighbourhood("Home", hops=9)


def test_vault_status_reports_the_watcher_and_the_cache(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    status = service.vault_status()
    assert status.notes == 43 and status.vocabulary > 100
    assert not status.watcher.running and status.unparseable == []
    assert status.cache.notes_parsed == 43 and not status.cache.loaded_at_start
    service.engine.start_watcher(debounce=0.02)
    try:
        (sample_vault / "broken.md").write_bytes(b"---\nx: [\n---\n")
        wait_until(lambda: service.vault_status().notes == 44, what="the new note")
        live = service.vault_status()
        # the event's batch or a reconciliation that got there first brought it in
        w = live.watcher
        assert w.running and w.events >= 1 and w.batches + w.reconciliations >= 1
        assert live.watcher.heartbeat_age_seconds is not None
        assert live.watcher.heartbeat_age_seconds < 5
        assert [p.path for p in live.unparseable] == ["broken.md"]
        assert "not valid YAML" in live.unparseable[0].reason
    finally:
        service.engine.stop_watcher()
    assert service_for(sample_vault).vault_status().cache.loaded_at_start


def test_reindex_rebuilds_from_the_files(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    note = sample_vault / "Home.md"
    st = note.stat()
    # same size, same mtime: a stat walk cannot see this edit, a re-index does
    note.write_text(note.read_text().replace("made-up person", "quetzal-person"))
    os.utime(note, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert service.search_unified("quetzal").results == []
    result = service.reindex()
    assert result.notes == 43 and result.memories == 24
    assert [h.path for h in service.search_unified("quetzal").results] == ["Home.md"]
    assert service_for(sample_vault).vault_status().cache.loaded_at_start


def test_a_typed_relations_strength_and_metadata_are_in_the_graph(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    a, b = service.search("oat milk").results[0], service.search("neovim").results[0]
    service.relate(a.id or "", b.id or "", "supports", strength=0.4, metadata={"why": "habits"})
    relations = service.read_graph(limit=100).relations
    typed = [r for r in relations if r.relation_type == "supports" and r.from_path == a.path]
    assert [(r.to_path, r.strength, r.metadata) for r in typed] == [
        (b.path, 0.4, {"why": "habits"})
    ]
    assert all(r.strength == 1.0 for r in relations if r.relation_type == "link")


def test_unresolved_targets_blocks_and_counts_agree(tmp_path: Path) -> None:
    """Issue 15 item 8: `[x](Example.md)` and `[[Example]]` to a missing note are one
    unresolved target; a block reference keeps its `^id`; the summary counts the links it
    stands for."""
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "B.md").write_text("A paragraph.\n^blk1\n")
    (vault / "A.md").write_text(
        "[x](Example.md) and [[Example]], [[Example#Part]] and [[example]].\n"
        "See [[B#^blk1]] and [[B#^blk1|that]].\n"
    )
    result = service_for(vault).read_graph(status="all")
    missing = [r for r in result.relations if not r.resolved]
    assert [(u.target, u.count, u.sources) for u in result.unresolved] == [("Example", 4, ["A.md"])]
    assert len(missing) == 4 == result.stats.unresolved_links
    blocks = [r for r in result.relations if r.to_path == "B.md"]
    assert [r.block for r in blocks] == ["blk1", "blk1"] and len({r.id for r in blocks}) == 2


def _generated(root: Path, notes: int) -> Path:
    from bench.vaultgen import generate_vault

    generate_vault(root, notes, now=NOW)
    return root


def test_read_graph_answers_within_a_character_budget_and_a_cursor_continues(
    tmp_path: Path,
) -> None:
    """Issue 15 item 9: a page is bounded by its size in characters as well as by its count;
    a cursor continues where a budget stopped, until every note was seen once."""
    service = service_for(_generated(tmp_path / "vault", 300))
    first = service.read_graph(status="all")
    assert len(first.model_dump_json()) <= first.max_chars == 40_000
    seen: list[str] = []
    cursor: str | None = None
    for _ in range(200):
        page = service.read_graph(status="all", limit=1000, max_chars=12_000, cursor=cursor)
        assert len(page.model_dump_json()) <= 12_000
        assert page.memories, "every call makes progress"
        paths = {n.path for n in page.memories}
        assert {r.from_path for r in page.relations} <= paths
        seen += [n.path for n in page.memories]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == sorted(seen) and len(seen) == len(set(seen)) == first.total_count
    with pytest.raises(InvalidArgument, match="cursor"):
        service.read_graph(cursor="not-a-cursor")
    with pytest.raises(InvalidArgument, match="max_chars"):
        service.read_graph(max_chars=10)


def test_a_note_bigger_than_the_budget_still_comes_with_what_fits(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Hub.md").write_text("".join(f"[[Missing {i}]]\n" for i in range(400)))
    (vault / "Leaf.md").write_text("[[Hub]]\n")
    service = service_for(vault)
    page = service.read_graph(status="all", max_chars=8_000)
    assert [n.path for n in page.memories] == ["Hub.md"] and page.relations_truncated
    assert len(page.model_dump_json()) <= 8_000 and page.relations
    rest = service.read_graph(status="all", max_chars=8_000, cursor=page.next_cursor)
    assert [n.path for n in rest.memories] == ["Leaf.md"] and rest.next_cursor is None
