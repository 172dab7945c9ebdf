"""The watcher's file events (watchdog): which folders are watched (the vault's, not `.git/`),
how folders made, renamed, moved in, moved out and deleted while it runs are followed (events
alone: reconciliation is off), our writes reported as their note and never their temp file,
and what the watcher is told of a lost event queue and of a folder refused a watch."""

from __future__ import annotations

import errno
import os
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from watchdog.events import FileSystemEvent
from watchdog.observers import inotify_c

from cortexgraph_vault.index import folder_watches
from cortexgraph_vault.index.catalog import VaultCatalog
from cortexgraph_vault.index.folder_watches import FolderWatches, PathEvents
from cortexgraph_vault.index.vault_walk import ignored_name
from cortexgraph_vault.index.watcher import VaultWatcher
from cortexgraph_vault.vault.temp_names import TEMP_MARK, temp_path_for
from tests.index.index_helpers import catalog_of, wait_until

QUIET = 0.6  # past the watcher's debounce and max delay: a folder's re-scan is done
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's inotify")


class Recorder:
    """What the events tell the watcher, kept."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self.lock = threading.Lock()
        self.files: set[str] = set()
        self.dirs: set[str] = set()
        self.overflows = 0
        self.errors: list[str] = []

    relative = VaultWatcher.relative

    def note_event(self, rels: list[str], *, is_dir: bool) -> None:
        with self.lock:
            (self.dirs if is_dir else self.files).update(rels)

    def note_overflow(self) -> None:
        self.overflows += 1

    def note_error(self, message: str) -> None:
        self.errors.append(message)

    def saw(self, rel: str) -> bool:
        with self.lock:
            return rel in self.files


@pytest.fixture
def recorded(link_vault: Path) -> Iterator[tuple[FolderWatches, Recorder]]:
    recorder = Recorder(link_vault)
    watches = FolderWatches(recorder, str(link_vault))
    watches.start()
    try:
        yield watches, recorder
    finally:
        watches.stop()


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path an event named, as watchdog handed it over."""
    paths: list[str] = []
    dispatch = PathEvents.dispatch

    def spy(self: PathEvents, event: FileSystemEvent) -> None:
        paths.append(os.fsdecode(event.src_path))
        dispatch(self, event)

    monkeypatch.setattr(PathEvents, "dispatch", spy)
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


def test_every_top_folder_the_vault_reads_and_nothing_else(
    link_vault: Path, tmp_path: Path
) -> None:
    (link_vault / ".git" / "objects").mkdir(parents=True)
    (link_vault / ".obsidian" / "plugins").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (link_vault / "Linked").symlink_to(tmp_path / "elsewhere")
    watches = FolderWatches(Recorder(link_vault), str(link_vault))
    watches.start()
    try:
        expected = sorted(
            e.name for e in os.scandir(link_vault)
            if e.is_dir(follow_symlinks=False) and not ignored_name(e.name)
        )  # fmt: skip
        assert (
            sorted(watches.by_folder)
            == expected
            == ["Areas", "Daily", "Projects", "_stm", "assets"]
        )
        assert not watches.whole_root
    finally:
        watches.stop()
    assert not watches.observer.is_alive()
    watches.stop()  # again: harmless


def test_our_write_reports_the_note_and_never_its_temp_file(
    recorded: tuple[FolderWatches, Recorder], link_vault: Path
) -> None:
    _, recorder = recorded
    note = link_vault / "_stm" / "Tea.md"
    for i in range(5):  # as vault/files.py writes: a temp file beside it, renamed over
        temp = temp_path_for(note)
        temp.write_text(f"tea {i}\n")
        os.replace(temp, note)
    (link_vault / "_stm" / ".Hidden.md").write_text("hidden\n")
    (link_vault / "Home.md").write_text("edited\n")
    wait_until(lambda: recorder.saw("Home.md") and recorder.saw("_stm/Tea.md"), what="both")
    time.sleep(QUIET)  # anything else would have come by now
    assert recorder.files == {"_stm/Tea.md", "Home.md"}
    assert recorder.dirs == set() and recorder.errors == [] and recorder.overflows == 0
    assert not [p for p in recorder.files if TEMP_MARK in p]


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
    assert [p for p in seen if "/.git/" in p] == []
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


def test_a_folder_made_with_folders_inside_is_watched_all_the_way_down(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path
) -> None:
    catalog, _ = watched
    for top in ("New", "Projects/New"):  # a folder of its own at the top, and one below
        deepest = link_vault / top / "Deep" / "Deeper"
        deepest.mkdir(parents=True)
        (deepest / "Early.md").write_text("# Early\n\nbefore its watch\n")
        found(catalog, f"{top}/Deep/Deeper/Early.md")  # by the folder's re-scan
        time.sleep(QUIET)
        (deepest / "Late.md").write_text("# Late\n\nafter its watch\n")
        found(catalog, f"{top}/Deep/Deeper/Late.md")  # by the new folder's events


