"""commit_paths when git is busy or failing: another tool holding index.lock, a hook refusing,
a read-only repository, several writers at once. Real git in tmp_path."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from cortexgraph_vault.errors import GitError
from cortexgraph_vault.history import VaultHistory, recording
from cortexgraph_vault.history.runner import GitRunner
from tests.conftest import git

pytestmark = pytest.mark.usefixtures("git_of_a_person")


def status(repo: Path) -> set[str]:
    return set(git(repo, "status", "--porcelain", "--untracked-files=all").splitlines())


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A vault with a person's staged file, and our new and edited files waiting."""
    root = tmp_path / "vault"
    (root / "_stm").mkdir(parents=True)
    git(root, "init", "-q")
    (root / "a.md").write_text("alpha\n")
    git(root, "add", "a.md")
    git(root, "commit", "-qm", "start")
    (root / "staged.md").write_text("theirs\n")
    git(root, "add", "staged.md")
    (root / "_stm/m.md").write_text("---\nid: m\n---\nours\n")
    (root / "a.md").write_text("alpha, ours\n")
    return root


def snapshot(repo: Path) -> tuple[str, str]:
    return git(repo, "rev-parse", "HEAD"), git(repo, "ls-files", "--stage")


def staging(args: tuple[str, ...]) -> bool:
    """Our staging of the changed files: `git add`, or `update-index --stdin` (a plumbing
    commit's, history/plumbing.py)."""
    return args[0] == "add" or (args[0] == "update-index" and "--stdin" in args)


def release_after(lock: Path, seconds: float) -> threading.Thread:
    def release() -> None:
        time.sleep(seconds)
        lock.unlink()

    thread = threading.Thread(target=release)
    thread.start()
    return thread


class WaitClock:
    """The lock wait's clock: `sleep` moves it on instead of waiting."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_lock_held_forever_gives_up_in_time_and_changes_nothing(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(vault)
    (vault / ".git/index.lock").write_text("")
    history = VaultHistory(vault, lock_wait_seconds=0.5)
    clock = WaitClock()
    monkeypatch.setattr(recording, "time", clock)
    with pytest.raises(GitError) as caught:
        history.commit_paths(["_stm/m.md", "a.md"], "blocked")
    monkeypatch.undo()
    assert sum(clock.slept) == pytest.approx(0.5)  # it waited out the half second, then stopped
    message = str(caught.value)
    assert "git is busy" in message and ".git/index.lock held for more than 0.5 s" in message
    assert message.endswith("nothing was committed")
    (vault / ".git/index.lock").unlink()
    assert snapshot(vault) == before
    assert status(vault) == {"A  staged.md", " M a.md", "?? _stm/m.md"}


def test_lock_released_midway_succeeds(vault: Path) -> None:
    lock = vault / ".git/index.lock"
    lock.write_text("")
    releaser = release_after(lock, 0.3)
    sha = VaultHistory(vault, lock_wait_seconds=5).commit_paths(["_stm/m.md", "a.md"], "waited")
    releaser.join()
    assert sha is not None  # a commit can only be made once the lock is gone: it waited for it
    assert status(vault) == {"A  staged.md"}


@pytest.mark.parametrize("released", [True, False])
def test_lock_taken_between_add_and_commit(
    vault: Path, monkeypatch: pytest.MonkeyPatch, released: bool
) -> None:
    """Another tool grabs the index right after our staging (in our copy of the index): we
    wait, or give up, and the person's index never held our paths."""
    lock = vault / ".git/index.lock"
    real_run = GitRunner.run
    threads: list[threading.Thread] = []

    def run_then_lock(self: GitRunner, *args: str, **kwargs: object) -> object:
        result = real_run(self, *args, **kwargs)  # type: ignore[arg-type]
        if staging(args) and not threads:
            lock.write_text("")
            if released:
                threads.append(release_after(lock, 0.3))
            else:
                threads.append(threading.Thread(target=lambda: None))
        return result

    monkeypatch.setattr(GitRunner, "run", run_then_lock)
    history = VaultHistory(vault, lock_wait_seconds=0.6)
    if released:
        assert history.commit_paths(["_stm/m.md", "a.md"], "waited") is not None
        threads[0].join()
        assert status(vault) == {"A  staged.md"}
        return
    before = git(vault, "rev-parse", "HEAD")
    with pytest.raises(GitError, match="git is busy") as caught:
        history.commit_paths(["_stm/m.md", "a.md"], "blocked")
    lock.unlink()
    assert git(vault, "rev-parse", "HEAD") == before
    assert "nothing was committed" in str(caught.value)
    assert status(vault) == {"A  staged.md", " M a.md", "?? _stm/m.md"}  # nothing of ours staged
    assert history.commit_paths(["_stm/m.md", "a.md"], "retry") is not None
    assert status(vault) == {"A  staged.md"}


