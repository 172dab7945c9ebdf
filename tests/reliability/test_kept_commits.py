"""Scenario 2c — a writer killed with SIGKILL inside a save, a promotion or a consolidation,
after its files changed and before (or while) git recorded them.

The next start commits what it had done under the operation's own subject (the commit was kept
outside the vault before it was begun), and at no moment is anything of ours staged in the
person's git index: their own staged work stays exactly as it was.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from cortexgraph_vault.config import user_cache_dir
from tests.conftest import NOW, git
from tests.consolidation.builders import a_memory, days
from tests.reliability.test_crashes import next_start, run_writer
from tests.reliability.vault_audit import memory_vault, unreadable_notes

SUBJECTS = {
    "save-before-commit": "save: Maya's passport expires in March",
    "save-mid-commit": "save: Maya's passport expires in March",
    "save-before-index": "save: Maya's passport expires in March",
    "promote-before-commit": "promote: 2 memories",
    "consolidate-before-commit": "consolidate: merge 2 memories",
}


def staged(vault: Path) -> list[str]:
    return git(vault, "diff", "--cached", "--name-only").split()


@pytest.mark.parametrize("crash_at", sorted(SUBJECTS))
def test_an_operation_killed_before_git_recorded_it_is_committed_at_the_next_start(
    tmp_path: Path, crash_at: str
) -> None:
    vault = tmp_path / "vault"
    memory_vault(vault, 3, promotable=2)
    if crash_at.startswith("consolidate"):
        for n, words in enumerate(["Maya takes oat milk in her coffee, never cow's milk.",
                                   "Maya takes oat milk in coffee, never cow's milk."]):  # fmt: skip
            a_memory(vault, f"Oat milk {n}", words, memory_id=f"coffee-{n}",
                     created=NOW - days(20), last_used=NOW - days(5))  # fmt: skip
        git(vault, "add", "-A")
        git(vault, "commit", "-qm", "two near-duplicates")
    # The person's own work, staged: it must stay staged, and out of every commit of ours.
    (vault / "Home.md").write_text("# Home\n\nStaged by the person.\n")
    git(vault, "add", "Home.md")
    head = git(vault, "rev-parse", "HEAD").strip()

    writer = run_writer(vault, tmp_path / "log", crash_at)
    _, err = writer.communicate(timeout=120)
    assert writer.returncode == -signal.SIGKILL, err.decode()[-2000:]
    if crash_at == "save-before-index":
        assert git(vault, "log", "-1", "--format=%s").startswith(SUBJECTS[crash_at])
    else:
        assert git(vault, "rev-parse", "HEAD").strip() == head  # killed before any commit
        assert staged(vault) == ["Home.md"]  # nothing of ours staged, even mid-commit

    next_start(vault)
    subjects = git(vault, "log", f"{head}..HEAD", "--format=%s").splitlines()
    assert len(subjects) == 1 and subjects[0].startswith(SUBJECTS[crash_at]), subjects
    assert "snapshot" not in subjects[0] and "record" not in subjects[0]
    changed = git(vault, "show", "--name-only", "--format=", "HEAD").split()
    assert "Home.md" not in changed
    assert git(vault, "status", "--porcelain", "--", "_stm", "memories", "_archive") == ""
    assert staged(vault) == ["Home.md"]
    assert git(vault, "diff", "--cached", "Home.md").count("Staged by the person.") == 1
    assert not (vault / ".git" / "index.lock").exists()
    assert unreadable_notes(vault) == []
    kept = user_cache_dir() / "outbox"
    assert not [p for p in kept.rglob("*") if p.is_file()], "every kept commit was made"
