"""The real watcher (watchdog's events, debounced batches, the walk) keeps the index equal to a
fresh full index of the vault."""

from __future__ import annotations

import errno
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from watchdog.events import EventsLostEvent

from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.folder_watches import FolderWatches
from cortexgraph_vault.index.watcher import VaultWatcher
from cortexgraph_vault.vault.files import TEMP_MARK
from tests.index.index_helpers import (
    catalog_of,
    file_hashes,
    fresh_signature,
    signature,
    wait_until,
)

MEMORY_ID = "0b6a1f2e-5c3d-4e8f-9a7b-1c2d3e4f5a6b"


@pytest.fixture
def watched(link_vault: Path) -> Iterator[tuple[VaultCatalog, VaultWatcher]]:
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, max_delay=0.2)
    watcher.start()
    try:
        yield catalog, watcher
    finally:
        watcher.stop()


def settles(catalog: VaultCatalog, root: Path, timeout: float = 15.0) -> None:
    """The live index reaches exactly what a fresh index of the files on disk holds."""
    expected = fresh_signature(root)
    wait_until(lambda: signature(catalog) == expected, timeout, "the index to match the disk")


def test_an_edit_shows_up(watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path) -> None:
    catalog, _ = watched
    path = link_vault / "Edge.md"
    path.write_text(path.read_text() + "\nNow about [[Gamma]] and #freshtag xylophone.\n")
    wait_until(lambda: "xylophone" in catalog.text.postings_of("xylophone") or
               bool(catalog.search_text(["xylophone"])[0]), what="the new word")  # fmt: skip
    assert set(catalog.search_text(["xylophone"])[0]) == {"Edge.md"}
    assert "freshtag" in catalog.note("Edge.md").tags  # type: ignore[union-attr]
    settles(catalog, link_vault)


