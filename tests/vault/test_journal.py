"""The write journal read back: a damaged or unknown entry is set aside, and nothing moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cortexgraph_vault.vault.journal import WriteJournal


def _journal(tmp_path: Path, entry: object) -> tuple[WriteJournal, Path]:
    root = tmp_path / "vault"
    (root / "_stm").mkdir(parents=True)
    note = root / "_stm" / "a.md"
    note.write_text("---\nid: a\n---\nkept\n", encoding="utf-8")
    journal = WriteJournal(root, tmp_path / "journal")
    journal.path.parent.mkdir(parents=True)
    journal.path.write_text(json.dumps(entry), encoding="utf-8")
    return journal, note


def _no_commit(paths: list[str], message: str) -> None:
    raise AssertionError(f"nothing to commit, got {paths} ({message})")


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"kind": "move", "from": "_stm/a.md", "from_sha": None}, "damaged move entry ignored"),
        (
            {"kind": "forget", "message": "gc", "files": {"_stm/a.md": {"sha": 1}}},
            "damaged forget entry ignored",
        ),
        (
            {"kind": "forget", "message": "gc", "files": ["_stm/a.md"]},
            "damaged forget entry ignored",
        ),
        ({"kind": "rename"}, "unknown journal entry 'rename' ignored"),
    ],
)
def test_a_damaged_or_unknown_entry_is_ignored_and_removed(
    tmp_path: Path, entry: object, said: str
) -> None:
    journal, note = _journal(tmp_path, entry)
    assert journal.repair(_no_commit) == said
    assert not journal.path.exists()
    assert note.read_text(encoding="utf-8") == "---\nid: a\n---\nkept\n"


def test_a_forget_whose_note_changed_since_is_left_in_place(tmp_path: Path) -> None:
    entry = {
        "kind": "forget",
        "message": "gc",
        "files": {"_stm/a.md": {"sha": "0" * 64, "aside": "_stm/.a.md.aside"}},
    }
    journal, note = _journal(tmp_path, entry)
    committed: list[tuple[list[str], str]] = []
    said = journal.repair(lambda paths, message: committed.append((paths, message)))
    assert committed == [([], "gc")]
    assert said is not None and note.exists()