def test_folders_moved_out_and_moved_in(
    watched: tuple[VaultCatalog, VaultWatcher], link_vault: Path, tmp_path: Path
) -> None:
    catalog, watcher = watched
    outside = tmp_path / "outside"
    for i in range(30):
        (link_vault / "Big" / f"Sub{i:02}").mkdir(parents=True)
        (link_vault / "Big" / f"Sub{i:02}" / "N.md").write_text(f"# N\n\nnote {i}\n")
    found(catalog, "Big/Sub29/N.md")
    outside.mkdir()
    os.rename(link_vault / "Big", outside / "Big")
    os.rename(link_vault / "Projects", outside / "Projects")
    wait_until(
        lambda: not [n for n in catalog.notes() if n.path.startswith(("Big/", "Projects/"))],
        what="every note of the moved-out folders gone",
    )
    assert watcher.watches is not None and "Big" not in watcher.watches.by_folder

    (outside / "Brought" / "Inner").mkdir(parents=True)
    (outside / "Brought" / "Inner" / "Early.md").write_text("# Early\n\nbrought in\n")
    os.rename(outside / "Brought", link_vault / "Brought")
    os.rename(outside / "Projects", link_vault / "Areas" / "Projects")
    found(catalog, "Brought/Inner/Early.md")
    found(catalog, "Areas/Projects/Status.md")
    time.sleep(QUIET)
    (link_vault / "Brought" / "Inner" / "Late.md").write_text("# Late\n\nwritten in it\n")
    (link_vault / "Areas" / "Projects" / "Late.md").write_text("# Late\n\nwritten in it\n")
    (outside / "Big" / "Sub00" / "Out.md").write_text("# Out\n\nno longer the vault's\n")
    found(catalog, "Brought/Inner/Late.md")
    found(catalog, "Areas/Projects/Late.md")
    assert not [n.path for n in catalog.notes() if "Out.md" in n.path or "Big/" in n.path]


def test_past_the_folder_limit_the_whole_root_is_watched(
    monkeypatch: pytest.MonkeyPatch, link_vault: Path
) -> None:
    monkeypatch.setattr(folder_watches, "MAX_FOLDERS", 1)
    catalog, watcher = watching(link_vault)
    try:
        assert watcher.watches is not None and watcher.watches.whole_root
        (link_vault / "Later").mkdir()
        time.sleep(QUIET)
        (link_vault / "Later" / "F.md").write_text("# F\n\nsixth\n")
        (link_vault / "Projects" / "G.md").write_text("# G\n\nseventh\n")
        found(catalog, "Later/F.md")
        found(catalog, "Projects/G.md")
    finally:
        watcher.stop()


@LINUX
def test_a_refused_watch_is_reported_and_the_rest_still_watched(
    recorded: tuple[FolderWatches, Recorder], link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    watches, recorder = recorded
    add_watch = inotify_c.inotify_add_watch

    def refusing(fd: int, path: bytes, mask: int) -> int:  # as the watch limit does
        if b"Refused" in path:
            inotify_c.ctypes.set_errno(errno.ENOSPC)
            return -1
        return add_watch(fd, path, mask)

    monkeypatch.setattr(inotify_c, "inotify_add_watch", refusing)
    (link_vault / "Refused").mkdir()  # a folder at the top: a watch of its own
    wait_until(lambda: bool(recorder.errors), what="the refusal reported")
    assert f"{link_vault / 'Refused'}: not watched" in recorder.errors[0]
    assert "Refused" not in watches.by_folder and "Refused" in recorder.dirs
    (link_vault / "Projects" / "Refused").mkdir()  # below: in watchdog's recursive watch
    wait_until(lambda: len(recorder.errors) >= 2, what="the second refusal reported")
    assert str(link_vault / "Projects" / "Refused") in recorder.errors[1]
    (link_vault / "Projects" / "Still.md").write_text("still watched\n")
    wait_until(lambda: recorder.saw("Projects/Still.md"))


@LINUX
def test_a_lost_queue_rewatches_and_walks_the_vault(link_vault: Path) -> None:
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if limit > 200_000:
        pytest.skip(f"max_queued_events is {limit}: too many files to overflow it here")
    catalog, watcher = watching(link_vault)
    try:
        walks = watcher.state.reconciliations
        assert watcher.watches is not None
        reader = watcher.watches.observer._inotify_fd  # the observer's reader of the kernel's
        with reader._lock:  # its thread waits: the kernel's queue fills, then overflows
            flood = link_vault / "_stm"
            for i in range(limit + 100):
                os.close(os.open(flood / f".f{i}", os.O_CREAT | os.O_WRONLY, 0o644))
            (link_vault / "Lost").mkdir()  # their events cannot be queued
            (link_vault / "Projects" / "Lost").mkdir()
            (link_vault / "Unreported.md").write_text("# U\n\nnumbat\n")
        wait_until(lambda: watcher.state.reconciliations > walks, timeout=60, what="the walk")
        found(catalog, "Unreported.md")
        assert "Lost" in watcher.watches.by_folder
        assert not [e for e in watcher.state.errors if "overflow" in e]  # not an error
        time.sleep(QUIET)
        (link_vault / "Lost" / "Found.md").write_text("# F\n\nfound\n")
        (link_vault / "Projects" / "Lost" / "Found.md").write_text("# F\n\nfound\n")
        found(catalog, "Lost/Found.md")  # by events: the next walk is 1000 s away
        found(catalog, "Projects/Lost/Found.md")
    finally:
        watcher.stop()
