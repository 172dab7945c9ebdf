"""Commits kept outside the vault until made: whose entries a start may make."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cortexgraph_vault.vault.commit_outbox import CommitOutbox


def entry_of(outbox: CommitOutbox, pid: int, name: str, started: str = "") -> None:
    entry = {"paths": ["_stm/a.md"], "message": f"save: from {pid}", "pid": pid,
             "started": started}  # fmt: skip
    (outbox.folder / name).write_text(json.dumps(entry))


def test_entries_under_way_and_of_live_processes_are_left_to_them(tmp_path: Path) -> None:
    outbox = CommitOutbox(tmp_path / "vault", tmp_path / "outbox")
    under_way = outbox.put(["_stm/b.md"], "save: b")
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    entry_of(outbox, int(ended.stdout), "00000000000000000001-1-000000.json")
    entry_of(outbox, os.getppid(), "00000000000000000002-2-000000.json")  # alive: the runner
    (outbox.folder / "00000000000000000003-3-000000.json").write_text("{not json")
    assert [e.subject for e in outbox.pending()] == [f"save: from {int(ended.stdout)}"]
    assert (outbox.folder / "00000000000000000003-3-000000.json.unreadable").exists()
    outbox.release(under_way)  # held or failed: now any start may make it
    assert [e.message for e in outbox.pending()][-1] == "save: b"
    outbox.done(under_way)
    assert not (outbox.folder / under_way).exists()
