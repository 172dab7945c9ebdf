"""cluster_memories and consolidate_memories over a real vault and real git."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.errors import InvalidArgument, NotFound, Stale
from cortexgraph_vault.handlers.intelligence.shown_clusters import ClusterBook
from tests.conftest import NOW, git
from tests.consolidation.builders import (
    a_memory,
    body,
    changed_in,
    commit_all,
    commits,
    days,
    frontmatter,
    message_of,
    service_for,
)
from tests.mcp.mcp_session import vault_fingerprint

COFFEE_1 = "Maya takes oat milk in her coffee, never cow's milk."
COFFEE_2 = "Maya takes oat milk in coffee, never cow's milk."
COFFEE_3 = "maya takes oat milk in her coffee, never cow's milk"


@pytest.fixture
def dup_vault(tmp_path: Path) -> Path:
    """Three near-duplicate memories about coffee, two unrelated ones, a note linking one."""
    vault = tmp_path / "vault"
    a_memory(vault, "Oat milk in coffee", COFFEE_1, memory_id="coffee-1", created=NOW - days(20),
             last_used=NOW - days(5), use_count=3, strength=1.2, tags=["preferences", "food"],
             entities=["Maya"], related=["[[Cafe Aurora]]"])  # fmt: skip
    a_memory(vault, "Coffee with oat milk", COFFEE_2, memory_id="coffee-2", created=NOW - days(27),
             last_used=NOW - days(12), use_count=2, strength=1.0, tags=["preferences"],
             entities=["maya", "Oat milk"])  # fmt: skip
    a_memory(vault, "Oat milk again", COFFEE_3, memory_id="coffee-3", created=NOW - days(23),
             last_used=NOW - days(1), use_count=4, strength=1.5, tags=["preferences", "drinks"],
             entities=["Maya"])  # fmt: skip
    a_memory(vault, "Rust", "Maya is curious about Rust and its ownership model.", memory_id="rust")
    a_memory(vault, "Desk", "Borrowed a standing desk from Tomas until January.", memory_id="desk")
    (vault / "Daily.md").write_text(
        "Ordered [[Oat milk in coffee]] at the cafe.\n", encoding="utf-8"
    )
    (vault / "Cafe Aurora.md").write_text("A cafe.\n", encoding="utf-8")
    commit_all(vault)
    return vault


def coffee_cluster(vault: Path) -> str:
    result = service_for(vault).cluster()
    [cluster] = [c for c in result.clusters if "coffee-1" in c.memory_ids]
    assert sorted(cluster.memory_ids) == ["coffee-1", "coffee-2", "coffee-3"]
    assert cluster.suggested_action == "merge" and cluster.size == 3
    return cluster.id


def test_near_duplicates_merge_into_one_note_with_the_originals_archived_and_linked(
    dup_vault: Path,
) -> None:
    cid = coffee_cluster(dup_vault)
    before = commits(dup_vault)
    result = service_for(dup_vault).consolidate(cluster_id=cid, mode="apply")

    [done] = result.results
    assert result.success and result.merged_count == 1 and done.action == "merged"
    merged = dup_vault / done.new_path  # type: ignore[operator]
    assert done.new_path == "_stm/Coffee with oat milk (merged).md"  # named after the oldest
    fm = frontmatter(merged)
    assert fm["id"] == done.new_memory_id and fm["status"] == "active"
    assert sorted(fm["consolidated_from"]) == [
        "[[Coffee with oat milk]]",
        "[[Oat milk again]]",
        "[[Oat milk in coffee]]",
    ]
    assert fm["related"] == ["[[Cafe Aurora]]"]  # relations outside the cluster carry over
    # COFFEE_3 is contained in COFFEE_1; COFFEE_2 is not: the distinct texts, oldest first.
    assert body(merged) == COFFEE_2 + "\n\n" + COFFEE_1 + "\n"

    assert sorted(p.name for p in (dup_vault / "_stm").iterdir()) == [
        "Coffee with oat milk (merged).md", "Desk.md", "Rust.md",
    ]  # fmt: skip
    for old in ("Oat milk in coffee", "Coffee with oat milk", "Oat milk again"):
        archived = dup_vault / "_archive" / f"{old}.md"
        ofm = frontmatter(archived)
        assert ofm["status"] == "archived" and ofm["consolidated_into"] == [
            "[[Coffee with oat milk (merged)]]"
        ]
        assert parse_time(ofm["archived_at"]) == NOW
        assert done.archived[f"_stm/{old}.md"] == f"_archive/{old}.md"
    # The original text is intact in the archive, so nothing is lost.
    assert body(dup_vault / "_archive" / "Coffee with oat milk.md") == COFFEE_2 + "\n"

    after = commits(dup_vault)
    assert len(after) == len(before) + 1 and done.commit == after[0]
    assert changed_in(dup_vault) == sorted(
        [done.new_path, *done.archived, *done.archived.values()]  # type: ignore[list-item]
    )
    message = message_of(dup_vault)
    assert "Cortexgraph-Operation: consolidate" in message
    assert f"Cortexgraph-Cluster: {cid}" in message
    assert f"Cortexgraph-Merged-Into: {done.new_memory_id}" in message
    assert git(dup_vault, "status", "--porcelain") == ""


def test_the_merged_note_follows_the_merge_rules(dup_vault: Path) -> None:
    cid = coffee_cluster(dup_vault)
    s = service_for(dup_vault)
    preview = s.consolidate(cluster_id=cid).results[0].preview
    assert preview is not None
    done = s.consolidate(cluster_id=cid, mode="apply").results[0]
    fm = frontmatter(dup_vault / done.new_path)  # type: ignore[operator]
    cohesion = done.cohesion
    assert fm["strength"] == pytest.approx(min(2.0, 1.5 + min(0.5, 0.1 * cohesion * 3)), abs=1e-4)
    assert fm["use_count"] == 9
    assert parse_time(fm["created"]) == NOW - days(27)
    assert parse_time(fm["last_used"]) == NOW - days(1)
    assert fm["tags"] == ["preferences", "drinks", "food"]
    assert fm["entities"] == ["maya", "Oat milk"]
    assert preview.strength == fm["strength"] and preview.use_count == 9


def test_links_to_an_original_still_resolve_after_the_merge(dup_vault: Path) -> None:
    service_for(dup_vault).consolidate(cluster_id=coffee_cluster(dup_vault), mode="apply")
    s = service_for(dup_vault)
    graph = s.engine.fresh().graph
    targets = {e.target for e in graph.outgoing("Daily.md")}
    assert targets == {"_archive/Oat milk in coffee.md"}  # not dangling


def test_a_cluster_id_works_in_a_later_call_from_another_process(dup_vault: Path) -> None:
    cid = coffee_cluster(dup_vault)
    again = service_for(dup_vault).cluster()
    assert cid in {c.id for c in again.clusters}  # stable across runs
    fresh_service = service_for(dup_vault)  # nothing shared in memory with the first call
    preview = fresh_service.consolidate(cluster_id=cid)
    assert preview.results[0].action == "previewed" and preview.results[0].memory_ids


def test_a_stale_cluster_id_fails_naming_what_changed(dup_vault: Path) -> None:
    cid = coffee_cluster(dup_vault)
    s = service_for(dup_vault)
    s.update("coffee-2", content="Maya now drinks her coffee black.")
    s.delete("coffee-3", mode="archive")
    print_before = vault_fingerprint(dup_vault)
    with pytest.raises(Stale) as err:
        service_for(dup_vault).consolidate(cluster_id=cid, mode="apply")
    message = str(err.value)
    assert cid in message
    assert "Coffee with oat milk (coffee-2) was edited" in message
    assert "Oat milk again (coffee-3) is now archived" in message
    assert "Oat milk in coffee" not in message  # the unchanged member is not blamed
    assert vault_fingerprint(dup_vault) == print_before


def test_touching_a_member_does_not_make_the_cluster_stale(dup_vault: Path) -> None:
    cid = coffee_cluster(dup_vault)
    service_for(dup_vault).touch("coffee-1")
    result = service_for(dup_vault).consolidate(cluster_id=cid, mode="apply")
    assert result.merged_count == 1


def test_an_unknown_cluster_id_is_a_clear_error(dup_vault: Path) -> None:
    with pytest.raises(NotFound, match=r"no cluster has id 'cl-0000'.*Run cluster_memories again"):
        service_for(dup_vault).consolidate(cluster_id="cl-0000", mode="apply")


def test_bad_arguments_are_named(dup_vault: Path) -> None:
    s = service_for(dup_vault)
    with pytest.raises(
        InvalidArgument, match="mode: must be 'preview', 'apply' or 'link', got 'merge'"
    ):
        s.consolidate(cluster_id="x", mode="merge")
    with pytest.raises(InvalidArgument, match="give a cluster_id"):
        s.consolidate()
    with pytest.raises(InvalidArgument, match=r"threshold: must be at most 1, got 1\.5"):
        s.cluster(threshold=1.5)
    with pytest.raises(InvalidArgument, match="strategy"):
        s.cluster(strategy="kmeans")
    with pytest.raises(InvalidArgument, match="max_cluster_size"):
        s.cluster(max_cluster_size=1)


def test_duplicate_pairs_carry_a_cluster_id_that_consolidates_the_pair(dup_vault: Path) -> None:
    pairs = service_for(dup_vault).cluster(find_duplicates=True).duplicate_pairs
    assert pairs and all(p.similarity >= 0.88 for p in pairs)
    pair = pairs[0]
    assert set(pair.memory_ids) <= {"coffee-1", "coffee-2", "coffee-3"}
    done = service_for(dup_vault).consolidate(cluster_id=pair.cluster_id, mode="apply")
    assert sorted(done.results[0].memory_ids) == sorted(pair.memory_ids)


def test_preview_and_auto_detect_preview_change_nothing(dup_vault: Path) -> None:
    print_before = vault_fingerprint(dup_vault)
    s = service_for(dup_vault)
    result = s.consolidate(auto_detect=True, cohesion_threshold=0.75)
    assert [r.action for r in result.results] == ["previewed"]
    assert result.results[0].preview.content == COFFEE_2 + "\n\n" + COFFEE_1  # type: ignore[union-attr]
    s.consolidate(cluster_id=coffee_cluster(dup_vault))
    assert vault_fingerprint(dup_vault) == print_before


def test_link_mode_relates_the_members_once_in_one_commit(dup_vault: Path) -> None:
    cid = coffee_cluster(dup_vault)
    before = commits(dup_vault)
    result = service_for(dup_vault).consolidate(cluster_id=cid, mode="link")
    assert result.linked_count == 1 and result.results[0].relations_created == 3
    assert len(commits(dup_vault)) == len(before) + 1
    newest = frontmatter(dup_vault / "_stm" / "Oat milk in coffee.md")  # created last
    assert set(newest["related"]) == {
        "[[Cafe Aurora]]",
        "[[Coffee with oat milk]]",
        "[[Oat milk again]]",
    }
    assert "reason=same cluster" in newest["related_meta"]["Coffee with oat milk"]
    again = service_for(dup_vault).consolidate(cluster_id=cid, mode="link")
    assert again.results[0].relations_created == 0  # never duplicated
    assert len(commits(dup_vault)) == len(before) + 1


def test_a_failed_merge_puts_every_file_back(
    dup_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = coffee_cluster(dup_vault)
    s = service_for(dup_vault)
    print_before = vault_fingerprint(dup_vault)
    real_move = s.engine.store.move
    calls = {"n": 0}

    def failing_move(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        return real_move(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(s.engine.store, "move", failing_move)
    with pytest.raises(OSError):
        s.consolidate(cluster_id=cid, mode="apply")
    assert vault_fingerprint(dup_vault) == print_before
    assert not (dup_vault / "_archive").exists() or not any((dup_vault / "_archive").iterdir())


def test_a_cluster_id_still_works_when_the_cache_is_gone(dup_vault: Path) -> None:
    cid = coffee_cluster(dup_vault)
    ClusterBook(service_for(dup_vault).engine.root).path.unlink()
    done = service_for(dup_vault).consolidate(cluster_id=cid, mode="apply")
    assert done.merged_count == 1  # recomputed: ids derive from the members


def test_a_hand_made_note_without_an_id_can_be_merged(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    a_memory(vault, "Linear", "The team uses Linear for issue tracking, not Jira.", memory_id="lin")
    (vault / "_stm" / "Typed by hand.md").write_text(
        '---\nrelated: "[[Kestrel Labs]]"\n---\nOur team uses Linear for issue tracking, not Jira.\n',
        encoding="utf-8",
    )
    a_memory(vault, "Other", "Maya reads before bed and is currently reading Piranesi.")
    commit_all(vault)
    [cluster] = service_for(vault).cluster().clusters
    assert sorted(cluster.memory_ids) == ["_stm/Typed by hand.md", "lin"]
    done = service_for(vault).consolidate(cluster_id=cluster.id, mode="apply").results[0]
    archived = frontmatter(vault / "_archive" / "Typed by hand.md")
    assert archived["id"] and archived["status"] == "archived"
    assert frontmatter(vault / done.new_path)["related"] == ["[[Kestrel Labs]]"]  # type: ignore[operator]
