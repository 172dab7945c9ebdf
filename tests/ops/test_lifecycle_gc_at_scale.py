"""A thousand memories forgotten in one gc: one commit that names each of them (its message
is longer than one command-line argument may be)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW, NOW_ISO, git


def test_gc_forgets_a_thousand_memories_in_one_commit(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    stm = vault / "_stm"
    stm.mkdir(parents=True)
    old = format_time(NOW - timedelta(days=200))
    for i in range(1000):
        (stm / f"Faded memory number {i:04d} with a rather long title.md").write_text(
            f"---\nid: faded-{i:04d}-{'x' * 60}\ncreated: {old}\nlast_used: {old}\n"
            f"use_count: 1\nstrength: 1.0\nstatus: active\n---\nOnce knew {i}.\n"
        )
    (stm / "Fresh.md").write_text(
        f"---\nid: fresh\ncreated: {NOW_ISO}\nlast_used: {NOW_ISO}\n---\nNew.\n"
    )
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "memories")
    service = MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))
    result = service.gc(dry_run=False, limit=1000)
    assert result.removed_count == 1000 and result.commit
    message = git(vault, "log", "-1", "--format=%B")
    assert len(message.encode()) > 128 * 1024
    assert message.count("Cortexgraph-Forgotten: faded-") == 1000
    assert sorted(p.name for p in stm.iterdir()) == ["Fresh.md"]
    assert git(vault, "status", "--porcelain") == ""
    assert service.search_unified("once").results == []
