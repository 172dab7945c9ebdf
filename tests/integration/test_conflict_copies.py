"""File-sync conflict copies of a memory (Syncthing, Dropbox, Nextcloud, iCloud) merged back."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.integration.clones import a_memory, fields, git, seed_vault, service

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TEA = "3f1c9a0e-0000-4000-8000-0000000000aa"
NOTE = "_stm/Tea.md"
COPIES = {
    "syncthing": "_stm/Tea.sync-conflict-20261201-101500-ABCDEF1.md",
    "dropbox": "_stm/Tea (Maya's conflicted copy 2026-12-01).md",
    "nextcloud": "_stm/Tea (conflicted copy 2026-12-01 101500).md",
    "nextcloud, no date": "_stm/Tea (conflicted copy).md",
    "icloud": "_stm/Tea 2.md",
}


def used(uses: int, last_used: str, body: str = "I prefer green tea.\n") -> str:
    return a_memory(TEA, uses=uses, body=body).replace(
        "last_used: 2026-11-30T10:00:00Z", f"last_used: {last_used}"
    )


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = seed_vault(tmp_path / "vault", {NOTE: a_memory(TEA, uses=5)})
    git(root, "init", "-q", "-b", "main")
    service(root, NOW).init_git()
    return root


@pytest.mark.parametrize("kind", sorted(COPIES))
def test_a_conflict_copy_is_merged_into_its_memory_in_one_commit(vault: Path, kind: str) -> None:
    commits = int(git(vault, "rev-list", "--count", "HEAD").stdout)
    (vault / NOTE).write_text(used(7, "2026-12-01T09:00:00Z"))
    (vault / COPIES[kind]).write_text(used(9, "2026-12-01T10:00:00Z"))
    s = service(vault, NOW)
    [memory] = s.open([TEA]).memories
    assert memory.use_count == 5 + 2 + 4
    assert not (vault / COPIES[kind]).exists()
    assert str(fields(vault / NOTE)["last_used"]).startswith("2026-12-01 10:00")
    assert int(git(vault, "rev-list", "--count", "HEAD").stdout) == commits + 1
    changed = git(vault, "show", "--name-only", "--format=%s", "HEAD").stdout.splitlines()
    assert changed[0] == f"merge conflict copy {COPIES[kind]} into {NOTE}"
    assert changed[2:] == [NOTE]  # the copy was never committed: its removal is no change
    assert git(vault, "status", "--porcelain").stdout == ""
    assert not any(TEA in p.reason for p in s.vault_status().unparseable)


def test_the_base_is_the_version_both_grew_from_even_after_a_snapshot(vault: Path) -> None:
    (vault / NOTE).write_text(used(7, "2026-12-01T09:00:00Z"))
    git(vault, "commit", "-qam", "snapshot of this device's uses")
    (vault / COPIES["syncthing"]).write_text(used(9, "2026-12-01T10:00:00Z"))
    git(vault, "add", COPIES["syncthing"])
    git(vault, "commit", "-qm", "obsidian-git committed the copy")
    service(vault, NOW).open([TEA])
    assert fields(vault / NOTE)["use_count"] == 11
    changed = git(vault, "show", "--name-status", "--format=", "HEAD").stdout.splitlines()
    assert sorted(changed) == sorted([f"M\t{NOTE}", f"D\t{COPIES['syncthing']}"])


def test_a_copy_of_the_merged_note_counts_from_the_merge_commit(vault: Path) -> None:
    """A used it 3 times, B twice; a git sync merged them (5 + 5 = 10, the merge commit's
    version); then a Syncthing copy of that merged note, used 3 more times elsewhere, arrives.
    The base is the merge commit's version, not one side's: 13 uses, not 13 + a side's own."""
    git(vault, "switch", "-q", "-c", "b")
    (vault / NOTE).write_text(used(7, "2026-12-01T08:00:00Z"))
    git(vault, "commit", "-qam", "B used it twice")
    git(vault, "switch", "-q", "main")
    (vault / NOTE).write_text(used(8, "2026-12-01T09:00:00Z"))
    git(vault, "commit", "-qam", "A used it 3 times")
    git(vault, "-c", "merge.cortexgraph.driver=false", "merge", "-q", "--no-commit", "b",
        check=False)  # fmt: skip
    (vault / NOTE).write_text(used(10, "2026-12-01T09:00:00Z"))  # as our merge driver makes it
    git(vault, "add", NOTE)
    git(vault, "commit", "-qm", "sync: merged B")
    assert len(git(vault, "rev-list", "--parents", "-n", "1", "HEAD").stdout.split()) == 3
    (vault / COPIES["syncthing"]).write_text(used(13, "2026-12-01T11:00:00Z"))
    service(vault, NOW).open([TEA])
    assert fields(vault / NOTE)["use_count"] == 13
    assert str(fields(vault / NOTE)["last_used"]).startswith("2026-12-01 11:00")
    assert not (vault / COPIES["syncthing"]).exists()


