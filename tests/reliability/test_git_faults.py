"""Scenario 3 — git faults, through the CLI: gc, promote and restore either commit exactly their
own paths or change nothing at all, and say why. The command's `main` runs in the test's process
(tests/cli/in_process.py), with the fault's environment, and starts git as the program does; the
missing identity is the environment's own, so that command runs as a process of its own.

Faults: no repository, a held index.lock, a read-only .git (a real read-only bind mount; a
`git` that refuses writes where mounting is not allowed), a detached HEAD, no user identity, a
person's staged and unstaged work, and another tool committing at the same moment.
(tests/integration/test_git_faults.py covers the history layer alone.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW_ISO, git
from tests.reliability.vault_audit import a_memory, cli_argv, fingerprint, memory_vault

OPS = ("gc", "promote", "restore")
ARGS = {
    "gc": ("--json", "gc", "--yes"),
    "promote": ("--json", "promote", "--auto", "--yes"),
    "restore": ("--json", "restore", "00000000-0000-4000-8000-000000000002"),
}
# Paths each operation changes in the vault built below.
EXPECTED = {
    "gc": {"_stm/Memory 010.md", "_stm/Memory 011.md"},
    "promote": {
        "_stm/Memory 020.md",
        "_stm/Memory 021.md",
        "memories/Memory 020.md",
        "memories/Memory 021.md",
    },
    "restore": {"_stm/Memory 002.md"},
}


def fault_vault(dest: Path, *, with_git: bool = True) -> Path:
    """Two fresh memories, two faded ones, two ready for promotion, and one forgotten earlier
    (restore brings it back from git)."""
    memory_vault(dest, 2, faded=1)  # Memory 000, 001 fresh; 002 faded
    service = MemoryService(load_config({"vault": str(dest), "now": NOW_ISO}))
    assert service.gc(dry_run=False).removed_count == 1
    for i in (10, 11):
        name, _, text = a_memory(i, age=timedelta(days=90), unused_for=timedelta(days=80))
        (dest / "_stm" / name).write_text(text)
    for i in (20, 21):
        name, _, text = a_memory(i, use_count=6, age=timedelta(days=2))
        (dest / "_stm" / name).write_text(text)
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "more memories")
    if not with_git:
        shutil.rmtree(dest / ".git")
    return dest


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    commits: list[set[str]]  # files of each commit the operation made


def run_op(cli, vault: Path, op: str, env: dict[str, str] | None = None,  # type: ignore[no-untyped-def]
           unset: tuple[str, ...] = ()) -> Outcome:  # fmt: skip
    has_git = (vault / ".git").exists()
    start = git(vault, "rev-parse", "HEAD").strip() if has_git else ""
    if unset:
        full = {k: v for k, v in {**os.environ, **(env or {})}.items() if k not in unset}
        done = subprocess.run(cli_argv(vault, *ARGS[op]), env=full, capture_output=True, text=True)
        result = SimpleNamespace(code=done.returncode, out=done.stdout, err=done.stderr)
    else:
        result = cli(*ARGS[op], vault=vault, env=env)
    commits = []
    if has_git:
        for sha in git(vault, "rev-list", f"{start}..HEAD").split():
            names = git(vault, "show", "--name-only", "--format=", "--no-renames", sha)
            commits.append(set(names.split("\n")) - {""})
    return Outcome(result.code, result.out, result.err, commits)


def assert_exactly_own_paths_or_nothing(vault: Path, op: str, outcome: Outcome,
                                        before: dict[str, str]) -> str:  # fmt: skip
    """'committed' or 'refused'; fails if the operation did anything else."""
    after = fingerprint(vault)
    if outcome.code != 0:
        assert after == before, f"{op} failed but changed {diff(before, after)}"
        assert outcome.err.strip(), f"{op} failed without saying why"
        return "refused"
    assert outcome.commits, f"{op} succeeded with no commit: {outcome.out}"
    assert set().union(*outcome.commits) == EXPECTED[op], outcome.commits
    changed = {k for k in diff(before, after) if not k.startswith(".git")}
    assert changed == EXPECTED[op], changed
    return "committed"


def diff(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


@pytest.mark.parametrize("op", OPS)
def test_no_repository(tmp_path: Path, cli_in_process, op: str) -> None:  # type: ignore[no-untyped-def]
    vault = fault_vault(tmp_path / "vault", with_git=False)
    before = fingerprint(vault)
    outcome = run_op(cli_in_process, vault, op)
    if op == "promote":
        # Without a repository promotion is a plain move, as a save is; it says it kept no history.
        assert outcome.code == 0, outcome.err
        result = __import__("json").loads(outcome.out)
        assert result["commit"] is None and "not a git repository" in result["message"]
        assert {k for k in diff(before, fingerprint(vault))} == EXPECTED["promote"]
    else:
        assert outcome.code == 5, outcome.err
        assert "not a git repository" in outcome.err or "git" in outcome.err.lower()
        assert fingerprint(vault) == before


@pytest.mark.parametrize("op", OPS)
def test_index_lock_held_by_another_git(tmp_path: Path, cli_in_process, op: str) -> None:  # type: ignore[no-untyped-def]
    vault = fault_vault(tmp_path / "vault")
    (vault / ".git" / "index.lock").write_text("")
    before = fingerprint(vault)
    outcome = run_op(cli_in_process, vault, op, env={"CORTEXGRAPH_GIT_LOCK_WAIT": "1"})
    assert assert_exactly_own_paths_or_nothing(vault, op, outcome, before) == "refused"
    assert "index.lock" in outcome.err
    # Once the other git is done, the same command goes through.
    (vault / ".git" / "index.lock").unlink()
    before = fingerprint(vault)
    outcome = run_op(cli_in_process, vault, op)
    assert assert_exactly_own_paths_or_nothing(vault, op, outcome, before) == "committed"


@contextmanager
def read_only_git(vault: Path, tmp_path: Path) -> Iterator[dict[str, str]]:
    """.git mounted read-only (EROFS); where mounting is refused, a `git` that fails writes."""
    target = vault / ".git"
    mounted = subprocess.run(["mount", "--bind", str(target), str(target)], capture_output=True)
    if mounted.returncode == 0:
        ro = subprocess.run(["mount", "-o", "remount,bind,ro", str(target)], capture_output=True)
        try:
            assert ro.returncode == 0, ro.stderr
            yield {}
        finally:
            subprocess.run(["umount", str(target)], check=True)
        return
    shim = tmp_path / "bin" / "git"
    shim.parent.mkdir()
    real = shutil.which("git")
    shim.write_text(
        '#!/bin/sh\nfor a in "$@"; do case "$a" in add|commit|update-index|write-tree|'
        "commit-tree|update-ref|read-tree) echo \"fatal: Unable to create '$PWD/.git/index.lock'"
        ': Read-only file system" >&2; exit 128;; esac; done\n'
        f'exec {real} "$@"\n'
    )
    shim.chmod(0o755)
    yield {"PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.parametrize("op", OPS)
def test_read_only_git_directory(tmp_path: Path, cli_in_process, op: str) -> None:  # type: ignore[no-untyped-def]
    vault = fault_vault(tmp_path / "vault")
    with read_only_git(vault, tmp_path) as env:
        before = fingerprint(vault)
        outcome = run_op(cli_in_process, vault, op, env=env)
        assert assert_exactly_own_paths_or_nothing(vault, op, outcome, before) == "refused"
    assert "Read-only" in outcome.err or "read-only" in outcome.err, outcome.err


@pytest.mark.parametrize("op", OPS)
def test_detached_head(tmp_path: Path, cli_in_process, op: str) -> None:  # type: ignore[no-untyped-def]
    vault = fault_vault(tmp_path / "vault")
    git(vault, "checkout", "-q", "--detach", "HEAD")
    before = fingerprint(vault)
    outcome = run_op(cli_in_process, vault, op)
    # A commit on a detached HEAD is a commit like any other; the branch is left where it was.
    assert assert_exactly_own_paths_or_nothing(vault, op, outcome, before) == "committed"
    assert git(vault, "rev-parse", "main") != git(vault, "rev-parse", "HEAD")


@pytest.mark.parametrize("op", OPS)
def test_no_user_identity(tmp_path: Path, cli_in_process, op: str) -> None:  # type: ignore[no-untyped-def]
    vault = fault_vault(tmp_path / "vault")
    unset = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
             "EMAIL")  # fmt: skip
    before = fingerprint(vault)
    outcome = run_op(cli_in_process, vault, op, unset=unset)
    assert assert_exactly_own_paths_or_nothing(vault, op, outcome, before) == "committed"
    assert "cortexgraph-vault" in git(vault, "log", "-1", "--format=%an <%ae>")


@pytest.mark.parametrize("op", OPS)
def test_a_persons_staged_and_unstaged_work_is_left_alone(
    tmp_path: Path, cli_in_process, op: str
) -> None:  # type: ignore[no-untyped-def]
    vault = fault_vault(tmp_path / "vault")
    (vault / "Home.md").write_text("# Home\n\nStaged by the person.\n")
    (vault / "Draft.md").write_text("A new draft, staged.\n")
    git(vault, "add", "Home.md", "Draft.md")
    (vault / "Home.md").write_text("# Home\n\nStaged by the person.\nAnd still typing.\n")
    with (vault / "_stm" / "Memory 000.md").open("a", encoding="utf-8") as note:
        note.write("A person's edit, not staged.\n")
    staged = git(vault, "diff", "--cached", "--name-status")
    worktree = git(vault, "diff", "--name-status")
    before = fingerprint(vault)
    outcome = run_op(cli_in_process, vault, op)
    assert outcome.code == 0, outcome.err
    assert set().union(*outcome.commits) == EXPECTED[op]
    assert git(vault, "diff", "--cached", "--name-status") == staged
    assert git(vault, "diff", "--name-status") == worktree
    changed = {k for k in diff(before, fingerprint(vault)) if not k.startswith(".git")}
    assert changed == EXPECTED[op]


@pytest.mark.parametrize("op", OPS)
def test_another_tool_committing_at_the_same_time(tmp_path: Path, cli_in_process, op: str) -> None:  # type: ignore[no-untyped-def]
    """Like obsidian-git: commits of its own files, again and again, while we commit ours."""
    vault = fault_vault(tmp_path / "vault")
    stop = threading.Event()
    theirs: list[str] = []

    def other_tool() -> None:
        n = 0
        while not stop.is_set():
            name = f"Daily/{n:03d}.md"
            (vault / "Daily").mkdir(exist_ok=True)
            (vault / name).write_text(f"Day {n}\n")
            for _ in range(50):
                added = subprocess.run(["git", "-C", str(vault), "add", name], capture_output=True)
                done = added.returncode == 0 and subprocess.run(
                    ["git", "-C", str(vault), "commit", "-q", "-m", f"vault backup {n}", "--", name],
                    capture_output=True,
                ).returncode == 0  # fmt: skip
                if done:
                    theirs.append(name)
                    break
                time.sleep(0.02)  # their retry on index.lock, as obsidian-git does
            n += 1

    start = git(vault, "rev-parse", "HEAD").strip()
    thread = threading.Thread(target=other_tool)
    thread.start()
    try:
        time.sleep(0.3)
        outcome = cli_in_process(*ARGS[op], vault=vault)
    finally:
        stop.set()
        thread.join()
    assert outcome.code == 0, outcome.err
    ours, others = [], []
    for sha in git(vault, "rev-list", f"{start}..HEAD").split():
        files = set(git(vault, "show", "--name-only", "--format=", "--no-renames", sha).split("\n"))
        files.discard("")
        subject = git(vault, "log", "-1", "--format=%s", sha)
        (others if subject.startswith("vault backup") else ours).append(files)
    assert set().union(*ours) == EXPECTED[op], ours
    assert sorted(set().union(*others)) == sorted(
        theirs
    )  # every commit of theirs kept, only theirs
    assert git(vault, "status", "--porcelain") == ""


def test_a_snapshot_never_commits_our_hidden_files(tmp_path: Path) -> None:
    """A write or a forget in progress elsewhere leaves hidden files for a moment; a snapshot
    commit made at that moment records the reinforced memory and nothing of ours in flight."""
    vault = tmp_path / "vault"
    memory_vault(vault, 2)
    service = MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))
    service.touch("00000000-0000-4000-8000-000000000000")
    in_flight = ["_stm/.Memory 001.md.cgv-tmp-0a0b0c-999999-1234abcd",
                 "_stm/.Memory 001.md.cgv-aside-0a0b0c-999999-1234abcd"]  # fmt: skip
    for rel in in_flight:
        (vault / rel).write_text("in flight\n")
    assert service.snapshot().paths == ["_stm/Memory 000.md"]
    assert git(vault, "show", "--name-only", "--format=", "HEAD").split("\n")[:-1] == [
        "_stm/Memory 000.md"
    ]
    assert all((vault / rel).exists() for rel in in_flight)
