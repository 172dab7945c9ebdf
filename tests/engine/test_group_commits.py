"""Saves through the service's calls are committed together, after the change lock: each save
still answers with a commit that holds its file, and other changes go on while git works."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from cortexgraph_vault.engine import commits
from cortexgraph_vault.handlers.writes import writes
from cortexgraph_vault.models import SaveResult
from cortexgraph_vault.requests.memories import SaveMemoryRequest
from cortexgraph_vault.service import MemoryService
from tests.mcp.mcp_session import service_for

WAIT = 60.0  # bounds a failure only


def files_in(vault: Path, sha: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(vault), "show", "--name-only", "--format=", sha],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [line for line in out.stdout.splitlines() if line]


def message_of(vault: Path, sha: str) -> str:
    out = subprocess.run(["git", "-C", str(vault), "log", "-1", "--format=%B", sha],
                         check=True, capture_output=True, text=True)  # fmt: skip
    return out.stdout


def commit_count(vault: Path) -> int:
    out = subprocess.run(["git", "-C", str(vault), "rev-list", "--count", "HEAD"],
                         check=True, capture_output=True, text=True)  # fmt: skip
    return int(out.stdout)


class HeldCommits:
    """Wraps the engine's commit: the first one waits until the test lets it go."""

    def __init__(self, service: MemoryService) -> None:
        self.engine = service.engine
        self.inner = service.engine.make_commit
        self.first_started = threading.Event()
        self.release = threading.Event()
        self.calls: list[list[str]] = []
        service.engine.group_commits._commit = self

    def __call__(self, paths: list[str], message: str, kept: list[str]) -> str | None:
        self.calls.append(sorted(paths))
        if len(self.calls) == 1:
            self.first_started.set()
            assert self.release.wait(WAIT)
        return self.inner(paths, message, kept)


def save_through_a_call(service: MemoryService, words: str, out: list[SaveResult]) -> None:
    out.append(service.call("test.save", False, lambda: service.save(f"Group commit {words}")))


def test_saves_made_while_a_commit_runs_share_the_next_one_and_each_reports_it(
    git_vault: Path,
) -> None:
    service = service_for(git_vault)
    held = HeldCommits(service)
    results: list[SaveResult] = []
    first = threading.Thread(target=save_through_a_call, args=(service, "alpha", results))
    first.start()
    assert held.first_started.wait(WAIT)
    # git is busy with the first save: five more are written and queue for the next commit
    others = [
        threading.Thread(target=save_through_a_call, args=(service, w, results))
        for w in ("bravo", "charlie", "delta", "echo", "foxtrot")
    ]
    for t in others:
        t.start()
    while len(service.engine.group_commits._queue) < len(others):
        assert all(t.is_alive() for t in others), "a save answered before its commit was made"
        threading.Event().wait(0.01)
    held.release.set()
    for t in [first, *others]:
        t.join(WAIT)
    assert len(results) == 6
    assert len(held.calls) == 2  # one commit for the first save, one for the five after it
    assert commit_count(git_vault) == 3  # the sample vault's own, then those two
    for result in results:
        assert result.commit is not None, result
        assert result.path in files_in(git_vault, result.commit)
        assert f"Cortexgraph-Memory: {result.memory_id}" in message_of(git_vault, result.commit)
    grouped = message_of(git_vault, results[-1].commit or "")
    assert grouped.startswith("save: 5 memories\n") and "Cortexgraph-Operation: save" in grouped


def test_a_touch_is_answered_while_a_save_waits_for_git(git_vault: Path) -> None:
    service = service_for(git_vault)
    held = HeldCommits(service)
    results: list[SaveResult] = []
    saving = threading.Thread(target=save_through_a_call, args=(service, "golf", results))
    saving.start()
    assert held.first_started.wait(WAIT)
    memory = next(iter(service.engine.catalog.memories()))
    touched = service.call("test.touch", False, lambda: service.touch(memory.id or ""))
    assert touched.use_count == memory.use_count + 1
    assert saving.is_alive() and results == []  # the save still waits for its commit
    held.release.set()
    saving.join(WAIT)
    assert results[0].commit is not None
    assert results[0].path in files_in(git_vault, results[0].commit)


