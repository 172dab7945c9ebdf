"""The start's sweep of temp files a crashed writer left: hidden temp files anywhere under
the memory folders, and nothing else (a note, another hidden file, a linked folder)."""

from __future__ import annotations

import os
from pathlib import Path

from cortexgraph_vault.vault.temp_names import TEMP_MARK, sweep_temp_files


def _old(path: Path, text: str = "half") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.utime(path, (0, 0))
    return path


def test_old_temp_files_anywhere_under_the_folders_are_swept(tmp_path: Path) -> None:
    litter = [
        _old(tmp_path / "_stm" / f".a.md{TEMP_MARK}x"),
        _old(tmp_path / "_stm" / "deep" / "er" / f".b.md{TEMP_MARK}y"),
        _old(tmp_path / "_stm" / ".hidden" / f".c.md{TEMP_MARK}z"),
    ]
    kept = [
        _old(tmp_path / "_stm" / "note.md"),
        _old(tmp_path / "_stm" / ".obsidian.json"),
        _old(tmp_path / "_stm" / f"visible{TEMP_MARK}w"),  # not hidden: not ours
        _old(tmp_path / "Elsewhere" / f".d.md{TEMP_MARK}v"),  # not a memory folder
    ]
    (tmp_path / "_stm" / f".folder{TEMP_MARK}u").mkdir()  # a folder is never removed
    assert sweep_temp_files(tmp_path, ["_stm", "_ltm"]) == 3
    assert not any(p.exists() for p in litter)
    assert all(p.exists() for p in kept)


def test_a_linked_folder_is_not_entered_and_new_temp_files_stay(tmp_path: Path) -> None:
    outside = _old(tmp_path / "outside" / f".e.md{TEMP_MARK}t")
    (tmp_path / "_stm").mkdir()
    (tmp_path / "_stm" / "link").symlink_to(tmp_path / "outside")
    fresh = tmp_path / "_stm" / f".f.md{TEMP_MARK}s"
    fresh.write_text("being written")
    assert sweep_temp_files(tmp_path, ["_stm"]) == 0
    assert outside.exists() and fresh.exists()
