"""A thousand memories forgotten in one gc: one commit that names each of them (its message
is longer than one command-line argument may be)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.errors import GitError
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text
from tests.conftest import NOW, NOW_ISO, git


def test_gc_forgets_a_thousand_memories_in_one_commit(tmp_path: Path) -> None:
    old = NOW - timedelta(days=200)
    notes = {
        f"_stm/Faded memory number {i:04d} with a rather long title.md": memory_text(
            f"faded-{i:04d}-{'x' * 60}", f"Once knew {i}.\n", created=old
        )
        for i in range(1000)
    }
    notes["_stm/Fresh.md"] = memory_text("fresh", "New.\n")
    vault = a_vault(tmp_path / "vault", notes, git_init=True, message="memories")
    service = MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))
    result = service.gc(dry_run=False, limit=1000)
    assert result.removed_count == 1000 and result.commit
    message = git(vault, "log", "-1", "--format=%B")
    assert len(message.encode()) > 128 * 1024
    assert message.count("Cortexgraph-Forgotten: faded-") == 1000
    assert sorted(p.name for p in (vault / "_stm").iterdir()) == ["Fresh.md"]
    assert git(vault, "status", "--porcelain") == ""
    assert service.search_unified("once").results == []


def test_a_gc_whose_commit_fails_leaves_every_memory_in_its_file_and_in_the_index(
    tmp_path: Path,
) -> None:
    old = NOW - timedelta(days=200)
    notes = {
        f"_stm/Faded {i}.md": memory_text(f"faded-{i}", f"Once knew tangerine {i}.\n", created=old)
        for i in range(5)
    }
    vault = a_vault(tmp_path / "vault", notes, git_init=True, message="memories")
    files = {p: p.read_bytes() for p in (vault / "_stm").glob("*.md")}
    service = MemoryService(
        load_config({"vault": str(vault), "now": NOW_ISO, "git_lock_wait": 0.2})
    )
    assert len(service.search_unified("tangerine").results) == 5
    (vault / ".git" / "index.lock").write_text("")  # another git is busy: the commit fails
    with pytest.raises(GitError, match="nothing was forgotten"):
        service.gc(dry_run=False, limit=1000)
    assert {p: p.read_bytes() for p in (vault / "_stm").glob("*.md")} == files
    # the index took each memory out as it left its path: each is in it again
    found = service.search_unified("tangerine").results
    assert sorted(r.title for r in found) == [f"Faded {i}" for i in range(5)]
    (vault / ".git" / "index.lock").unlink()
    assert service.gc(dry_run=False, limit=1000).removed_count == 5
    assert service.search_unified("tangerine").results == []
