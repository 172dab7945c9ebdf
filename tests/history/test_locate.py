"""Reading the repository from the `.git` files agrees with git's own discovery
(`git rev-parse`), layout by layout, and needs no git process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cortexgraph_vault.history import VaultHistory
from cortexgraph_vault.history.locate import Located, locate, not_a_repository
from tests.builders import a_git_that_logs, git_calls
from tests.conftest import git


def repository(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    (root / "a.md").write_text("a\n")
    git(root, "add", "a.md")
    git(root, "commit", "-q", "-m", "a")
    return root


def agrees(vault: Path) -> str:
    """What `located` says equals what the full discovery says; returns it."""
    quick = VaultHistory(vault).located()
    full = VaultHistory(vault)
    assert quick == full.why_unavailable()
    if not quick:
        assert VaultHistory(vault).git_dir() == full.runner.git_dir
    return quick


def test_a_repository_at_the_vault_root(tmp_path: Path) -> None:
    vault = repository(tmp_path / "vault")
    found = locate(vault)
    assert found is not None and found.git_dir == (vault / ".git").resolve()
    assert agrees(vault) == ""


def test_a_vault_in_a_folder_of_a_repository(tmp_path: Path) -> None:
    root = repository(tmp_path / "repo")
    (root / "notes" / "deep").mkdir(parents=True)
    assert agrees(root / "notes" / "deep") == ""


def test_a_linked_work_tree(tmp_path: Path) -> None:
    root = repository(tmp_path / "repo")
    git(root, "worktree", "add", "-q", str(tmp_path / "linked"), "-b", "other")
    found = locate(tmp_path / "linked")
    assert found is not None and found.git_dir is not None
    assert found.git_dir.parent.name == "worktrees"
    assert agrees(tmp_path / "linked") == ""


def test_no_repository(tmp_path: Path) -> None:
    vault = tmp_path / "plain"
    vault.mkdir()
    said = agrees(vault)
    assert said == f"{vault} is not a git repository; run `cortexgraph-vault init` to make it one"


@pytest.mark.parametrize("damage", ["head", "objects"])
def test_a_damaged_repository_is_left_to_git(tmp_path: Path, damage: str) -> None:
    vault = repository(tmp_path / "vault")
    if damage == "head":
        (vault / ".git" / "HEAD").write_text("not a ref\n")
    else:
        subprocess.run(["rm", "-rf", str(vault / ".git" / "objects")], check=True)
    assert locate(vault) is None
    assert "not a git repository" in agrees(vault)


def test_a_bare_repository_setting_is_left_to_git(tmp_path: Path) -> None:
    vault = repository(tmp_path / "vault")
    git(vault, "config", "core.bare", "true")
    assert locate(vault) is None
    assert "bare" in agrees(vault)


def test_git_missing_from_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = repository(tmp_path / "vault")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    said = VaultHistory(vault).located()
    assert said == "git is not installed (no working `git` on PATH); history is off"


def test_located_starts_no_git_process(tmp_path: Path) -> None:
    vault = repository(tmp_path / "vault")
    path, log = a_git_that_logs(tmp_path)
    code = (
        "from pathlib import Path\n"
        "from cortexgraph_vault.history import VaultHistory\n"
        f"h = VaultHistory(Path({str(vault)!r}))\n"
        "print(repr(h.located()))\n"
        "print(repr(h.why_unavailable()))\n"
    )
    env = {**os.environ, "PATH": path}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.split() == ["''", "''"]
    calls = git_calls(log)
    # `located` read the files; only the full discovery after it started git.
    assert calls == ["version", "rev-parse --is-bare-repository --absolute-git-dir --show-toplevel"]


def test_a_ceiling_stops_the_search_above_the_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vault in a folder of a repository, below a GIT_CEILING_DIRECTORIES entry: git does not
    look past the ceiling, and neither do we — the vault is no repository, nothing is committed
    into the one above it."""
    root = repository(tmp_path / "repo")
    vault = root / "scratch" / "vault"
    vault.mkdir(parents=True)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(root / "scratch"))
    assert agrees(vault) == not_a_repository(vault)
    assert locate(vault) == Located(None, not_a_repository(vault))
    found = subprocess.run(["git", "-C", str(vault), "rev-parse"], capture_output=True)
    assert found.returncode != 0  # git's own discovery says the same


def test_a_ceiling_at_the_vault_or_below_the_repository_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = repository(tmp_path / "repo")
    vault = root / "notes" / "vault"
    vault.mkdir(parents=True)
    # The vault's own folder is searched even when named; a ceiling above the repository
    # (or a relative entry, which git ignores) leaves the repository in reach.
    for ceiling in (str(vault), str(tmp_path), "relative/entry"):
        monkeypatch.setenv("GIT_CEILING_DIRECTORIES", ceiling)
        assert agrees(vault) == ""
    own = repository(tmp_path / "own")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(own))
    assert agrees(own) == ""


def test_git_is_found_from_a_process_whose_folder_was_deleted(tmp_path: Path) -> None:
    """A long-running process whose working folder is gone still finds git and the vault's
    repository (git's presence is asked from no folder in particular)."""
    vault = repository(tmp_path / "vault")
    gone = tmp_path / "gone"
    gone.mkdir()
    code = (
        "import os, sys\nfrom pathlib import Path\n"
        f"os.chdir({str(gone)!r}); os.rmdir({str(gone)!r})\n"
        "from cortexgraph_vault.history import VaultHistory\n"
        f"print(repr(VaultHistory(Path({str(vault)!r})).why_unavailable()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "''", out.stderr
