"""At start, memories a killed process wrote but never committed are committed; once git has
found none, later starts trust a stamp of what that answer depended on, until it changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.engine import start_writes
from cortexgraph_vault.handlers.lifecycle import uncommitted
from tests.builders import a_git_that_logs, git_calls, memory_text, service_for
from tests.conftest import git


def _left_behind(vault: Path, name: str, memory_id: str) -> Path:
    path = vault / "_stm" / name
    path.write_text(memory_text(memory_id), encoding="utf-8")
    old = path.stat().st_mtime - 3600  # older than a save still on its way to its commit
    os.utime(path, (old, old))
    return path


def test_a_memory_left_uncommitted_is_committed_with_a_message_that_counts_it(
    git_vault: Path,
) -> None:
    _left_behind(git_vault, "Left behind.md", "mem-left-1")
    service_for(git_vault)  # the start records it
    subject = git(git_vault, "log", "-1", "--format=%s").strip()
    assert subject == "record: 1 memory saved but never committed (a process stopped)"
    assert git(git_vault, "status", "--porcelain", "--", "_stm") == ""


def test_a_young_untracked_memory_is_left_to_the_save_on_its_way(git_vault: Path) -> None:
    (git_vault / "_stm" / "Just saved.md").write_text(memory_text("mem-young"), encoding="utf-8")
    head = git(git_vault, "rev-parse", "HEAD").strip()
    service = service_for(git_vault)
    assert uncommitted.record_uncommitted(service.engine) is None
    assert git(git_vault, "rev-parse", "HEAD").strip() == head


def test_the_stamp_is_trusted_until_a_memory_file_appears(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(git_vault)  # git found nothing: the stamp is written
    engine = service.engine
    asked: list[bool] = []
    real = uncommitted._untracked

    def counting(*args: Any, **kwargs: Any) -> list[str]:
        asked.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(uncommitted, "_untracked", counting)
    assert uncommitted.record_uncommitted(engine) is None
    assert asked == []  # nothing changed: git is not asked
    _left_behind(git_vault, "Another.md", "mem-left-2")
    engine.fresh()
    sha = uncommitted.record_uncommitted(engine)
    assert asked == [True]
    assert sha is not None
    assert git(git_vault, "status", "--porcelain", "--", "_stm") == ""


def test_git_asked_directly_names_what_the_history_names(git_vault: Path) -> None:
    """Untracked, ignored, tracked and never-committed files, in the vault at the root of its
    repository and in a folder of a bigger one."""
    for vault in (git_vault, _vault_in_a_folder_of(git_vault)):
        stm = vault / "_stm"
        (stm / "New one.md").write_text(memory_text("mem-new"), encoding="utf-8")
        (stm / "Sub").mkdir()
        (stm / "Sub" / "Deep [x].md").write_text(memory_text("mem-deep"), encoding="utf-8")
        (stm / "Ignored.md").write_text(memory_text("mem-ign"), encoding="utf-8")
        (stm / ".gitignore").write_text("Ignored.md\n", encoding="utf-8")
        (stm / ".Note.md.cgv-tmp-1").write_text("half written", encoding="utf-8")
        engine = service_for(vault).engine
        folders = engine.memory_folders()
        direct = uncommitted._untracked(engine, folders)
        assert direct == engine.history.changed_paths(folders, untracked_only=True)
        assert "_stm/New one.md" in direct and "_stm/Sub/Deep [x].md" in direct
        assert "_stm/Ignored.md" not in direct


def _vault_in_a_folder_of(repository: Path) -> Path:
    vault = repository / "Inner vault"
    (vault / "_stm").mkdir(parents=True)
    (vault / "_stm" / "Kept.md").write_text(memory_text("mem-kept"), encoding="utf-8")
    git(repository, "add", "-A")
    git(repository, "commit", "-qm", "an inner vault")
    return vault


def test_a_cold_start_that_finds_nothing_to_commit_starts_one_git_process(
    git_vault: Path, tmp_path: Path
) -> None:
    path, log = a_git_that_logs(tmp_path)
    code = (
        "import sys; from cortexgraph_vault.config import load_config; "
        "from cortexgraph_vault.service import MemoryService; "
        "MemoryService(load_config({'vault': sys.argv[1]}), one_call=True)"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(git_vault)], capture_output=True, text=True,
        timeout=120, check=True, env={**os.environ, "PATH": path},
    )  # fmt: skip
    calls = git_calls(log)
    # One question to git, asked directly: which memory files are untracked.
    assert len(calls) == 1, calls
    assert "ls-files --others --exclude-standard -z -- _stm memories _archive" in calls[0]


def test_the_start_records_them_before_vectors_are_made_behind_it(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vectors' thread would slow the start's last step: it starts after the commit."""
    _left_behind(git_vault, "Left behind.md", "mem-left-2")
    seen: list[str] = []
    real_vectors = start_writes.vectors_and_cache_at_start

    def vectors(*args: Any, **kwargs: Any) -> None:
        seen.append(git(git_vault, "log", "-1", "--format=%s").strip())
        real_vectors(*args, **kwargs)

    monkeypatch.setattr("cortexgraph_vault.engine.vectors_and_cache_at_start", vectors)
    service_for(git_vault)
    assert seen == ["record: 1 memory saved but never committed (a process stopped)"]