def test_a_changed_stamp_alone_shows_up(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    """A sync tool setting a note's mtime, bytes unchanged: the catalogue takes the stamp."""
    catalog, _ = watched
    stamp = 1_700_000_000 * 10**9
    os.utime(link_vault / "Edge.md", ns=(stamp, stamp))
    wait_until(lambda: catalog.note("Edge.md").mtime_ns == stamp, what="the new stamp")  # type: ignore[union-attr]
    settles(catalog, link_vault)


def test_create_and_delete(watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path) -> None:
    catalog, _ = watched
    (link_vault / "Gamma.md").write_text("# Gamma\n\nFinally written. Links [[Beta]].\n")
    wait_until(lambda: catalog.note("Gamma.md") is not None, what="Gamma.md")
    wait_until(lambda: "Gamma" not in catalog.graph.unresolved(), what="[[Gamma]] to resolve")
    (link_vault / "Lonely.md").unlink()
    wait_until(lambda: catalog.note("Lonely.md") is None, what="Lonely.md to go")
    settles(catalog, link_vault)


def test_a_renamed_memory_is_followed_by_its_id(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    assert catalog.memory_by_id(MEMORY_ID).path == "_stm/Prefers spaces.md"  # type: ignore[union-attr]
    os.rename(link_vault / "_stm" / "Prefers spaces.md", link_vault / "_stm" / "Spaces.md")
    wait_until(
        lambda: (m := catalog.memory_by_id(MEMORY_ID)) is not None and m.path == "_stm/Spaces.md",
        what="the memory at its new path",
    )
    assert catalog.note("_stm/Prefers spaces.md") is None
    assert [n.path for n in catalog.notes() if n.memory and n.memory.id == MEMORY_ID] == [
        "_stm/Spaces.md"
    ]
    settles(catalog, link_vault)


def test_a_move_into_a_new_folder(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    (link_vault / "Archive" / "2026").mkdir(parents=True)
    os.rename(link_vault / "Beta.md", link_vault / "Archive" / "2026" / "Beta.md")
    wait_until(
        lambda: (
            catalog.note("Archive/2026/Beta.md") is not None and catalog.note("Beta.md") is None
        ),
        what="the note at its new place only",
    )
    # [[Beta]] still finds it by name, wherever it went
    wait_until(lambda: "Home.md" in catalog.graph.backlinks("Archive/2026/Beta.md"))
    settles(catalog, link_vault)


def test_a_renamed_and_a_moved_folder(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    os.rename(link_vault / "Projects", link_vault / "Work")
    wait_until(
        lambda: (
            catalog.note("Work/Status.md") is not None
            and not [n.path for n in catalog.notes() if n.path.startswith("Projects/")]
        ),
        what="the renamed folder",
    )
    (link_vault / "Old").mkdir()
    os.rename(link_vault / "Areas", link_vault / "Old" / "Areas")
    wait_until(lambda: catalog.note("Old/Areas/Note.md") is not None, what="the moved folder")
    # a folder moved in from outside the vault, and one moved out
    outside = link_vault.parent / "outside"
    (outside / "Sub").mkdir(parents=True)
    (outside / "Sub" / "Imported.md").write_text("brought in [[Home]]\n")
    os.rename(outside / "Sub", link_vault / "Imported")
    os.rename(link_vault / "Daily", outside / "Daily")
    settles(catalog, link_vault)
    assert catalog.note("Imported/Imported.md") is not None
    assert catalog.note("Daily/2026-01-05.md") is None


def test_a_burst_of_a_thousand_changes_like_a_checkout(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    bulk = link_vault / "Bulk"
    bulk.mkdir()
    for i in range(500):
        (bulk / f"Note {i}.md").write_text(f"# Note {i}\n\nlinks [[Note {i + 1}]] word{i}\n")
    for i in range(0, 500, 2):  # 250 edits
        (bulk / f"Note {i}.md").write_text(f"# Note {i}\n\nrewritten [[Home]] edited{i}\n")
    for i in range(1, 500, 4):  # 125 deletions
        (bulk / f"Note {i}.md").unlink()
    for i in range(3, 500, 4):  # 125 renames
        os.rename(bulk / f"Note {i}.md", bulk / f"Renamed {i}.md")
    settles(catalog, link_vault, timeout=60)
    assert catalog.note("Bulk/Note 0.md") is not None
    found = catalog.search_text(["edited10"])[0]  # "edited100" matches too, as a prefix
    assert max(found, key=found.__getitem__) == "Bulk/Note 10.md"


def test_hidden_temp_and_other_tools_files_are_ignored(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    for rel in (".obsidian/workspace.md", ".trash/Old.md", ".git/x.md", ".hidden.md",
                f"_stm/.Note.md{TEMP_MARK}ab12", "Sub/.draft.md"):  # fmt: skip
        (link_vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (link_vault / rel).write_text("secret [[Home]]\n")
    (link_vault / "Marker.md").write_text("marker\n")
    wait_until(lambda: catalog.note("Marker.md") is not None, what="the marker note")
    assert not [n.path for n in catalog.notes() if "/." in "/" + n.path]
    assert catalog.search_text(["secret"])[0] == {}


def test_the_watcher_never_writes_to_the_vault(link_vault: Path) -> None:
    (link_vault / ".obsidian").mkdir()
    (link_vault / ".obsidian" / "app.json").write_text("{}")
    (link_vault / "Broken.md").write_bytes(b"---\nkey: [unclosed\n---\nbad yaml \xff\xfe\n")
    before = file_hashes(link_vault)
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03)
    watcher.start()
    try:
        catalog.search_text(["alpha"])
        catalog.graph.orphans()
        edited = link_vault / "Edge.md"
        edited.write_text("changed by a person\n")
        wait_until(lambda: bool(catalog.search_text(["person"])[0]), what="the edit")
    finally:
        watcher.stop()
    after = file_hashes(link_vault)
    assert after == {**before, "Edge.md": after["Edge.md"]}
    assert after["Edge.md"] != before["Edge.md"]
    problems = dict(catalog.problems())
    assert "Broken.md" in problems  # reported, left exactly as it was


def test_status_heartbeat_and_counts(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    _, watcher = watched
    (link_vault / "New.md").write_text("new\n")
    wait_until(lambda: watcher.state.batches >= 1, what="a batch")
    state = watcher.state
    assert watcher.running and state.running and state.events >= 1
    assert state.reconciliations >= 1 and state.last_reconcile_at is not None
    assert state.paths_checked >= 1 and state.last_batch_at is not None
    wait_until(lambda: state.heartbeat > 0)


def test_a_missed_change_is_found_by_reconciliation(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, reconcile_every=0.3)
    # changes made while nobody listened (before start) are caught by the walk at start
    (link_vault / "Before.md").write_text("made before the watcher started\n")
    watcher.start()
    try:
        assert catalog.note("Before.md") is not None
        # simulate lost events: the observer is stopped, files change, the timer walks
        watcher.watches.observer.stop()  # type: ignore[union-attr]
        (link_vault / "Unseen.md").write_text("nobody told the watcher\n")
        shutil.rmtree(link_vault / "Areas")
        settles(catalog, link_vault)
        assert watcher.state.reconciliations >= 2
    finally:
        watcher.stop()


def test_where_file_events_are_refused_the_walk_alone_keeps_up(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(self: object) -> None:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(FolderWatches, "start", refused)
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, reconcile_every=0.3)
    watcher.start()
    try:
        assert watcher.running and watcher.watches is None
        assert "file events refused" in watcher.state.errors[0]
        assert "inotify watch limit reached" in watcher.state.errors[0]
        (link_vault / "Walked.md").write_text("# W\n\nfound by the walk\n")
        settles(catalog, link_vault)
    finally:
        watcher.stop()


def test_lost_events_make_the_watcher_walk_the_vault(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, max_delay=0.2, reconcile_every=1000.0)
    watcher.start()
    try:
        assert watcher.watches is not None
        walks = watcher.state.reconciliations
        watcher.watches.observer.stop()  # events no longer come: this one is lost
        watcher.watches.observer.join(timeout=5)
        (link_vault / "Unreported.md").write_text("# U\n\nnumbat\n")
        # what watchdog says of the root's watch once the kernel's queue overflowed
        watcher.watches.handler.dispatch(EventsLostEvent(str(link_vault), is_directory=True))
        wait_until(lambda: watcher.state.reconciliations == walks + 1, what="the full walk")
        assert catalog.note("Unreported.md") is not None
        assert bool(catalog.search_text(["numbat"])[0])
        wait_until(lambda: watcher.pending() == 0)
    finally:
        watcher.stop()


def test_a_big_batch_leaves_what_it_built_frozen(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    import gc

    from cortexgraph_vault.index.gc_pause import SETTLE_AFTER

    catalog, _ = watched
    before = gc.get_freeze_count()
    try:
        bulk = link_vault / "Bulk"
        bulk.mkdir()
        for i in range(SETTLE_AFTER + 200):
            (bulk / f"Note {i}.md").write_text(f"# Note {i}\n\nword{i}\n")
        settles(catalog, link_vault, timeout=120)
        assert catalog.note(f"Bulk/Note {SETTLE_AFTER + 199}.md") is not None
        deadline = time.monotonic() + 60  # settled just after the batch is searchable
        while gc.get_freeze_count() <= before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()
