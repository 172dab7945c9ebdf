"""Our inotify reader on a real vault: which folders it watches, what it reports, and how it
follows folders made, moved in, moved out and deleted, a lost queue and a refused watch."""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.index import inotify_watch
from cortexgraph_vault.index.catalog.vault_walk import ignored_name
from cortexgraph_vault.index.folder_watches import FolderWatches
from cortexgraph_vault.index.inotify_watch import InotifyWatch
from cortexgraph_vault.index.watcher import VaultWatcher
from cortexgraph_vault.vault.temp_names import TEMP_MARK, temp_path_for
from tests.index.index_helpers import catalog_of, wait_until

pytestmark = pytest.mark.skipif(
    not inotify_watch.inotify_available(), reason="inotify is Linux's (watchdog elsewhere)"
)


class Recorder:
    """What the reader tells the watcher, kept."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.files: set[str] = set()
        self.dirs: set[str] = set()
        self.overflows = 0
        self.errors: list[str] = []
        self.gate: threading.Event | None = None  # set: the next file event waits for it
        self.held = threading.Event()

    def note_event(self, rels: list[str], *, is_dir: bool, count: int = 1) -> None:
        gate, self.gate = self.gate, None
        if gate is not None and not is_dir:  # the reader's thread, held until the gate opens
            self.held.set()
            gate.wait(60)
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
def reading(link_vault: Path) -> Iterator[tuple[InotifyWatch, Recorder]]:
    recorder = Recorder()
    reader = InotifyWatch(str(link_vault), recorder, pause=0.01)
    reader.start()
    try:
        yield reader, recorder
    finally:
        reader.stop()
        reader.join(timeout=10)


def folders_of(root: Path) -> list[str]:
    """Every folder the vault reads (the walk's rule), symlinks not followed."""
    found = [""]
    for folder, subdirs, _ in os.walk(root):
        subdirs[:] = [
            d for d in subdirs
            if not ignored_name(d) and not os.path.islink(os.path.join(folder, d))
        ]  # fmt: skip
        found += [os.path.relpath(os.path.join(folder, d), root) for d in subdirs]
    return sorted(found)


def watched(reader: InotifyWatch, rel: str) -> bool:
    return rel in reader.watched_folders()


def test_every_folder_the_vault_reads_and_nothing_else(link_vault: Path, tmp_path: Path) -> None:
    (link_vault / ".git" / "objects" / "ab").mkdir(parents=True)
    (link_vault / ".obsidian" / "plugins").mkdir(parents=True)
    (link_vault / "Projects" / "Deep" / "Deeper").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (link_vault / "Linked").symlink_to(tmp_path / "elsewhere")
    recorder = Recorder()
    reader = InotifyWatch(str(link_vault), recorder)
    reader.start()
    try:
        assert reader.watched_folders() == folders_of(link_vault)
        assert "Projects/Deep/Deeper" in reader.watched_folders()
        assert not [f for f in reader.watched_folders() if f.startswith((".git", "Linked"))]
    finally:
        reader.stop()
        reader.join(timeout=10)
    assert reader._thread is None and reader._fd == -1  # the thread ended, its fds closed
    reader.stop()  # again: harmless
    reader.join()


def test_our_write_reports_the_note_and_never_its_temp_file(
    reading: tuple[InotifyWatch, Recorder], link_vault: Path
) -> None:
    _, recorder = reading
    note = link_vault / "_stm" / "Tea.md"
    for i in range(5):  # as vault/files.py writes: a temp file beside it, renamed over
        temp = temp_path_for(note)
        temp.write_text(f"tea {i}\n")
        os.replace(temp, note)
    (link_vault / "_stm" / ".Hidden.md").write_text("hidden\n")
    (link_vault / "Home.md").write_text("edited\n")
    wait_until(lambda: recorder.saw("Home.md") and recorder.saw("_stm/Tea.md"), what="both")
    assert recorder.files == {"_stm/Tea.md", "Home.md"}
    assert recorder.dirs == set() and recorder.errors == []
    assert not [p for p in recorder.files if TEMP_MARK in p]


def test_a_lone_edit_is_not_held_by_the_pause_of_a_busy_reader(link_vault: Path) -> None:
    recorder = Recorder()
    reader = InotifyWatch(str(link_vault), recorder, pause=60.0, busy_within=0.2)
    reader.start()
    try:
        for name in ("Lonely.md", "Home.md"):  # each after a quiet spell: read at once
            time.sleep(0.3)
            os.utime(link_vault / name)  # one event (IN_ATTRIB): one read
            wait_until(lambda name=name: recorder.saw(name), timeout=20, what=name)  # type: ignore[misc]
    finally:
        reader.stop()
        reader.join(timeout=10)  # the stop ends the pause too
    assert reader._thread is None


def test_a_folder_made_with_folders_inside_is_watched_all_the_way_down(
    reading: tuple[InotifyWatch, Recorder], link_vault: Path
) -> None:
    reader, recorder = reading
    (link_vault / "New" / "Deep" / "Deeper").mkdir(parents=True)
    (link_vault / "New" / "Deep" / "Deeper" / "Early.md").write_text("early\n")
    wait_until(lambda: watched(reader, "New/Deep/Deeper"), what="the deepest folder watched")
    # the watcher re-scans it (Early.md is found either way), after its watches are made
    wait_until(lambda: "New" in recorder.dirs, what="the folder to re-scan")
    (link_vault / "New" / "Deep" / "Deeper" / "Late.md").write_text("late\n")
    wait_until(lambda: recorder.saw("New/Deep/Deeper/Late.md"), what="a write in it")


def test_a_folder_renamed_moved_out_and_moved_in(
    reading: tuple[InotifyWatch, Recorder], link_vault: Path, tmp_path: Path
) -> None:
    reader, recorder = reading
    (link_vault / "Projects" / "Sub").mkdir()
    wait_until(lambda: watched(reader, "Projects/Sub"))
    os.rename(link_vault / "Projects", link_vault / "Work")
    wait_until(lambda: watched(reader, "Work/Sub"), what="the renamed folder watched")
    wait_until(lambda: {"Projects", "Work"} <= recorder.dirs, what="both folders to re-scan")
    assert not [f for f in reader.watched_folders() if f.startswith("Projects")]
    (link_vault / "Work" / "Sub" / "A.md").write_text("a\n")
    wait_until(lambda: recorder.saw("Work/Sub/A.md"), what="a write in the renamed folder")

    outside = tmp_path / "outside"
    outside.mkdir()
    os.rename(link_vault / "Work", outside / "Work")
    wait_until(lambda: not watched(reader, "Work"), what="the moved-out folder unwatched")
    assert not [f for f in reader.watched_folders() if f.startswith("Work")]
    (outside / "Work" / "Out.md").write_text("no longer the vault's\n")

    (outside / "Brought" / "Inner").mkdir(parents=True)
    os.rename(outside / "Brought", link_vault / "Brought")
    wait_until(lambda: watched(reader, "Brought/Inner"), what="the moved-in folder watched")
    (link_vault / "Brought" / "Inner" / "B.md").write_text("b\n")
    wait_until(lambda: recorder.saw("Brought/Inner/B.md"), what="a write in it")
    assert not [p for p in recorder.files if "Out.md" in p]
    assert len(reader.folders) == len(reader.by_folder)


def test_a_deleted_folder_is_forgotten_and_its_name_can_come_back(
    reading: tuple[InotifyWatch, Recorder], link_vault: Path
) -> None:
    reader, recorder = reading
    (link_vault / "Temp" / "Inside").mkdir(parents=True)
    wait_until(lambda: watched(reader, "Temp/Inside"))
    shutil.rmtree(link_vault / "Temp")
    wait_until(lambda: not watched(reader, "Temp") and not watched(reader, "Temp/Inside"),
               what="the deleted folders forgotten (IN_IGNORED)")  # fmt: skip
    assert len(reader.folders) == len(reader.by_folder)
    (link_vault / "Temp").mkdir()
    wait_until(lambda: watched(reader, "Temp"))
    (link_vault / "Temp" / "Again.md").write_text("again\n")
    wait_until(lambda: recorder.saw("Temp/Again.md"), what="a write in the new folder")
    assert "Temp" in recorder.dirs


def test_a_lost_queue_rewatches_and_asks_for_a_full_walk(link_vault: Path) -> None:
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if limit > 200_000:
        pytest.skip(f"max_queued_events is {limit}: too many files to overflow it here")
    recorder = Recorder()
    reader = InotifyWatch(str(link_vault), recorder, pause=0.01)
    reader.start()
    gate = recorder.gate = threading.Event()
    try:
        (link_vault / "Trigger.md").write_text("holds the reader while we flood\n")
        wait_until(recorder.held.is_set, what="the reader held")
        flood = link_vault / "_stm"
        for i in range(limit + 100):
            os.close(os.open(flood / f".f{i}", os.O_CREAT | os.O_WRONLY, 0o644))
        (link_vault / "Lost").mkdir()  # its event cannot be queued
        gate.set()
        wait_until(lambda: recorder.overflows >= 1, timeout=30, what="the overflow")
        assert watched(reader, "Lost")  # found by the walk after the overflow
        (link_vault / "Lost" / "Found.md").write_text("found\n")
        wait_until(lambda: recorder.saw("Lost/Found.md"), timeout=15, what="a write in it")
    finally:
        gate.set()
        reader.stop()
        reader.join(timeout=10)


def test_a_refused_watch_is_reported_and_the_rest_still_watched(
    reading: tuple[InotifyWatch, Recorder], link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, recorder = reading
    monkeypatch.setattr(inotify_watch, "_libc", _Refusing(inotify_watch._inotify(), b"Refused"))
    (link_vault / "Refused").mkdir()
    wait_until(lambda: bool(recorder.errors), what="the refusal reported")
    assert "Refused: not watched (No space left on device)" in recorder.errors[0]
    assert not watched(reader, "Refused") and "Refused" in recorder.dirs
    (link_vault / "Projects" / "Still.md").write_text("still watched\n")
    wait_until(lambda: recorder.saw("Projects/Still.md"))


def test_the_watcher_falls_back_to_watchdog_where_inotify_is_refused(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(self: InotifyWatch) -> None:
        raise OSError(errno.EMFILE, "inotify_init1: Too many open files")

    monkeypatch.setattr(InotifyWatch, "start", refused)
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, max_delay=0.2, reconcile_every=1000.0)
    watcher.start()
    try:
        assert isinstance(watcher.backend, FolderWatches)
        (link_vault / "Projects" / "Via watchdog.md").write_text("# W\n\nwombat\n")
        wait_until(lambda: bool(catalog.search_text(["wombat"])[0]), what="the new note")
    finally:
        watcher.stop()


def test_the_watcher_walks_the_vault_after_a_lost_queue(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, max_delay=0.2, reconcile_every=1000.0)
    watcher.start()
    try:
        assert isinstance(watcher.backend, InotifyWatch)
        walks = watcher.state.reconciliations
        (link_vault / "Unreported.md").write_text("# U\n\nnumbat\n")  # as if its event was lost
        watcher.note_overflow()
        wait_until(lambda: watcher.state.reconciliations == walks + 1, what="the full walk")
        assert catalog.note("Unreported.md") is not None
        wait_until(lambda: watcher.pending() == 0)
    finally:
        watcher.stop()


class _Refusing:
    """libc's inotify, refusing a watch on any path holding `word` as the watch limit does."""

    def __init__(self, real: inotify_watch._Libc, word: bytes) -> None:
        self.real, self.word = real, word

    def inotify_init1(self, flags: int) -> int:
        return self.real.inotify_init1(flags)

    def inotify_add_watch(self, fd: int, path: bytes, mask: int) -> int:
        if self.word in path:
            ctypes.set_errno(errno.ENOSPC)
            return -1
        return self.real.inotify_add_watch(fd, path, mask)

    def inotify_rm_watch(self, fd: int, wd: int) -> int:
        return self.real.inotify_rm_watch(fd, wd)


def test_a_big_folder_moved_out_is_never_seen_half_dropped(
    reading: tuple[InotifyWatch, Recorder], link_vault: Path, tmp_path: Path
) -> None:
    reader, _ = reading
    for i in range(300):
        (link_vault / "Big" / f"Sub{i:03}").mkdir(parents=True)
    wait_until(lambda: len([f for f in reader.watched_folders() if f.startswith("Big")]) == 301)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.rename(link_vault / "Big", outside / "Big")
    counts = set()  # how many of its folders were watched, each time we looked
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and 0 not in counts:
        counts.add(len([f for f in reader.watched_folders() if f.startswith("Big")]))
    assert 0 in counts and counts <= {301, 0}  # all of them, then none: never some and some
