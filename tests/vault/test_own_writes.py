"""A change's own write, recorded without reading it back, and the fewer system calls of a
change: what was written is what the index holds, and anyone's write after ours is seen."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.errors import LockTimeout
from cortexgraph_vault.handlers.lifecycle import gc_and_promotion
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault.files import read_fd
from cortexgraph_vault.vault.lock import VaultLock
from cortexgraph_vault.vault.temp_names import temp_path_for
from tests.index.index_helpers import words_found
from tests.reliability.vault_audit import memory_vault

FIRST = "00000000-0000-4000-8000-000000000000"


def service_over(tmp_path: Path) -> tuple[MemoryService, Path, str]:
    vault = tmp_path / "vault"
    rel = memory_vault(vault, 1, with_git=False)[FIRST]
    config = load_config({"vault": str(vault), "now": "2026-12-01T12:00:00Z"})
    return MemoryService(config), vault, rel


def test_a_touch_is_indexed_as_written_and_its_stamp_is_of_our_bytes(tmp_path: Path) -> None:
    service, vault, rel = service_over(tmp_path)
    engine = service.engine
    written = engine.store.update_fields(rel, lambda parsed: {"use_count": 7})
    st = os.lstat(vault / rel)
    assert written.stamp.st is not None
    assert (written.stamp.st.st_ino, written.stamp.size) == (st.st_ino, len(written.data))
    recorded = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    assert recorded.memory is not None and recorded.memory.use_count == 7
    assert (recorded.size, recorded.mtime_ns, recorded.ctime_ns) == (
        st.st_size, st.st_mtime_ns, st.st_ctime_ns,
    )  # fmt: skip
    # what a read of the file gives, field for field
    assert engine.catalog.reload(rel) is recorded


def test_an_append_right_after_our_rename_is_indexed_not_taken_for_ours(tmp_path: Path) -> None:
    service, vault, rel = service_over(tmp_path)
    engine = service.engine
    written = engine.store.update_fields(rel, lambda parsed: {"use_count": 2})
    with (vault / rel).open("a", encoding="utf-8") as note:
        note.write("The person's line, typed at that very moment.\n")
    recorded = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    assert "typed at that very moment" in recorded.body
    assert recorded.memory is not None and recorded.memory.use_count == 2


def test_a_same_size_replace_by_rename_after_ours_is_indexed(tmp_path: Path) -> None:
    """An editor that saves by rename, with as many bytes as ours and the same mtime: only
    the inode tells it from our write."""
    service, vault, rel = service_over(tmp_path)
    engine = service.engine
    written = engine.store.update_fields(rel, lambda parsed: {"use_count": 3})
    theirs = written.text.replace("use_count: 3", "use_count: 9").encode()
    assert len(theirs) == len(written.data)
    other = vault / "_stm" / ".editor-save.tmp"
    other.write_bytes(theirs)
    assert written.stamp.st is not None
    os.utime(other, ns=(written.stamp.st.st_atime_ns, written.stamp.st.st_mtime_ns))
    os.replace(other, vault / rel)
    recorded = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    assert recorded.memory is not None and recorded.memory.use_count == 9


def test_search_finds_a_touched_memory_by_its_words_and_an_updated_one_by_its_new_words(
    tmp_path: Path,
) -> None:
    service, _, _ = service_over(tmp_path)
    saved = service.save("Saffron risotto needs a slow hand and warm stock.", title="Risotto")
    for _ in range(3):
        service.touch(saved.memory_id)
    found = service.search_unified("saffron risotto")
    assert saved.memory_id in [r.id for r in found.results]
    assert saved.path in words_found(service.engine.catalog.text, ["saffron"])
    service.update(saved.memory_id, content="Paella wants a wide pan and no stirring.")
    assert saved.memory_id in [r.id for r in service.search_unified("paella").results]
    words, path = service.engine.catalog.text, saved.path
    assert path in words_found(words, ["paella"]) and path not in words_found(words, ["stock"])
    assert len(words) == len(service.engine.catalog.notes())  # each note once


def test_a_read_of_a_file_that_delivers_in_pieces_is_read_to_its_end() -> None:
    """A short read is taken for the end only when it completes the size stat'ed."""
    read_end, write_end = os.pipe()
    data = b"x" * 300 + b"y" * 200

    def deliver() -> None:
        os.write(write_end, data[:300])
        time.sleep(0.05)
        os.write(write_end, data[300:])
        os.close(write_end)

    writer = threading.Thread(target=deliver)
    writer.start()
    try:
        assert read_fd(read_end, size=len(data)) == data
    finally:
        writer.join()
        os.close(read_end)


