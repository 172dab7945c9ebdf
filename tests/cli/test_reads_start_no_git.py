"""A read command (`stats`, `show`, `search`) answers without starting git: the repository is
read from the `.git` files, and the check for saves a killed process left uncommitted asks git
again only when something it depends on changed. What it reports about git stays the same."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import git

MEMORY = "_stm/Prefers TypeScript.md"
READS = (("stats",), ("show", MEMORY), ("search", "TypeScript"))


@pytest.fixture
def recording_git(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A PATH whose `git` notes each call in a log, then runs the real git."""
    real = shutil.which("git")
    assert real is not None
    log = tmp_path / "git-calls.log"
    shim = tmp_path / "bin" / "git"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    shim.chmod(0o755)
    env = {"PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}", "CORTEXGRAPH_NO_DAEMON": "1"}
    return env, log


def calls(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_reads_on_a_git_vault_start_no_git(cli, git_vault: Path, recording_git) -> None:  # type: ignore[no-untyped-def]
    env, log = recording_git
    first = cli("stats", vault=git_vault, env=env)  # the first start asks git once
    assert first.code == 0, first.err
    assert "git: a git repository" in first.out
    log.unlink(missing_ok=True)
    for args in READS:
        result = cli(*args, vault=git_vault, env=env)
        assert result.code == 0, (args, result.err)
        assert result.out.strip(), args
        assert calls(log) == [], (args, calls(log))
    assert "git: a git repository" in cli("stats", vault=git_vault, env=env).out
    assert "Prefers TypeScript" in cli("show", MEMORY, vault=git_vault, env=env).out


def test_a_save_left_uncommitted_is_still_recorded_by_the_next_read(
    cli, git_vault: Path, recording_git
) -> None:  # type: ignore[no-untyped-def]
    env, _ = recording_git
    assert cli("stats", vault=git_vault, env=env).code == 0
    assert cli("stats", vault=git_vault, env=env).code == 0
    left = git_vault / "_stm" / "Left behind.md"
    left.write_text((git_vault / MEMORY).read_text().replace("id: ", "id: 0", 1))
    old = left.stat().st_mtime - 3600  # older than a save still on its way to its commit
    os.utime(left, (old, old))
    result = cli("stats", vault=git_vault, env=env)
    assert result.code == 0, result.err
    subject = git(git_vault, "log", "-1", "--format=%s").strip()
    assert subject == "record: 1 memory saved but never committed (a process stopped)"
    assert git(git_vault, "status", "--porcelain", "--", "_stm") == ""


def test_a_vault_outside_git_says_so_without_starting_git(
    cli, sample_vault: Path, recording_git
) -> None:  # type: ignore[no-untyped-def]
    env, log = recording_git
    for args in READS:
        result = cli(*args, vault=sample_vault, env=env)
        assert result.code == 0, (args, result.err)
    stats = cli("stats", vault=sample_vault, env=env)
    assert (
        f"git: {sample_vault} is not a git repository; run `cortexgraph-vault init` to make it one"
        in stats.out
    )
    assert calls(log) == []


def test_without_git_on_path_reads_answer_and_say_git_is_missing(
    cli, git_vault: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "no-git-bin"
    empty.mkdir()
    env = {"PATH": str(empty), "CORTEXGRAPH_NO_DAEMON": "1"}
    for args in READS:
        result = cli(*args, vault=git_vault, env=env)
        assert result.code == 0, (args, result.err)
    stats = cli("stats", vault=git_vault, env=env)
    assert "git: git is not installed (no working `git` on PATH); history is off" in stats.out


def test_a_broken_repository_is_reported_as_before(cli, git_vault: Path, recording_git) -> None:  # type: ignore[no-untyped-def]
    env, _ = recording_git
    (git_vault / ".git" / "HEAD").write_text("garbage\n")
    stats = cli("stats", vault=git_vault, env=env)
    assert stats.code == 0, stats.err
    assert f"git: {git_vault} is not a git repository" in stats.out
