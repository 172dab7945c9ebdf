"""Scenario 3b — writes while git is in the middle of a rebase, merge, cherry-pick, revert or
bisect (real git, stopped on a real conflict), then the person aborts it.

A new memory is written and its commit held (an untracked file survives every abort); a use,
gc, promote and snapshot are refused before anything changes, naming the operation. Once the
operation is over, the next start (or the next commit of the same process) commits the held
save under its own subject, and every write works again; restore finds what gc forgot then.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from cortexgraph_vault.errors import GitOperationInProgress
from cortexgraph_vault.service import MemoryService
from tests.conftest import git
from tests.reliability.test_crashes import next_start
from tests.reliability.vault_audit import memory_vault


def home_commit(vault: Path, text: str, message: str) -> None:
    (vault / "Home.md").write_text(f"# Home\n\n{text}\n")
    git(vault, "commit", "-qam", message)


def stop_rebase(vault: Path) -> str:
    git(vault, "switch", "-q", "-c", "side")
    home_commit(vault, "side", "side edits Home")
    git(vault, "switch", "-q", "-")
    home_commit(vault, "main", "main edits Home")
    git(vault, "switch", "-q", "side")
    git(vault, "rebase", "-q", "main", check=False)
    return "git rebase --abort"


def stop_merge(vault: Path) -> str:
    git(vault, "switch", "-q", "-c", "side")
    home_commit(vault, "side", "side edits Home")
    git(vault, "switch", "-q", "-")
    home_commit(vault, "main", "main edits Home")
    git(vault, "merge", "-q", "side", check=False)
    return "git merge --abort"


def stop_cherry_pick(vault: Path) -> str:
    git(vault, "switch", "-q", "-c", "side")
    home_commit(vault, "side", "side edits Home")
    git(vault, "switch", "-q", "-")
    home_commit(vault, "main", "main edits Home")
    git(vault, "cherry-pick", "side", check=False)
    return "git cherry-pick --abort"


def stop_revert(vault: Path) -> str:
    home_commit(vault, "first", "first edit")
    home_commit(vault, "second", "second edit")
    git(vault, "revert", "--no-edit", "HEAD~1", check=False)
    return "git revert --abort"


def stop_bisect(vault: Path) -> str:
    home_commit(vault, "later", "a later edit")
    git(vault, "bisect", "start", "HEAD", "HEAD~1")
    return "git bisect reset"


STOPS: dict[str, tuple[Callable[[Path], str], str]] = {
    "rebase": (stop_rebase, "rebase-merge"),
    "merge": (stop_merge, "MERGE_HEAD"),
    "cherry-pick": (stop_cherry_pick, "CHERRY_PICK_HEAD"),
    "revert": (stop_revert, "REVERT_HEAD"),
    "bisect": (stop_bisect, "BISECT_LOG"),
}


def state(vault: Path) -> tuple[str, str, dict[str, str]]:
    """HEAD, the index, and every memory file's bytes."""
    files = {
        p.relative_to(vault).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("_stm", "memories", "_archive") if (vault / folder).exists()
        for p in sorted((vault / folder).rglob("*.md"))
    }  # fmt: skip
    return git(vault, "rev-parse", "HEAD"), git(vault, "ls-files", "-s"), files


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    memory_vault(root, 3, faded=2, promotable=2)
    return root


@pytest.mark.parametrize("kind", sorted(STOPS))
def test_writes_during_an_operation_are_held_or_refused_and_nothing_is_lost_to_its_abort(
    vault: Path, kind: str
) -> None:
    stop, marker = STOPS[kind]
    end = stop(vault)
    assert (vault / ".git" / marker).exists()
    service = next_start(vault)
    ids = sorted(m.id for m in service.engine.fresh().memories() if m.id)
    before = state(vault)

    saved = service.save("Maya's passport expires in March; renew it in January.")
    assert saved.commit is None
    assert saved.warning is not None and "not committed yet" in saved.warning, saved.warning
    assert marker in saved.warning
    assert (vault / saved.path).is_file()
    head, index, files = state(vault)
    assert (head, index) == before[:2]  # held: nothing committed onto the operation's HEAD
    assert {p: s for p, s in files.items() if p != saved.path} == before[2]

    refusals = {
        "touch": lambda: service.touch(ids[0]),
        "gc": lambda: service.gc(dry_run=False),
        "promote": lambda: service.promote(auto_detect=True),
        "snapshot": service.snapshot,
    }
    for name, write in refusals.items():
        with pytest.raises(GitOperationInProgress, match=marker) as refused:
            write()
        assert "Nothing was changed" in str(refused.value), name
        assert state(vault)[:2] == before[:2], name
        assert {p: s for p, s in state(vault)[2].items() if p != saved.path} == before[2], name

    git(vault, *end.split()[1:])
    assert not (vault / ".git" / marker).exists()
    assert (vault / saved.path).is_file()  # the abort left the new memory alone

    service = next_start(vault)  # the start after the operation ended commits the held save
    last = git(vault, "log", "-1", "--format=%s").strip()
    assert last == f"save: {saved.title}"
    assert saved.path in git(vault, "show", "--name-only", "--format=", "HEAD").splitlines()
    assert git(vault, "status", "--porcelain", "--", "_stm", "memories") == ""

    # Every write works again, and what gc and promote do is found in history.
    assert service.touch(ids[0]).use_count == 2
    forgotten = service.gc(dry_run=False)
    assert forgotten.removed_count == 2
    promoted = service.promote(auto_detect=True)
    assert promoted.promoted_count >= 2
    assert {f.id for f in service.forgotten().forgotten} >= set(forgotten.memory_ids)
    for memory_id in promoted.promoted_ids:
        subjects = [c.summary for c in service.history(memory_id).commits]
        assert any(s.startswith("promote:") for s in subjects), subjects


def test_a_held_save_is_committed_by_the_same_process_once_the_rebase_is_aborted(
    vault: Path,
) -> None:
    """A daemon lives through the rebase: its next commit after the abort makes the held one
    first, under its own subject, through the door's group commit."""
    stop_rebase(vault)
    service = next_start(vault)
    first = service.call("save_memory", False, lambda: service.save("Tomas lends the desk."))
    assert first.commit is None and first.warning and "rebase" in first.warning
    git(vault, "rebase", "--abort")
    second = service.call("save_memory", False, lambda: service.save("Maya likes sencha."))
    assert second.commit is not None and second.warning is None
    subjects = git(vault, "log", "-2", "--format=%s").splitlines()
    assert subjects == [f"save: {second.title}", f"save: {first.title}"]


def test_the_cli_refuses_a_use_during_a_rebase_naming_it(vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    stop_rebase(vault)
    before = state(vault)
    done = cli("touch", "00000000-0000-4000-8000-000000000000", vault=vault)
    assert done.code == 5, done.err
    assert "a rebase is in progress" in done.err and "git rebase --abort" in done.err
    assert state(vault) == before


def test_an_auto_recall_during_a_rebase_recalls_without_reinforcing(vault: Path) -> None:
    stop_rebase(vault)
    service: MemoryService = next_start(vault)
    before = state(vault)
    service.auto_recall("Reliability memory number 1 keeps its words: which words?")
    assert state(vault) == before
