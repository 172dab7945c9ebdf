"""Read-modify-write never loses a person's edit, never leaves half a file, never leaves the vault."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
import time
from pathlib import Path

import pytest

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.errors import BeingWritten, Conflict, NoteFormatError, UnsafePath
from cortexgraph_vault.vault import files as files_module
from cortexgraph_vault.vault import store as store_module
from cortexgraph_vault.vault.durability import DURABILITY
from cortexgraph_vault.vault.files import TEMP_MARK, atomic_write, sweep_temp_files
from cortexgraph_vault.vault.layout import VaultLayout, among, safe_title, unique_name
from cortexgraph_vault.vault.lock import VaultLock
from cortexgraph_vault.vault.paths import safe_path
from cortexgraph_vault.vault.store import NoteStore
from tests.builders import path_at

NOTE = "---\nid: abc\nuse_count: 1\nmood: calm  # mine\n---\nBody line.\n"


@pytest.fixture
def store(tmp_path: Path) -> NoteStore:
    root = tmp_path / "vault"
    (root / "_stm").mkdir(parents=True)
    (root / "_stm" / "m.md").write_text(NOTE)
    return NoteStore(VaultLayout(root), VaultLock(root, tmp_path / "locks", timeout=5))


def bump(parsed):  # type: ignore[no-untyped-def]
    return {"use_count": int(parsed.frontmatter["use_count"]) + 1}


def test_a_hand_edit_made_between_read_and_write_survives(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.root / "_stm" / "m.md"
    real_update = store_module.minimal_update_parsed
    calls = {"n": 0}

    def person_types_meanwhile(text: str, changes, *parsed):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 1:
            with open(path, "a") as fh:
                fh.write("A line the person added.\n")
            os.utime(path, ns=(1, 1))
        return real_update(text, changes, *parsed)

    monkeypatch.setattr(store_module, "minimal_update_parsed", person_types_meanwhile)
    store.update_fields("_stm/m.md", bump)
    text = path.read_text()
    assert calls["n"] == 2
    assert text.endswith("Body line.\nA line the person added.\n")
    assert parse_note(text).frontmatter["use_count"] == 2
    assert "mood: calm  # mine" in text


def test_concurrent_increments_from_processes_are_all_counted(
    store: NoteStore, tmp_path: Path
) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [
        ctx.Process(target=_increment_many, args=(store.root, tmp_path / "locks", 25))
        for _ in range(4)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert parse_note((store.root / "_stm" / "m.md").read_text()).frontmatter["use_count"] == 101


def _increment_many(root: Path, locks: Path, n: int) -> None:
    s = NoteStore(VaultLayout(root), VaultLock(root, locks, timeout=30))
    for _ in range(n):
        s.update_fields("_stm/m.md", bump)


def test_expected_hash_mismatch_is_a_conflict_and_changes_nothing(store: NoteStore) -> None:
    with pytest.raises(Conflict) as info:
        store.update_fields("_stm/m.md", bump, expected_sha256="0" * 64)
    assert info.value.current_text == NOTE
    assert (store.root / "_stm" / "m.md").read_text() == NOTE


def test_bad_yaml_is_refused_with_the_file_named(store: NoteStore) -> None:
    bad = "---\nsource: chat: 2025\n---\nx\n"
    (store.root / "_stm" / "bad.md").write_text(bad)
    with pytest.raises(NoteFormatError, match=r"_stm/bad.md: .*YAML.*left untouched"):
        store.update_fields("_stm/bad.md", bump)
    assert (store.root / "_stm" / "bad.md").read_text() == bad


def test_non_utf8_is_refused(store: NoteStore) -> None:
    (store.root / "_stm" / "l.md").write_bytes(b"caf\xe9")
    with pytest.raises(NoteFormatError, match="not UTF-8"):
        store.update_fields("_stm/l.md", bump)
    assert (store.root / "_stm" / "l.md").read_bytes() == b"caf\xe9"


def test_create_never_replaces_and_picks_a_free_name(store: NoteStore) -> None:
    first = store.create("_stm", "m", "new\n")
    assert first.path == "_stm/m 2.md"
    assert (store.root / "_stm" / "m.md").read_text() == NOTE


def test_move_writes_new_then_removes_old(store: NoteStore) -> None:
    written, old = store.move("_stm/m.md", "memories", {"status": "promoted"})
    assert old == "_stm/m.md" and written.path == "memories/m.md"
    assert not (store.root / old).exists()
    assert "status: promoted" in (store.root / written.path).read_text()


@pytest.mark.parametrize(
    "rel", ["../x.md", "/etc/passwd", "_stm/../../x.md", ".git/config", "C:/x.md", ""]
)
def test_paths_that_leave_the_vault_are_refused(store: NoteStore, rel: str) -> None:
    with pytest.raises(UnsafePath):
        safe_path(store.root, rel)


def test_symlink_out_of_the_vault_is_refused(store: NoteStore, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret")
    (store.root / "_stm" / "link.md").symlink_to(outside)
    with pytest.raises(UnsafePath, match="outside the vault"):
        safe_path(store.root, "_stm/link.md")


def test_atomic_write_leaves_no_temp_file_and_sweep_clears_crash_litter(tmp_path: Path) -> None:
    target = tmp_path / "_stm" / "n.md"
    atomic_write(target, b"hello")
    assert [p.name for p in target.parent.iterdir()] == ["n.md"]
    litter = target.parent / f".n.md{TEMP_MARK}dead"
    litter.write_text("half")
    os.utime(litter, (0, 0))
    assert sweep_temp_files(tmp_path, ["_stm"]) == 1
    assert not litter.exists()


def test_titles_become_safe_unique_file_names() -> None:
    assert safe_title('What: a "test"? [x] #1 / y') == "What a test x 1 y"
    assert unique_name("Note", among({"note.md", "note 2.md"})) == "Note 3.md"
    assert len(safe_title("word " * 100)) <= 80


def _append_just_before_our_rename(
    monkeypatch: pytest.MonkeyPatch, path: Path, extra: bytes, times: int = 1
) -> list[int]:
    """An editor appending to the note after our last check, before our rename: the
    window no check can close, since their write goes into the file we are replacing."""
    real_replace = os.replace
    done: list[int] = []

    def replace(src, dst, **fds):  # type: ignore[no-untyped-def]
        if path_at(dst, fds.get("dst_dir_fd")) == path and len(done) < times:
            with open(path, "ab") as fh:
                fh.write(extra)
            done.append(1)
        return real_replace(src, dst, **fds)

    monkeypatch.setattr(files_module.os, "replace", replace)
    return done


def test_a_line_appended_in_the_instant_before_our_rename_is_kept(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.root / "_stm" / "m.md"
    done = _append_just_before_our_rename(monkeypatch, path, b"Typed at that instant.\n")
    written = store.update_fields("_stm/m.md", bump)
    text = path.read_text()
    assert done == [1]
    assert text.endswith("Body line.\nTyped at that instant.\n")
    assert parse_note(text).frontmatter["use_count"] == 2  # counted once, not twice
    assert written.text == text and "mood: calm  # mine" in text


def test_a_late_write_that_breaks_the_note_is_put_back_exactly(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.root / "_stm" / "m.md"
    _append_just_before_our_rename(monkeypatch, path, b"\xff\xfe not text\n")
    with pytest.raises(NoteFormatError, match="not UTF-8"):
        store.update_fields("_stm/m.md", bump)
    assert path.read_bytes() == NOTE.encode() + b"\xff\xfe not text\n"  # theirs, not ours


def test_a_late_write_to_a_pinned_version_is_a_conflict_with_their_text(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.root / "_stm" / "m.md"
    pinned = hashlib.sha256(NOTE.encode()).hexdigest()
    _append_just_before_our_rename(monkeypatch, path, b"Theirs.\n")
    with pytest.raises(Conflict) as info:
        store.update_fields("_stm/m.md", bump, expected_sha256=pinned)
    assert path.read_text() == NOTE + "Theirs.\n"
    assert info.value.current_text.endswith("Theirs.\n")  # type: ignore[attr-defined]


def _save_in_place_across_our_rename(
    monkeypatch: pytest.MonkeyPatch, path: Path, buffer: bytes
) -> threading.Thread:
    """An editor saving in place whose truncate lands in the instant before our rename and
    whose write comes 50 ms later: meanwhile the note we replace is empty."""
    real_replace = os.replace
    editor: list[threading.Thread] = []

    def write_later(fd: int) -> None:
        time.sleep(0.05)
        os.write(fd, buffer)
        os.close(fd)

    def replace(src, dst, **fds):  # type: ignore[no-untyped-def]
        if path_at(dst, fds.get("dst_dir_fd")) == path and not editor:
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
            editor.append(threading.Thread(target=write_later, args=(fd,)))
            editor[0].start()
        return real_replace(src, dst, **fds)

    monkeypatch.setattr(files_module.os, "replace", replace)
    return editor


def test_an_editor_truncating_the_note_just_before_our_rename_never_empties_it(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.root / "_stm" / "m.md"
    editor = _save_in_place_across_our_rename(monkeypatch, path, NOTE.encode() + b"Saved.\n")
    store.update_fields("_stm/m.md", bump)
    assert path.read_text().strip(), "the note was emptied"
    editor[0].join()
    assert DURABILITY.settle()
    text = path.read_text()
    assert text.endswith("Body line.\nSaved.\n")  # the editor's save, merged in
    assert parse_note(text).frontmatter["use_count"] == 2 and "mood: calm  # mine" in text


def test_a_note_an_editor_is_saving_is_read_once_it_is_written(store: NoteStore) -> None:
    path = store.root / "_stm" / "m.md"
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)  # the editor's save has begun

    def finish() -> None:
        time.sleep(0.1)
        os.write(fd, NOTE.encode() + b"Saved.\n")
        os.close(fd)

    editor = threading.Thread(target=finish)
    editor.start()
    store.update_fields("_stm/m.md", bump)
    editor.join()
    text = path.read_text()
    assert text.endswith("Body line.\nSaved.\n")
    assert parse_note(text).frontmatter["use_count"] == 2


def test_a_note_held_open_for_writing_past_the_wait_is_refused_untouched(
    store: NoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "WRITER_WAIT", 0.05)
    path = store.root / "_stm" / "m.md"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        with pytest.raises(BeingWritten, match=r"_stm/m.md: another program is writing it"):
            store.update_fields("_stm/m.md", bump)
    finally:
        os.close(fd)
    assert path.read_text() == NOTE


def test_a_cr_only_note_is_refused_untouched_never_given_a_second_block(
    store: NoteStore,
) -> None:
    path = store.root / "_stm" / "m.md"
    cr_only = NOTE.replace("\n", "\r").encode()
    path.write_bytes(cr_only)
    with pytest.raises(NoteFormatError, match=r"_stm/m.md: .*bare carriage return.*LF or CRLF"):
        store.update_fields("_stm/m.md", bump)
    assert path.read_bytes() == cr_only
