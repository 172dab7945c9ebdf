"""The watcher watches the vault's folders, not `.git/`, and follows folders made, renamed
and deleted while it runs (events alone: reconciliation is off) — with our own inotify
reader (Linux) and with watchdog (elsewhere, or where inotify is refused)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.index import folder_watches, inotify_watch
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.inotify_events import records
from cortexgraph_vault.index.watcher import VaultWatcher
from tests.index.index_helpers import catalog_of, wait_until

QUIET = 0.6  # past the watcher's debounce and max delay: a folder's re-scan is done


pytestmark = pytest.mark.usefixtures("watcher_backend")


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch, watcher_backend: str) -> list[str]:
    """Every path an event named, as the kernel (our reader) or watchdog reported it."""
    paths: list[str] = []
    if watcher_backend == "inotify":
        handle = inotify_watch.InotifyWatch._handle

        def spy_reader(self: inotify_watch.InotifyWatch, buf: bytes) -> None:
            for wd, _mask, _cookie, name in records(buf):
                folder = self.folders.get(wd, "?")
                paths.append(os.path.join(self.root, folder, os.fsdecode(name)))
            handle(self, buf)

        monkeypatch.setattr(inotify_watch.InotifyWatch, "_handle", spy_reader)
        return paths
    relative = VaultWatcher.relative

    def spy(self: VaultWatcher, path: bytes | str) -> str | None:
        paths.append(os.fsdecode(path))
        return relative(self, path)

    monkeypatch.setattr(VaultWatcher, "relative", spy)
    return paths


def watching(vault: Path) -> tuple[VaultCatalog, VaultWatcher]:
    catalog = catalog_of(vault)
    watcher = VaultWatcher(catalog, debounce=0.03, max_delay=0.2, reconcile_every=1000.0)
    watcher.start()
    return catalog, watcher


@pytest.fixture
def watched(link_vault: Path) -> Iterator[tuple[VaultCatalog, VaultWatcher]]:
    (link_vault / ".git" / "objects" / "ab").mkdir(parents=True)
    catalog, watcher = watching(link_vault)
    try:
        yield catalog, watcher
    finally:
        watcher.stop()


def found(catalog: VaultCatalog, rel: str) -> None:
    wait_until(lambda: catalog.note(rel) is not None, what=rel)


def test_a_commit_in_git_reaches_no_event_a_note_does(
    seen: list[str], watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    git = link_vault / ".git"
    for i in range(20):  # what a commit writes: objects, the index, a ref, a log
        (git / "objects" / "ab" / f"{i:038x}").write_bytes(b"blob")
    (git / "index").write_bytes(b"DIRC")
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "refs" / "heads" / "main").write_text("0" * 40)
    (link_vault / "Projects" / "After.md").write_text("# After\n\nwritten after the commit\n")
    found(catalog, "Projects/After.md")
    assert [p for p in seen if "/.git" in p] == []
    assert any(p.endswith("After.md") for p in seen)


def test_folders_made_renamed_and_remade_while_watching(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    (link_vault / "New").mkdir()
    time.sleep(QUIET)
    (link_vault / "New" / "A.md").write_text("# A\n\nfirst\n")
    (link_vault / "New" / "Deep").mkdir()
    time.sleep(QUIET)
    (link_vault / "New" / "Deep" / "B.md").write_text("# B\n\nsecond\n")
    found(catalog, "New/A.md")
    found(catalog, "New/Deep/B.md")

    os.rename(link_vault / "New", link_vault / "Renamed")
    found(catalog, "Renamed/A.md")
    time.sleep(QUIET)
    (link_vault / "Renamed" / "C.md").write_text("# C\n\nthird\n")
    (link_vault / "Renamed" / "A.md").write_text("# A\n\nxylophone\n")
    found(catalog, "Renamed/C.md")
    wait_until(lambda: bool(catalog.search_text(["xylophone"])[0]), what="the edit in A")
    assert catalog.note("New/A.md") is None

    shutil.rmtree(link_vault / "Renamed")
    wait_until(lambda: catalog.note("Renamed/C.md") is None, what="the deleted folder")
    (link_vault / "Renamed").mkdir()
    time.sleep(QUIET)
    (link_vault / "Renamed" / "D.md").write_text("# D\n\nfourth\n")
    found(catalog, "Renamed/D.md")
    # an existing folder, renamed away and back
    os.rename(link_vault / "Projects", link_vault / "Elsewhere")
    os.rename(link_vault / "Elsewhere", link_vault / "Projects")
    time.sleep(QUIET)
    (link_vault / "Projects" / "E.md").write_text("# E\n\nfifth\n")
    found(catalog, "Projects/E.md")


def test_past_the_folder_limit_the_whole_root_is_watched(
    monkeypatch: pytest.MonkeyPatch, link_vault: Path
) -> None:
    monkeypatch.setattr(folder_watches, "MAX_FOLDERS", 1)
    catalog, watcher = watching(link_vault)
    try:
        (link_vault / "Later").mkdir()
        time.sleep(QUIET)
        (link_vault / "Later" / "F.md").write_text("# F\n\nsixth\n")
        (link_vault / "Projects" / "G.md").write_text("# G\n\nseventh\n")
        found(catalog, "Later/F.md")
        found(catalog, "Projects/G.md")
    finally:
        watcher.stop()
