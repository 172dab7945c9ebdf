"""MemoryService operations, in-process over a real vault and real git."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import NoReturn

import pytest

from cortexgraph_vault import engine as engine_module
from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.errors import (
    Ambiguous,
    Conflict,
    GitError,
    InvalidArgument,
    NotFound,
    SecretRefused,
)
from cortexgraph_vault.index.catalog import vault_catalog
from cortexgraph_vault.index.catalog.early_walk import EarlyWalk
from cortexgraph_vault.service import MemoryService
from tests.builders import frontmatter_of, service_for
from tests.conftest import NOW, git


def test_save_writes_a_round_tripping_note_and_commits_it(git_vault: Path) -> None:
    s = service_for(git_vault)
    content = 'Maya said: "ship it" — #not-a-heading, source: chat: 2025\nSecond line.'
    result = s.save(content, tags=["DB Prefs", "Machine.Learning/PyTorch"], source="chat: 2025")
    note = frontmatter_of(git_vault / result.path)
    assert note["id"] == result.id and note["use_count"] == 1 and note["status"] == "active"
    assert note["tags"] == ["db_prefs", "machine-learning/pytorch"]
    assert note["source"] == "chat: 2025"
    assert parse_note((git_vault / result.path).read_text()).body == content + "\n"
    assert result.score == pytest.approx(1.0)
    assert git(git_vault, "log", "-1", "--format=%s").startswith("save:")
    assert git(git_vault, "status", "--porcelain") == ""


def test_secrets_are_refused_unless_forced(git_vault: Path) -> None:
    s = service_for(git_vault)
    before = set((git_vault / "_stm").iterdir())
    with pytest.raises(SecretRefused, match="AWS access key"):
        s.save("the key is AKIAIOSFODNN7EXAMPLE")
    assert set((git_vault / "_stm").iterdir()) == before
    assert s.save("the key is AKIAIOSFODNN7EXAMPLE", force=True).path.startswith("_stm/")


def test_open_by_id_prefix_path_title_and_clear_misses(git_vault: Path) -> None:
    s = service_for(git_vault)
    memory_id = frontmatter_of(git_vault / "_stm/Uses Neovim.md")["id"]
    for ref in (memory_id, memory_id[:8], "_stm/Uses Neovim.md", "uses neovim"):
        assert s.open([ref]).memories[0].path == "_stm/Uses Neovim.md"
    result = s.open(["nothing like this"])
    assert result.memories == [] and result.not_found == ["nothing like this"]
    with pytest.raises(NotFound, match="search"):
        s.touch("no-such-memory")
    (git_vault / "_archive").mkdir()
    (git_vault / "_archive" / "Uses Neovim.md").write_text("An older memory with the same title.\n")
    with pytest.raises(Ambiguous) as info:
        s.open(["Uses Neovim"])
    assert len(info.value.candidates) == 2
    assert s.touch("Uses Neovim").path == "_stm/Uses Neovim.md"  # only active ones can be touched


def test_touch_boost_and_observe_cross_domain(git_vault: Path) -> None:
    s = service_for(git_vault)
    before = frontmatter_of(git_vault / "_stm/Uses Neovim.md")
    t = s.touch("Uses Neovim", boost_strength=True)
    assert t.use_count == before["use_count"] + 1 and t.strength == pytest.approx(
        before["strength"] + 0.1
    )
    assert t.new_score > t.old_score
    o = s.observe(["Uses Neovim", "missing"], context_tags=["cooking", "family"])
    assert o.reinforced == 1 and o.not_found == ["missing"]
    assert o.memories[0].cross_domain and o.memories[0].review_count == 1
    after = frontmatter_of(git_vault / "_stm/Uses Neovim.md")
    assert after["strength"] == pytest.approx(before["strength"] + 0.15)
    assert after["cross_domain_count"] == 1
    same_domain = s.observe(["Uses Neovim"], context_tags=list(after["tags"]))
    assert not same_domain.memories[0].cross_domain


@pytest.mark.parametrize(("threshold", "cross"), [(0.3, True), (0.2, False)])
def test_cross_domain_threshold_is_a_setting(
    git_vault: Path, threshold: float, cross: bool
) -> None:
    s = service_for(git_vault, cross_domain_threshold=threshold)
    before = frontmatter_of(git_vault / "_stm/Uses Neovim.md")
    # tags [tools, programming] against [tools, cooking, family]: Jaccard 1/4 = 0.25
    o = s.observe(["Uses Neovim"], context_tags=["tools", "cooking", "family"])
    assert o.memories[0].cross_domain is cross
    after = frontmatter_of(git_vault / "_stm/Uses Neovim.md")
    assert after.get("cross_domain_count", 0) == (1 if cross else 0)
    assert after["strength"] == pytest.approx(before["strength"] + (0.05 if cross else 0))


def test_search_considers_every_memory_and_filters(git_vault: Path) -> None:
    s = service_for(git_vault)
    for i in range(60):
        s.save(f"Filler memory number {i} about the weather")
    hits = s.search("ramen").results
    assert [h.title for h in hits] == ["Ramen place near the office"]
    assert s.search("zebra quantum xylophone").results == []
    typo = s.search("postgers").results
    assert "Postgres over MySQL" in [h.title for h in typo]
    assert all("preferences" in h.tags for h in s.search(tags=["preferences"], top_k=50).results)
    page = s.search("weather", top_k=10, page=2, page_size=25)
    assert page.pagination and page.pagination.total_count == 60 and page.count == 25
    assert all(len(h.content) <= 11 for h in s.search("weather", preview_length=10).results)
    with pytest.raises(InvalidArgument, match="top_k"):
        s.search("x", top_k=0)


def test_update_with_expected_hash_and_conflict(git_vault: Path) -> None:
    s = service_for(git_vault)
    view = s.open(["Uses Neovim"]).memories[0]
    result = s.update(
        "Uses Neovim", content="Maya uses Helix now.", expected_hash=view.content_hash
    )
    assert result.changed == ["content"]
    assert (
        parse_note((git_vault / "_stm/Uses Neovim.md").read_text()).body == "Maya uses Helix now.\n"
    )
    with pytest.raises(Conflict) as info:
        s.update("Uses Neovim", tags=["x"], expected_hash=view.content_hash)
    assert "Helix" in info.value.current_text


def test_delete_archives_by_default_and_remove_needs_git(
    git_vault: Path, sample_vault: Path
) -> None:
    s = service_for(git_vault)
    d = s.delete("Uses Neovim")
    assert d.archived_path == "_archive/Uses Neovim.md"
    assert frontmatter_of(git_vault / d.archived_path)["status"] == "archived"
    assert s.restore("Uses Neovim").path == "_stm/Uses Neovim.md"
    removed = s.delete("Cat named Pixel", mode="remove")
    assert not (git_vault / removed.path).exists() and removed.commit
    assert s.restore(removed.memory_id).path == "_stm/Cat named Pixel.md"


def test_remove_without_git_refuses_and_keeps_the_note(tmp_path: Path) -> None:
    from cortexgraph_vault.vault.sample import copy_sample_vault

    vault = copy_sample_vault(tmp_path / "plain", NOW)
    s = service_for(vault)
    with pytest.raises(GitError, match="cortexgraph-vault init"):
        s.delete("Uses Neovim", mode="remove")
    assert (vault / "_stm/Uses Neovim.md").exists()
    with pytest.raises(GitError, match="not a git repository"):
        s.gc(dry_run=False)
    assert s.gc(dry_run=True).total_affected >= 3


def test_relations_are_links_and_not_duplicated(git_vault: Path) -> None:
    s = service_for(git_vault)
    first = s.relate("Uses Neovim", "Curious about Rust", "supports", strength=0.5)
    again = s.relate("Uses Neovim", "Curious about Rust", "supports")
    assert first.created and not again.created and first.relation.id == again.relation.id
    note = frontmatter_of(git_vault / "_stm/Uses Neovim.md")
    assert note["supports"] == ["[[Curious about Rust]]"]
    assert note["supports_meta"] == {"Curious about Rust": "strength=0.5"}
    target = s.open(["Curious about Rust"]).memories[0]
    assert any(r.relation_type == "supports" for r in target.relations.incoming)  # type: ignore[union-attr]
    with pytest.raises(NotFound):
        s.relate("Uses Neovim", "nope", "related")
    with pytest.raises(InvalidArgument, match="relation_type"):
        s.relate("Uses Neovim", "Curious about Rust", "likes")


def test_gc_limit_skip_paths_and_archive(git_vault: Path) -> None:
    s = service_for(git_vault)
    preview = s.gc()
    lowest = preview.candidates[0]
    assert [c.score for c in preview.candidates] == sorted(c.score for c in preview.candidates)
    skipped = s.gc(dry_run=False, limit=2, skip_paths=[lowest.path])
    assert skipped.removed_count == 2 and lowest.path not in [c.path for c in skipped.candidates]
    assert any(sk.path == lowest.path for sk in skipped.skipped)
    assert (git_vault / lowest.path).exists()
    archived = s.gc(dry_run=False, archive_instead=True)
    assert archived.archived_count >= 1
    assert all((git_vault / "_archive" / Path(c.path).name).exists() for c in archived.candidates)


def test_promote_by_id_force_and_refusal(git_vault: Path) -> None:
    s = service_for(git_vault)
    with pytest.raises(InvalidArgument, match="not a promotion candidate"):
        s.promote("Uses Neovim")
    forced = s.promote("Uses Neovim", force=True)
    assert forced.moved == {"_stm/Uses Neovim.md": "memories/Uses Neovim.md"}
    note = frontmatter_of(git_vault / "memories/Uses Neovim.md")
    assert note["status"] == "promoted" and note["promoted_at"]
    assert s.promote("Prefers TypeScript", dry_run=True).candidates_found == 1


def test_a_fresh_save_is_not_promotable_and_a_use_the_same_day_does_not_change_that(
    git_vault: Path,
) -> None:
    s = service_for(git_vault)
    saved = s.save("Maya's favourite tea is genmaicha.")
    assert saved.id not in [c.id for c in s.promote(auto_detect=True, dry_run=True).candidates]
    later = service_for(git_vault, now=NOW + timedelta(hours=2))
    later.touch(saved.id)
    assert saved.id not in [c.id for c in later.promote(auto_detect=True, dry_run=True).candidates]
    next_day = service_for(git_vault, now=NOW + timedelta(hours=26))
    next_day.touch(saved.id)
    assert saved.id in [c.id for c in next_day.promote(auto_detect=True, dry_run=True).candidates]


def test_snapshot_commits_gathered_touches_only(git_vault: Path) -> None:
    s = service_for(git_vault)
    (git_vault / "Home.md").write_text("a person's unsaved work\n")
    s.touch("Uses Neovim")
    s.touch("Cat named Pixel")
    snap = s.snapshot()
    assert sorted(snap.paths) == ["_stm/Cat named Pixel.md", "_stm/Uses Neovim.md"]
    assert git(git_vault, "status", "--porcelain").strip() == "M Home.md"
    assert s.snapshot().commit is None


def test_history_follows_a_memory_across_promotion_and_restore_at_commit(git_vault: Path) -> None:
    s = service_for(git_vault)
    s.update("Uses Neovim", content="Maya uses Helix now.")
    s.promote("Uses Neovim", force=True)
    h = s.history("Uses Neovim")
    assert [c.change for c in h.commits][:2] == ["renamed", "modified"]
    first = h.commits[-1].sha
    old = s.version("Uses Neovim", first)
    assert "Neovim" in old.text
    with pytest.raises(InvalidArgument, match="exists"):
        s.restore("Uses Neovim", commit=first)


def test_hand_written_note_gets_an_id_only_when_written(git_vault: Path) -> None:
    (git_vault / "_stm" / "By hand.md").write_text("Maya likes hiking in autumn.\n")
    s = service_for(git_vault)
    view = s.open(["By hand"]).memories[0]
    assert view.id is None and view.use_count == 1
    assert (git_vault / "_stm" / "By hand.md").read_text() == "Maya likes hiking in autumn.\n"
    touched = s.touch("By hand")
    text = (git_vault / "_stm" / "By hand.md").read_text()
    assert (
        touched.id
        and f"id: {touched.id}" in text
        and text.endswith("---\nMaya likes hiking in autumn.\n")
    )


def test_a_memory_named_in_nfd_is_found_by_its_title_typed_in_nfc(git_vault: Path) -> None:
    """macOS writes file names decomposed; a person types the title composed."""
    s = service_for(git_vault)
    (git_vault / "_stm" / "Cafe\u0301 cre\u0300me.md").write_text("Likes it strong.\n")
    assert s.open(["Café Crème"]).memories[0].path == "_stm/Cafe\u0301 cre\u0300me.md"
    assert s.touch("café crème").path == "_stm/Cafe\u0301 cre\u0300me.md"


def test_a_save_killed_before_its_commit_is_recorded_by_the_next_start(git_vault: Path) -> None:
    import os
    import time

    from cortexgraph_vault.engine.commits import CommitTicket

    s = service_for(git_vault)
    # The process dies between write and commit, before it could keep its commit (a version
    # that kept none; tests/reliability/test_kept_commits.py kills one that did).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(s.engine, "commit_soon", lambda *a, **k: CommitTicket(done=True))
        saved = s.save("Maya's passport expires in March.")
    assert git(git_vault, "status", "--porcelain").startswith("??")
    fresh = git_vault / "_stm" / "Written just now.md"
    fresh.write_text("A save of another process, still on its way to its commit.\n")
    old = time.time() - 600
    os.utime(git_vault / saved.path, (old, old))
    service_for(git_vault)  # the next start
    assert git(git_vault, "log", "-1", "--format=%s").startswith("record: 1 ")
    assert git(git_vault, "status", "--porcelain", "--", saved.path) == ""
    assert git(git_vault, "status", "--porcelain", "--", str(fresh)) != ""  # too young: theirs


def _search_paths(svc: MemoryService, query: str) -> set[str]:
    return {hit.path for hit in svc.search(query=query, status="all", top_k=50).results}


def test_a_service_sees_an_edit_made_right_after_it_started(sample_vault: Path) -> None:
    svc = service_for(sample_vault)
    (sample_vault / "_stm" / "Zeppelin.md").write_text("A zeppelin over the harbour.\n")
    assert _search_paths(svc, "zeppelin") == {"_stm/Zeppelin.md"}


def test_a_one_call_service_reads_its_start_walk_once(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI's service: its one call reads the vault as the start's walk found it; a call
    after that walks again and sees what changed."""
    monkeypatch.setattr(engine_module, "START_WALK_TRUSTED", 600.0)  # however slow the machine
    svc = MemoryService(load_config({"vault": str(sample_vault)}), clock=lambda: NOW, one_call=True)
    (sample_vault / "_stm" / "Zeppelin.md").write_text("A zeppelin over the harbour.\n")
    assert _search_paths(svc, "zeppelin") == set()
    assert _search_paths(svc, "zeppelin") == {"_stm/Zeppelin.md"}