def test_a_save_begun_by_a_door_is_ready_to_finish_once_its_commit_is_made(
    git_vault: Path,
) -> None:
    """What the REST door waits for in its event loop instead of a thread of its own."""
    service = service_for(git_vault)
    held = HeldCommits(service)
    end = service.begin("test.save", False, lambda: service.save("Group commit hotel"))
    assert held.first_started.wait(WAIT)
    ready = threading.Event()
    end.when_ready(ready.set)
    assert end.waits and not ready.is_set()  # git is still making the commit
    held.release.set()
    assert ready.wait(WAIT) and not end.waits
    result = end()
    assert isinstance(result, SaveResult) and result.commit is not None
    assert result.path in files_in(git_vault, result.commit)


def test_a_save_outside_a_call_commits_at_once(git_vault: Path) -> None:
    service = service_for(git_vault)  # the operation run by itself, as no door runs it
    result = writes.save(service.engine, SaveMemoryRequest(content="Committed straight away"))
    assert result.commit is not None
    assert result.path in files_in(git_vault, result.commit)
    assert service.engine.group_commits.commits == 0  # nothing went through the committer


def test_saves_that_keep_coming_are_gathered_into_fewer_commits(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each commit costs git the same CPU whatever it holds: saves arriving one after another
    (each on its own, no commit running when it comes) share commits once the committer is busy."""
    monkeypatch.setattr(commits, "GATHER", 5.0)  # wide: the test does not race the clock
    s = service_for(git_vault)
    first: list[SaveResult] = []
    save_through_a_call(s, "alone first", first)  # after an idle spell: committed at once
    assert first[0].commit
    before = commit_count(git_vault)
    results: list[SaveResult] = []
    threads = []
    for n in range(5):
        t = threading.Thread(target=save_through_a_call, args=(s, f"burst {n}", results))
        t.start()
        threads.append(t)
        time.sleep(0.02)
    for t in threads:
        t.join(WAIT)
    assert len(results) == 5
    assert commit_count(git_vault) == before + 1
    shas = {r.commit for r in results}
    assert len(shas) == 1 and None not in shas
    assert len(files_in(git_vault, shas.pop())) == 5


def test_a_save_after_a_quiet_spell_is_not_held_for_company(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commits, "GATHER", WAIT * 2)  # held for company, it would never answer
    monkeypatch.setattr(commits, "BUSY", 0.2)
    s = service_for(git_vault)
    for n in range(2):
        time.sleep(0.3)  # longer than BUSY since the last commit
        out: list[SaveResult] = []
        t = threading.Thread(target=save_through_a_call, args=(s, f"quiet {n}", out))
        t.start()
        t.join(WAIT)
        assert out and out[0].commit, "the save waited for others to commit with"


def test_a_group_git_refuses_is_committed_save_by_save_and_only_the_refused_one_says_so(
    git_vault: Path,
) -> None:
    """Git refuses the group's commit because of one save (a person's commit-msg hook here):
    every other save of the group is committed alone, and the refused one answers why."""
    hook = git_vault / ".git" / "hooks" / "commit-msg"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text('#!/bin/sh\nif grep -q POISON "$1"; then echo "no poison" >&2; exit 1; fi\n')
    hook.chmod(0o755)
    service = service_for(git_vault)
    held = HeldCommits(service)
    results: list[SaveResult] = []
    first = threading.Thread(target=save_through_a_call, args=(service, "alpha", results))
    first.start()
    assert held.first_started.wait(WAIT)
    others = [
        threading.Thread(target=save_through_a_call, args=(service, w, results))
        for w in ("bravo", "POISON charlie", "delta")
    ]
    for t in others:
        t.start()
    while len(service.engine.group_commits._queue) < len(others):
        threading.Event().wait(0.01)
    held.release.set()
    for t in [first, *others]:
        t.join(WAIT)
    # the first save; the group of three, refused; then each of the three alone
    assert [len(c) for c in held.calls] == [1, 3, 1, 1, 1]
    by_words = {r.title.removeprefix("Group commit "): r for r in results}
    for words in ("alpha", "bravo", "delta"):
        result = by_words[words]
        assert result.commit is not None and result.warning is None, result
        assert files_in(git_vault, result.commit) == [result.path]
    refused = by_words["POISON charlie"]
    assert refused.commit is None
    assert refused.warning is not None and "not committed to git" in refused.warning
    assert (git_vault / refused.path).is_file()
    assert commit_count(git_vault) == 1 + 3