def test_refusing_hook_leaves_files_and_index_as_they_were(vault: Path) -> None:
    hook = vault / ".git/hooks/pre-commit"
    hook.write_text("#!/bin/sh\necho 'hook says no' >&2\nexit 1\n")
    hook.chmod(0o755)
    before = snapshot(vault)
    with pytest.raises(GitError) as caught:
        VaultHistory(vault).commit_paths(["_stm/m.md", "a.md"], "refused")
    assert "hook says no" in str(caught.value)
    assert "nothing was committed" in str(caught.value)
    assert snapshot(vault) == before
    assert status(vault) == {"A  staged.md", " M a.md", "?? _stm/m.md"}
    assert (vault / "a.md").read_text() == "alpha, ours\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_repository_names_the_reason(vault: Path) -> None:
    before = snapshot(vault)
    for folder in (vault / ".git", vault / ".git/objects"):
        folder.chmod(0o555)
    try:
        with pytest.raises(GitError, match="nothing was committed"):
            VaultHistory(vault, lock_wait_seconds=0.5).commit_paths(["_stm/m.md"], "ro")
    finally:
        for folder in (vault / ".git", vault / ".git/objects"):
            folder.chmod(0o755)
    assert snapshot(vault) == before


def test_many_writers_at_once_each_commit_only_their_files(vault: Path) -> None:
    """Two processes' worth of writers (separate instances) and threads within each."""
    histories = [VaultHistory(vault, lock_wait_seconds=20) for _ in range(2)]
    errors: list[BaseException] = []

    def writer(history: VaultHistory, n: int) -> None:
        try:
            for k in range(4):
                path = f"_stm/w{n}-{k}.md"
                (vault / path).write_text(f"---\nid: w{n}-{k}\n---\n")
                assert history.commit_paths([path], f"writer {n} note {k}") is not None
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(histories[n % 2], n)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for n in range(6):
        for k in range(4):
            touched = git(vault, "log", "--format=%s", "--", f"_stm/w{n}-{k}.md").splitlines()
            assert touched == [f"writer {n} note {k}"]
    assert int(git(vault, "rev-list", "--count", "HEAD")) == 1 + 24
    assert status(vault) == {"A  staged.md", " M a.md", "?? _stm/m.md"}


def test_another_tool_committing_our_paths_first_is_not_an_error(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """obsidian-git's `add -A; commit` lands between our add and our commit."""
    real_run = GitRunner.run
    done: list[bool] = []

    def run_then_commit_everything(self: GitRunner, *args: str, **kwargs: object) -> object:
        result = real_run(self, *args, **kwargs)  # type: ignore[arg-type]
        if staging(args) and not done:
            done.append(True)
            git(vault, "add", "-A")
            git(vault, "commit", "-qm", "vault backup")
        return result

    monkeypatch.setattr(GitRunner, "run", run_then_commit_everything)
    assert VaultHistory(vault).commit_paths(["_stm/m.md", "a.md"], "ours") is None
    assert git(vault, "log", "-1", "--format=%s").strip() == "vault backup"
    assert status(vault) == set()


def test_a_commit_waits_for_another_of_our_processes_committing_then_says_so(vault: Path) -> None:
    """`git commit --only` reads the index before locking it, so our writers commit in turn
    (a lock in .git/): one held elsewhere for longer than the wait is a clear refusal."""

    (vault / "_stm/m.md").write_text("---\nid: m\n---\nmine\n")
    holder = subprocess.Popen(
        ["python3", "-c", "import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT);"
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)",
         str(vault / ".git/cortexgraph-vault-commit.lock")],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        before = git(vault, "rev-parse", "HEAD")
        with pytest.raises(GitError, match="another cortexgraph-vault process"):
            VaultHistory(vault, lock_wait_seconds=0.4).commit_paths(["_stm/m.md"], "blocked")
        assert git(vault, "rev-parse", "HEAD") == before
    finally:
        holder.kill()
        holder.wait()
    assert VaultHistory(vault, lock_wait_seconds=5).commit_paths(["_stm/m.md"], "mine") is not None
    assert "cortexgraph-vault-commit.lock" not in git(vault, "ls-files")