def test_a_call_asked_before_the_start_walk_reads_that_walk_however_late_it_runs(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search a client sent while the stdio server was opening the vault: the start's walk
    saw the vault after it was asked, so it answers from that walk even after a pause; a call
    asked after the walk began walks again as any other."""
    monkeypatch.setattr(engine_module, "START_WALK_TRUSTED", 0.0)  # any call is after a pause
    asked = time.monotonic()
    svc = MemoryService(load_config({"vault": str(sample_vault)}), clock=lambda: NOW)
    (sample_vault / "_stm" / "Zeppelin.md").write_text("A zeppelin over the harbour.\n")
    svc.engine.trust_start_walk(asked)
    assert _search_paths(svc, "zeppelin") == set()
    svc.engine.trust_start_walk(time.monotonic())
    assert _search_paths(svc, "zeppelin") == {"_stm/Zeppelin.md"}


def test_a_one_call_service_asked_after_a_pause_walks_again(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "START_WALK_TRUSTED", 0.0)  # any call is after a pause
    svc = MemoryService(load_config({"vault": str(sample_vault)}), clock=lambda: NOW, one_call=True)
    (sample_vault / "_stm" / "Zeppelin.md").write_text("A zeppelin over the harbour.\n")
    assert _search_paths(svc, "zeppelin") == {"_stm/Zeppelin.md"}


def _one_call(vault: Path, **kw: object) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault)}), clock=lambda: NOW, one_call=True, **kw)  # type: ignore[arg-type]


@pytest.mark.skipif(sys.platform != "linux", reason="the early walk is forked on Linux only")
def test_a_one_call_service_takes_the_walk_begun_early_and_sees_what_changed_since_the_cache(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI begins the vault's walk before it imports the service; the service takes it,
    without walking again, and still sees a note edited and one added after the cache."""
    _one_call(sample_vault)  # leaves the cache
    stm = sample_vault / "_stm"
    edited = sorted(stm.glob("*.md"))[0]
    edited.write_text(edited.read_text("utf-8") + "\nAlso about zeppelins.\n", "utf-8")
    (stm / "Zeppelin.md").write_text("A zeppelin over the harbour.\n")
    walk = EarlyWalk(sample_vault.resolve())

    def walked_again(*args: object) -> NoReturn:
        raise AssertionError("the vault was walked again")

    monkeypatch.setattr(vault_catalog, "walk_vault", walked_again)  # in this process only
    svc = _one_call(sample_vault, early_walk=walk)
    assert svc.engine.index_cache.loaded_at_start
    assert _search_paths(svc, "zeppelin") == {"_stm/Zeppelin.md", f"_stm/{edited.name}"}


@pytest.mark.skipif(sys.platform != "linux", reason="the early walk is forked on Linux only")
def test_a_walk_begun_before_a_left_write_was_repaired_is_not_taken(sample_vault: Path) -> None:
    """A move a killed process left half done is finished at the start, after the early walk
    looked: the note moved away is no longer in the vault, so not in the answers either."""
    stm = sample_vault / "_stm"
    (stm / "Zeppelin.md").write_text("A zeppelin over the harbour.\n")
    journal = _one_call(sample_vault).engine.journal.path  # and leaves the cache, with it
    shutil.copy(stm / "Zeppelin.md", stm / "Zeppelin moved.md")
    sha = hashlib.sha256((stm / "Zeppelin.md").read_bytes()).hexdigest()
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.write_text(json.dumps({"kind": "move", "from": "_stm/Zeppelin.md",
                                   "to": "_stm/Zeppelin moved.md", "from_sha": sha, "to_sha": sha}))  # fmt: skip
    walk = EarlyWalk(sample_vault.resolve())
    svc = _one_call(sample_vault, early_walk=walk)
    assert not (stm / "Zeppelin.md").exists()  # the move was finished
    assert svc.engine.index_cache.loaded_at_start
    assert _search_paths(svc, "zeppelin") == {"_stm/Zeppelin moved.md"}