def test_a_read_of_a_file_that_grew_since_its_stat_reads_the_growth(tmp_path: Path) -> None:
    path = tmp_path / "grown.md"
    path.write_bytes(b"a" * 100)
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        with path.open("ab") as fh:
            fh.write(b"b" * 20_000)  # more than one read asks for
        assert read_fd(fd, size=size) == b"a" * 100 + b"b" * 20_000
        assert read_fd(fd, size=size, offset=0) == b"a" * 100 + b"b" * 20_000
    finally:
        os.close(fd)


def test_a_lock_file_removed_between_changes_is_opened_anew(tmp_path: Path) -> None:
    """A lock file removed between holds (a cleared cache) must not leave this process
    locking a file nobody else can see."""
    ours = VaultLock(tmp_path / "vault", tmp_path / "locks", timeout=1)
    with ours.held():
        pass
    ours.path.unlink()
    other = VaultLock(tmp_path / "vault", tmp_path / "locks", timeout=0.2)
    with ours.held():
        assert ours.path.exists()
        with pytest.raises(LockTimeout), other.held():
            pass
    with other.held():  # and let go of after
        pass


def test_temp_names_differ_and_carry_this_process(tmp_path: Path) -> None:
    names = {temp_path_for(tmp_path / "note.md").name for _ in range(200)}
    assert len(names) == 200
    assert all(f"-{os.getpid()}-" in name for name in names)


def test_no_snapshot_is_due_before_the_stamp_plus_the_interval(tmp_path: Path) -> None:
    stamp = tmp_path / "stamp"
    assert not gc_and_promotion.not_due_yet(stamp)  # never looked at: look
    gc_and_promotion.looked(stamp, time.time(), 60)
    assert gc_and_promotion.not_due_yet(stamp)
    gc_and_promotion.looked(stamp, time.time() - 3600, 60)  # an older look moves nothing back
    assert gc_and_promotion.not_due_yet(stamp)
    other = tmp_path / "other"
    gc_and_promotion.looked(other, time.time() - 120, 60)
    assert not gc_and_promotion.not_due_yet(other)


def test_an_editor_save_by_rename_between_our_read_and_write_is_kept(tmp_path: Path) -> None:
    """The write checks the descriptor it read the note from: a note replaced since (an
    editor that saves by rename) is a different file, read again and changed as it is."""
    from cortexgraph_vault.vault import store as store_module

    service, vault, rel = service_over(tmp_path)
    real = store_module.minimal_update_parsed
    calls = {"n": 0}

    def editor_saves_meanwhile(text, changes, *parsed):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 1:
            other = vault / "_stm" / ".editor.tmp"
            other.write_text(text + "Their line, saved by rename.\n", encoding="utf-8")
            os.replace(other, vault / rel)
        return real(text, changes, *parsed)

    store_module.minimal_update_parsed = editor_saves_meanwhile  # type: ignore[assignment]
    try:
        service.engine.store.update_fields(rel, lambda parsed: {"use_count": 5})
    finally:
        store_module.minimal_update_parsed = real  # type: ignore[assignment]
    text = (vault / rel).read_text(encoding="utf-8")
    assert calls["n"] == 2
    assert text.endswith("Their line, saved by rename.\n") and "use_count: 5" in text


def test_changes_leave_no_descriptor_open(tmp_path: Path) -> None:
    service, _, rel = service_over(tmp_path)
    saved = service.save("A note to touch many times.", title="Touched")
    service.touch(saved.memory_id)  # the lock file, opened once and kept
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(30):
        service.touch(saved.memory_id)
        service.engine.store.update_fields(rel, lambda parsed: {})  # nothing to change
    with pytest.raises(Exception, match="no such note"):
        service.engine.store.update_fields("_stm/Missing.md", lambda parsed: {"use_count": 1})
    from cortexgraph_vault.vault.durability import DURABILITY

    assert DURABILITY.settle()
    assert len(os.listdir("/proc/self/fd")) <= before