def test_after_the_merge_this_devices_own_snapshot_is_not_the_base(vault: Path) -> None:
    """After the merge (10) this device used it once more and committed that (11); the copy
    grew from the merge commit (10 → 13): 10 + 1 + 3 = 14."""
    git(vault, "switch", "-q", "-c", "b")
    (vault / NOTE).write_text(used(7, "2026-12-01T08:00:00Z"))
    git(vault, "commit", "-qam", "B used it twice")
    git(vault, "switch", "-q", "main")
    (vault / NOTE).write_text(used(8, "2026-12-01T09:00:00Z"))
    git(vault, "commit", "-qam", "A used it 3 times")
    git(vault, "-c", "merge.cortexgraph.driver=false", "merge", "-q", "--no-commit", "b",
        check=False)  # fmt: skip
    (vault / NOTE).write_text(used(10, "2026-12-01T09:00:00Z"))
    git(vault, "add", NOTE)
    git(vault, "commit", "-qm", "sync: merged B")
    (vault / NOTE).write_text(used(11, "2026-12-01T10:00:00Z"))
    git(vault, "commit", "-qam", "snapshot: this device used it once more")
    (vault / COPIES["syncthing"]).write_text(used(13, "2026-12-01T11:00:00Z"))
    service(vault, NOW).open([TEA])
    assert fields(vault / NOTE)["use_count"] == 14


def test_a_numbered_note_of_another_memory_is_not_a_copy(vault: Path) -> None:
    other = a_memory("another-id", uses=2, body="Tea with Maya on Friday.\n")
    (vault / "_stm/Tea 2.md").write_text(other)
    s = service(vault, NOW)
    assert s.open(["another-id"]).memories[0].use_count == 2
    assert (vault / "_stm/Tea 2.md").read_text() == other
    assert fields(vault / NOTE)["use_count"] == 5


def test_body_edits_in_both_are_kept_and_the_memory_flagged(vault: Path) -> None:
    (vault / NOTE).write_text(used(6, "2026-12-01T09:00:00Z", "I prefer sencha.\n"))
    (vault / COPIES["dropbox"]).write_text(used(6, "2026-12-01T10:00:00Z", "I prefer matcha.\n"))
    s = service(vault, NOW)
    [memory] = s.open([TEA]).memories
    text = (vault / NOTE).read_text()
    assert "sencha" in text and "matcha" in text and memory.use_count == 7
    assert any("merged with conflicting edits" in p for p in memory.problems)


def test_an_unmergeable_copy_is_reported_and_never_deleted(vault: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    broken = "---\nid: 3f1c9a0e-0000-4000-8000-0000000000aa\ntags: [oops\n---\nmy words\n"
    (vault / COPIES["syncthing"]).write_text(broken)
    before = (vault / NOTE).read_text()
    s = service(vault, NOW)
    s.open([TEA])
    assert (vault / COPIES["syncthing"]).read_text() == broken
    assert (vault / NOTE).read_text() == before
    assert "conflict copy of _stm/Tea.md left in place" in caplog.text
    assert any(p.path == COPIES["syncthing"] for p in s.vault_status().unparseable)


def test_outside_git_the_two_way_rule_takes_the_larger_count(tmp_path: Path) -> None:
    vault = seed_vault(tmp_path / "plain", {NOTE: used(7, "2026-12-01T09:00:00Z")})
    (vault / COPIES["nextcloud"]).write_text(used(9, "2026-12-01T10:00:00Z"))
    service(vault, NOW).open([TEA])
    assert fields(vault / NOTE)["use_count"] == 9
    assert not (vault / COPIES["nextcloud"]).exists()


def test_the_watcher_merges_a_copy_that_arrives_while_running(vault: Path) -> None:
    s = service(vault, NOW)
    s.engine.start_watcher(debounce=0.05)
    try:
        (vault / NOTE).write_text(used(7, "2026-12-01T09:00:00Z"))
        (vault / COPIES["syncthing"]).write_text(used(9, "2026-12-01T10:00:00Z"))
        deadline = time.monotonic() + 20
        while (vault / COPIES["syncthing"]).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not (vault / COPIES["syncthing"]).exists()
        assert fields(vault / NOTE)["use_count"] == 11
    finally:
        s.engine.stop_watcher()
