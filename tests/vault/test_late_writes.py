"""Words an editor writes into a note after our rename, through a descriptor it opened before
(so into the file we replaced), are found by the last look and merged into the note."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cortexgraph_vault.core.conflict_names import conflict_copy
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.vault import files as files_module
from cortexgraph_vault.vault import late_writes
from cortexgraph_vault.vault import store as store_module
from cortexgraph_vault.vault.durability import DURABILITY
from cortexgraph_vault.vault.late_writes import LATE_LOOK_SECONDS, last_look
from cortexgraph_vault.vault.layout import VaultLayout
from cortexgraph_vault.vault.lock import VaultLock
from cortexgraph_vault.vault.store import NoteStore
from tests.builders import path_at

NOTE = "---\nid: abc\nuse_count: 1\nmood: calm  # mine\n---\nBody line.\n"
REL = "_stm/m.md"


@pytest.fixture
def store(tmp_path: Path) -> NoteStore:
    root = tmp_path / "vault"
    (root / "_stm").mkdir(parents=True)
    (root / REL).write_text(NOTE)
    return NoteStore(VaultLayout(root), VaultLock(root, tmp_path / "locks", timeout=5))


def bump(parsed):  # type: ignore[no-untyped-def]
    return {"use_count": int(parsed.frontmatter["use_count"]) + 1}


def _opened_before(store: NoteStore, flags: int) -> int:
    return os.open(store.path(REL), os.O_WRONLY | flags)


@pytest.fixture
def opened_at_our_rename(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> Callable[[int], list[int]]:
    """Given open flags: the list that will hold the descriptor an editor opens on the note in
    the instant before our next rename (after our read and our check: a note open for writing
    is never read to be written back)."""

    def arm(flags: int) -> list[int]:
        opened: list[int] = []
        real_replace = os.replace

        def replace(src, dst, **fds):  # type: ignore[no-untyped-def]
            if path_at(dst, fds.get("dst_dir_fd")) == store.path(REL) and not opened:
                opened.append(_opened_before(store, flags))
            return real_replace(src, dst, **fds)

        monkeypatch.setattr(files_module.os, "replace", replace)
        return opened

    return arm


def _written_late(
    store: NoteStore,
    opened_at_our_rename: Callable[[int], list[int]],
    data: bytes,
    *,
    flags: int = os.O_APPEND,
    meanwhile: Callable[[int], object] = lambda editor: None,
) -> str:
    """An editor opens the note while we use the memory, just before our rename; then
    `meanwhile` runs (given the editor's descriptor); then the editor writes `data` into what
    it opened. The note once every late look and merge is done."""
    opened = opened_at_our_rename(flags)
    store.update_fields(REL, bump)
    (editor,) = opened
    try:
        meanwhile(editor)
        os.write(editor, data)
    finally:
        os.close(editor)
    assert DURABILITY.settle()
    return store.path(REL).read_text() if store.path(REL).exists() else ""


def test_a_line_appended_after_our_read_back_is_merged_into_the_note(
    store: NoteStore, opened_at_our_rename: Callable[[int], list[int]]
) -> None:
    text = _written_late(store, opened_at_our_rename, b"Typed a moment too late.\n")
    assert text.endswith("Body line.\nTyped a moment too late.\n")
    assert parse_note(text).frontmatter["use_count"] == 2  # our use, counted once
    assert "mood: calm  # mine" in text


def test_an_editor_saving_its_whole_buffer_late_keeps_its_text_and_our_count(
    store: NoteStore,
    opened_at_our_rename: Callable[[int], list[int]],
) -> None:
    # An editor's save: truncate and write the buffer it loaded before our change.
    text = _written_late(
        store,
        opened_at_our_rename,
        NOTE.replace("Body line.", "Body line, reworded.").encode(),
        flags=0,
        meanwhile=lambda fd: os.ftruncate(fd, 0),
    )
    assert "Body line, reworded.\n" in text and "Body line.\n" not in text
    assert parse_note(text).frontmatter["use_count"] == 2


def test_late_words_join_a_note_we_changed_again_meanwhile(
    store: NoteStore, opened_at_our_rename: Callable[[int], list[int]]
) -> None:
    def second_use(editor: int) -> None:  # before the last look at the first
        store.update_fields(REL, bump)

    text = _written_late(store, opened_at_our_rename, b"Late line.\n", meanwhile=second_use)
    assert text.endswith("Body line.\nLate line.\n")
    assert parse_note(text).frontmatter["use_count"] == 3


def test_a_note_nobody_wrote_late_is_not_written_again(store: NoteStore) -> None:
    store.update_fields(REL, bump)
    before = os.stat(store.path(REL))
    assert DURABILITY.settle()
    after = os.stat(store.path(REL))
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_late_words_to_a_note_removed_meanwhile_leave_the_vault_alone(
    store: NoteStore,
    opened_at_our_rename: Callable[[int], list[int]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    _written_late(
        store,
        opened_at_our_rename,
        b"Late line.\n",
        meanwhile=lambda fd: os.unlink(store.path(REL)),
    )
    assert not store.path(REL).exists()
    assert "moved or removed before words typed into it late" in caplog.text


def test_a_slow_editor_beside_a_busy_writer_loses_no_line(store: NoteStore) -> None:
    """An editor that opens the note, then takes its time (up to 20 ms) to write a line, while
    another thread uses the memory without pause: most of its lines land in a file we have
    already replaced and read back."""
    rng = random.Random(7)
    stop = threading.Event()
    uses = [0]

    def writer() -> None:
        while not stop.is_set():
            store.update_fields(REL, bump)
            uses[0] += 1

    thread = threading.Thread(target=writer)
    thread.start()
    lines = [f"Slow line {n}.\n" for n in range(60)]
    try:
        for line in lines:
            editor = _opened_before(store, os.O_APPEND)
            try:
                time.sleep(rng.uniform(0, 0.02))
                os.write(editor, line.encode())
            finally:
                os.close(editor)
    finally:
        stop.set()
        thread.join()
    assert DURABILITY.settle()
    text = store.path(REL).read_text()
    missing = [line for line in lines if line not in text]
    assert missing == [], _found_elsewhere(store.path(REL), missing)
    assert "<<<<<<<" not in text
    assert parse_note(text).frontmatter["use_count"] == 1 + uses[0]


def _found_elsewhere(note: Path, missing: list[str]) -> str:
    """Where lines missing from `note` are, if anywhere beside it (a conflict copy): a lost
    line and a line kept aside are different failures."""
    others = {p.name: p.read_text(errors="replace") for p in note.parent.iterdir()
              if p.is_file() and p != note}  # fmt: skip
    return f"not in the note: {[(m, [n for n, t in others.items() if m in t]) for m in missing]}"


def test_late_words_that_cannot_be_merged_in_time_are_kept_in_a_conflict_copy(
    store: NoteStore,
    opened_at_our_rename: Callable[[int], list[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(store_module, "LATE_ATTEMPTS", 0)  # the note "kept changing" every try
    _written_late(store, opened_at_our_rename, b"Late line.\n")
    copies = [p for p in store.path(REL).parent.iterdir() if p.name != "m.md"]
    assert [conflict_copy(f"_stm/{p.name}").original for p in copies] == [REL]  # type: ignore[union-attr]
    assert copies[0].read_text() == NOTE + "Late line.\n"
    assert parse_note(store.path(REL).read_text()).frontmatter["use_count"] == 2


def test_an_editor_that_keeps_the_note_open_is_looked_at_until_it_lets_go(
    store: NoteStore,
    opened_at_our_rename: Callable[[int], list[int]],
) -> None:
    # several looks while it still holds the note
    _written_late(
        store,
        opened_at_our_rename,
        b"Written after a long pause.\n",
        meanwhile=lambda fd: time.sleep(LATE_LOOK_SECONDS * 3),
    )
    assert store.path(REL).read_text().endswith("Body line.\nWritten after a long pause.\n")


def test_a_look_that_fails_closes_its_file_and_the_next_looks_still_run(tmp_path: Path) -> None:
    paths = [tmp_path / "a.md", tmp_path / "b.md"]
    for path in paths:
        path.write_text("x")
    fds = [os.open(path, os.O_RDONLY) for path in paths]
    ran: list[str] = []

    def broken() -> bool:
        raise RuntimeError("a bug in a look")

    def fine() -> bool:
        ran.append("b")
        return False

    DURABILITY.close_later(fds[0], broken)
    DURABILITY.close_later(fds[1], fine)
    assert DURABILITY.settle()
    assert ran == ["b"]
    assert not {str(path) for path in paths} & _open_files()


def _open_files() -> set[str]:
    found = set()
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # one closed meanwhile
            found.add(os.readlink(f"/proc/self/fd/{name}"))
    return found


def test_a_merge_of_late_words_is_let_go_once_it_ends(tmp_path: Path) -> None:
    # A daemon runs for weeks: each finished merge must not stay referenced until a settle.
    path = tmp_path / "m.md"
    path.write_bytes(b"late words\n")
    fd = os.open(path, os.O_RDONLY)
    kept: list[bytes] = []
    try:
        for _ in range(3):
            assert last_look(fd, b"before\n", lambda old, new, alone: kept.append(new))() is False
            for thread in threading.enumerate():
                if thread.name == "cgv-late-words":
                    thread.join(5)
    finally:
        os.close(fd)
    assert kept == [b"late words\n"] * 3
    assert not late_writes._KEEPERS
