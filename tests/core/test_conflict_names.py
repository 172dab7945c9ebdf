"""File-sync conflict copies are recognised by name, and point at the file they copy."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.conflict_names import conflict_copy, looks_like_copy


@pytest.mark.parametrize(
    ("path", "original", "kind"),
    [
        ("_stm/Tea.sync-conflict-20261201-101500-ABCDEF1.md", "_stm/Tea.md", "syncthing"),
        ("_stm/Tea (Maya's conflicted copy 2026-12-01).md", "_stm/Tea.md", "dropbox"),
        ("_stm/Tea (Maya's conflicted copy 2026-12-01 (1)).md", "_stm/Tea.md", "dropbox"),
        ("Notes/Tea (conflicted copy 2026-12-01 101500).md", "Notes/Tea.md", "nextcloud"),
        ("_stm/Note (conflicted copy).md", "_stm/Note.md", "nextcloud"),
        ("_stm/Tea 2.md", "_stm/Tea.md", "numbered"),
    ],
)
def test_a_conflict_copy_names_its_original(path: str, original: str, kind: str) -> None:
    copy = conflict_copy(path)
    assert copy is not None
    assert (copy.copy, copy.original, copy.kind) == (path, original, kind)
    # Only "Name 2.md" is also how a second memory of the same title is named.
    assert copy.needs_same_id is (kind == "numbered")
    assert looks_like_copy(path)


@pytest.mark.parametrize(
    "path",
    [
        "_stm/Tea.md",
        "_stm/Tea 2024 plans.md",
        "_stm/Tea.sync-conflict-2026.md",
        "Tea 2.txt",
        "_stm/Tea (conflicted copy) notes.md",
        "_stm/(conflicted copy).md",
    ],
)
def test_an_ordinary_note_is_not_a_copy(path: str) -> None:
    assert conflict_copy(path) is None
