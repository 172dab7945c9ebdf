"""The vault's walk begun in a child process as a one-call command starts: it finds what the
engine's own walk finds, a folder it cannot list is said by the parent, it leaves no child
behind, and it is never forked beside another thread (`begin`; the tests fork with the
constructor, as pytest's process may keep threads of earlier tests)."""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path

import pytest

from cortexgraph_vault.index.catalog import vault_walk
from cortexgraph_vault.index.catalog.early_walk import EarlyWalk
from cortexgraph_vault.index.catalog.vault_walk import Walked, walk_vault

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forked on Linux only")


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    for rel, text in {
        "Top.md": "top",
        "_stm/A memory.md": "a memory",
        "Projects/Deep/Nested note.md": "nested",
        "Projects/diagram.png": "png",
        ".obsidian/workspace.md": "hidden",
        "café.md": "accented",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "elsewhere.md").symlink_to(root / "Top.md")
    os.mkfifo(root / "pipe.md")
    return root


def _seen(found: list[Walked]) -> dict[str, tuple[int, int, int] | None]:
    return {
        rel: None if st is None else (st.st_mode, st.st_size, st.st_mtime_ns) for rel, st in found
    }


def _children() -> set[str]:
    """This process's children, zombies too (Linux's own list)."""
    return {
        pid for task in Path("/proc/self/task").iterdir()
        for pid in (task / "children").read_text().split()
    }  # fmt: skip


def test_an_early_walk_finds_what_the_engines_walk_finds(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    before = _children()
    walk = EarlyWalk(root)
    done = walk.result()
    assert done is not None
    assert _seen(done.found) == _seen(list(walk_vault(root)))
    assert set(_seen(done.found)) == {
        "Top.md", "_stm/A memory.md", "Projects/Deep/Nested note.md", "Projects/diagram.png",
        "café.md", "elsewhere.md", "pipe.md",
    }  # fmt: skip
    assert _children() == before


def test_a_folder_the_child_cannot_list_is_said_once_by_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = _vault(tmp_path)
    real = os.scandir

    def scandir(folder: object) -> object:
        if isinstance(folder, str) and folder.endswith("Projects"):
            raise PermissionError(13, "Permission denied")
        return real(folder)  # type: ignore[call-overload]

    monkeypatch.setattr(vault_walk.os, "scandir", scandir)  # the child is forked with it
    with caplog.at_level(logging.WARNING):
        walk = EarlyWalk(root)
        done = walk.result()
    assert done is not None and "Projects/diagram.png" not in _seen(done.found)
    said = [r.getMessage() for r in caplog.records if "cannot list folder" in r.getMessage()]
    assert said == [f"{root / 'Projects'}: cannot list folder (Permission denied)"]


def test_a_walk_left_ends_its_child_and_gives_nothing(tmp_path: Path) -> None:
    before = _children()
    walk = EarlyWalk(_vault(tmp_path))
    assert _children() != before
    walk.leave()
    assert walk.result() is None
    assert _children() == before
    walk.leave()  # a second time: nothing left to end


def test_a_walk_of_a_vault_gone_meanwhile_gives_nothing_to_take(tmp_path: Path) -> None:
    walk = EarlyWalk(tmp_path / "no vault here")
    done = walk.result()
    assert done is not None and done.found == []  # the engine says what is missing, as ever


def test_no_child_is_forked_beside_another_thread(tmp_path: Path) -> None:
    """Another thread might hold a lock (the logging module's, an allocator's) that the child
    would wait on forever."""
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert EarlyWalk.begin(_vault(tmp_path)) is None
    finally:
        release.set()
        other.join()
