"""At start, memories a killed process wrote but never committed are committed; once git has
found none, later starts trust a stamp of what that answer depended on, until it changes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.engine import start_writes
from cortexgraph_vault.ops import uncommitted
from tests.builders import memory_text, service_for
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


def test_the_stamp_is_trusted_until_a_memory_file_appears(git_vault: Path) -> None:
    service = service_for(git_vault)  # git found nothing: the stamp is written
    engine = service.engine
    asked: list[bool] = []
    real = type(engine.history).changed_paths

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(True)
        return real(self, *args, **kwargs)

    type(engine.history).changed_paths = counting  # type: ignore[method-assign]
    try:
        assert uncommitted.record_uncommitted(engine) is None
        assert asked == []  # nothing changed: git is not asked
        _left_behind(git_vault, "Another.md", "mem-left-2")
        engine.fresh()
        sha = uncommitted.record_uncommitted(engine)
    finally:
        type(engine.history).changed_paths = real  # type: ignore[method-assign]
    assert asked == [True]
    assert sha is not None
    assert git(git_vault, "status", "--porcelain", "--", "_stm") == ""


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
