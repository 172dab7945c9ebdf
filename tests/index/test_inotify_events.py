"""Parsing a buffer of inotify events: what the watcher is asked to look at again (pure)."""

from __future__ import annotations

from cortexgraph_vault.index.inotify_events import (
    IN_ATTRIB,
    IN_CREATE,
    IN_DELETE,
    IN_DELETE_SELF,
    IN_IGNORED,
    IN_ISDIR,
    IN_MODIFY,
    IN_MOVED_FROM,
    IN_MOVED_TO,
    IN_Q_OVERFLOW,
    pack_event,
    parse_events,
    records,
)
from cortexgraph_vault.vault.temp_names import TEMP_MARK

ROOT, STM, DEEP = 1, 2, 3
FOLDERS = {ROOT: "", STM: "_stm", DEEP: "Projects/Deep"}
TEMP = f".Tea.md{TEMP_MARK}0a1b2c-4242-deadbeef".encode()


def our_write(wd: int, name: bytes, cookie: int = 7) -> bytes:
    """What one write of ours makes the kernel say: a temp file written and renamed over."""
    return b"".join((
        pack_event(wd, IN_CREATE, TEMP), pack_event(wd, IN_MODIFY, TEMP),
        pack_event(wd, IN_MODIFY, TEMP), pack_event(wd, IN_MOVED_FROM, TEMP, cookie),
        pack_event(wd, IN_MOVED_TO, name, cookie),
    ))  # fmt: skip


def test_our_write_is_one_path_and_its_temp_file_nothing() -> None:
    batch = parse_events(our_write(STM, b"Tea.md"), FOLDERS)
    assert batch.files == {"_stm/Tea.md"}
    assert batch.dirs == set() and batch.folder_moves == [] and not batch.overflow
    assert (batch.seen, batch.kept) == (5, 1)


def test_many_events_are_coalesced_per_path() -> None:
    buf = b"".join(our_write(STM, b"Tea.md", cookie=i) for i in range(50))
    buf += pack_event(ROOT, IN_MODIFY, b"Home.md") + pack_event(DEEP, IN_ATTRIB, b"Plan.md")
    batch = parse_events(buf, FOLDERS)
    assert batch.files == {"_stm/Tea.md", "Home.md", "Projects/Deep/Plan.md"}
    assert batch.seen == 252


def test_hidden_names_and_other_tools_folders_are_dropped() -> None:
    buf = b"".join((
        pack_event(ROOT, IN_CREATE | IN_ISDIR, b".obsidian"),
        pack_event(ROOT, IN_CREATE | IN_ISDIR, b"node_modules"),
        pack_event(ROOT, IN_MODIFY, b".hidden.md"),
        pack_event(STM, IN_MODIFY, b"Visible" + TEMP_MARK.encode() + b"x"),  # a mark, no dot
        pack_event(STM, IN_MODIFY, b"Kept.md"),
    ))  # fmt: skip
    batch = parse_events(buf, FOLDERS)
    assert batch.files == {"_stm/Kept.md"} and batch.dirs == set()


def test_folders_made_moved_and_deleted() -> None:
    buf = b"".join((
        pack_event(ROOT, IN_CREATE | IN_ISDIR, b"New"),
        pack_event(ROOT, IN_MOVED_FROM | IN_ISDIR, b"Projects", 9),
        pack_event(ROOT, IN_MOVED_TO | IN_ISDIR, b"Work", 9),
        pack_event(DEEP, IN_DELETE | IN_ISDIR, b"Gone"),
    ))  # fmt: skip
    batch = parse_events(buf, FOLDERS)
    assert batch.dirs == {"New", "Projects", "Work", "Projects/Deep/Gone"}
    assert batch.folder_moves == [(True, "New"), (False, "Projects"), (True, "Work")]
    assert batch.files == set() and batch.kept == 0 and batch.seen == 4


def test_overflow_ignored_watches_and_events_about_a_folder_itself() -> None:
    buf = b"".join((
        pack_event(-1, IN_Q_OVERFLOW),
        pack_event(DEEP, IN_DELETE_SELF),  # the folder itself: its parent's watch reports it
        pack_event(DEEP, IN_IGNORED),
        pack_event(99, IN_MODIFY, b"Unknown.md"),  # a watch dropped meanwhile
        pack_event(ROOT, IN_DELETE, b"Home.md"),
    ))  # fmt: skip
    batch = parse_events(buf, FOLDERS)
    assert batch.overflow and batch.ignored == [DEEP]
    assert batch.files == {"Home.md"} and batch.kept == 1 and batch.seen == 5


def test_names_that_are_not_utf8_and_padding_to_sixteen() -> None:
    exact = b"A" * 13 + b".md"  # 16 bytes: padded with a whole block of NULs
    buf = pack_event(ROOT, IN_CREATE, b"caf\xe9.md") + pack_event(ROOT, IN_CREATE, exact)
    assert parse_events(buf, FOLDERS).files == {"caf\udce9.md", exact.decode()}
    assert [name for *_, name in records(buf)] == [b"caf\xe9.md", exact]


def test_a_truncated_record_at_the_end_is_not_read() -> None:
    whole = pack_event(ROOT, IN_MODIFY, b"Home.md")
    cut = pack_event(ROOT, IN_MODIFY, b"Other.md")[:20]
    batch = parse_events(whole + cut, FOLDERS)
    assert batch.files == {"Home.md"} and batch.seen == 1
    assert parse_events(b"", FOLDERS).files == set()
