"""A thousand memories forgotten in one gc: one commit that names each of them (its message
is longer than one command-line argument may be)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
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
