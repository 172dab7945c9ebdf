"""The commit made from git's plumbing (history/plumbing.py), against real repositories: the same
commit `git commit --only` made, a person's work left alone, another tool's commit between our
steps kept, and `git commit` itself whenever hooks, signing or a merge need it."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.errors import GitOperationInProgress
from cortexgraph_vault.history import VaultHistory
from cortexgraph_vault.history.plumbing import clean_message
from cortexgraph_vault.history.runner import GitRunner
from tests.builders import write_note
from tests.conftest import git

ID_A = "3f1c9a0e-0000-4000-8000-00000000000a"


pytestmark = pytest.mark.usefixtures("git_of_a_person")


def status(repo: Path) -> set[str]:
    out = git(repo, "status", "--porcelain", "--untracked-files=all")
    return {line for line in out.splitlines() if line}


def name_status(repo: Path, rev: str = "HEAD") -> set[str]:
    out = git(repo, "show", "--name-status", "--no-renames", "--format=", rev)
    return {line for line in out.splitlines() if line}


def a_memory(body: str) -> str:
    return f"---\nid: {ID_A}\nuse_count: 1\n---\n{body}\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    git(root, "init", "-q")
    for name in ("a.md", "b.md", "c.md", "_stm/old.md"):
        write_note(root, name, f"{name}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


@pytest.fixture
def git_commands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every git command our runner starts, to tell which way a commit was made."""
    ran: list[tuple[str, ...]] = []
    run = GitRunner.run

    def recording(self: GitRunner, *args: str, **kwargs: Any) -> Any:
        ran.append(args)
        return run(self, *args, **kwargs)

    monkeypatch.setattr(GitRunner, "run", recording)
    return ran


def made_by(ran: list[tuple[str, ...]]) -> str:
    names = {args[0] for args in ran}
    assert not {"commit", "commit-tree"} <= names  # one way or the other, never both
    return "git commit" if "commit" in names else "plumbing" if "commit-tree" in names else ""


def on_command(monkeypatch: pytest.MonkeyPatch, name: str, act: Callable[[], None]) -> list[str]:
    """Run `act` once, just before our first `git <name>`."""
    done: list[str] = []
    run = GitRunner.run

    def before(self: GitRunner, *args: str, **kwargs: Any) -> Any:
        if args and args[0] == name and not done:
            done.append(name)
            act()
        return run(self, *args, **kwargs)

    monkeypatch.setattr(GitRunner, "run", before)
    return done


def test_a_persons_staged_and_unstaged_work_stays_as_it_was(
    vault: Path, git_commands: list[tuple[str, ...]]
) -> None:
    write_note(vault, "a.md", "the person's staged edit\n")
    write_note(vault, "new.md", "the person's staged new file\n")
    git(vault, "add", "a.md", "new.md")
    git(vault, "rm", "-q", "b.md")  # a staged deletion
    write_note(vault, "c.md", "the person's unstaged edit\n")
    write_note(vault, "_stm/m.md", a_memory("saved"))
    write_note(vault, "_stm/old.md", "edited by us\n")
    staged_before = git(vault, "diff", "--cached", "--name-status")

    sha = VaultHistory(vault).commit_paths(["_stm/m.md", "_stm/old.md"], "save: m")

    assert made_by(git_commands) == "plumbing"
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert name_status(vault) == {"A\t_stm/m.md", "M\t_stm/old.md"}
    assert git(vault, "diff", "--cached", "--name-status") == staged_before
    assert status(vault) == {"M  a.md", "A  new.md", "D  b.md", " M c.md"}
    assert git(vault, "show", ":a.md") == "the person's staged edit\n"
    assert git(vault, "show", "HEAD:a.md") == "a.md\n"
    # the index's entries for our paths carry their files' stat data: nothing to refresh
    assert git(vault, "diff-files", "--name-only", "--", "_stm") == ""


def test_the_index_takes_our_committed_paths_without_git_asked_first_which_differ(
    vault: Path, git_commands: list[tuple[str, ...]]
) -> None:
    write_note(vault, "_stm/m.md", a_memory("saved"))
    write_note(vault, "_stm/old.md", "edited by us\n")
    sha = VaultHistory(vault).commit_paths(["_stm/m.md", "_stm/old.md"], "save: m")
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    # one diff-index, of the copy against HEAD; none of the index against the new commit
    assert [a for a in git_commands if a[0] == "diff-index"] == [
        a for a in git_commands if a[0] == "diff-index" and "--no-renames" in a
    ]
    assert len([a for a in git_commands if a[0] == "diff-index"]) == 1
    # the copy's entries for our paths are read from that diff, not asked of ls-files again
    assert not [
        a for a in git_commands if a[0] == "ls-files" and "--stage" in a and "--others" not in a
    ]
    assert git(vault, "diff", "--cached", "--name-only") == ""
    assert git(vault, "ls-files", "--stage", "_stm") == git(
        vault, "ls-tree", "HEAD", "--", "_stm/"
    ).replace(" blob ", " ").replace("\t", " 0\t")
    assert status(vault) == set()


def test_a_path_the_person_staged_as_we_wrote_it_stays_in_step(vault: Path) -> None:
    write_note(vault, "_stm/m.md", a_memory("saved"))
    git(vault, "add", "_stm/m.md")  # staged before our commit, as it is on disk
    sha = VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m")
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert name_status(vault) == {"A\t_stm/m.md"}
    assert git(vault, "diff", "--cached", "--name-only") == ""
    assert status(vault) == set()


def test_the_commit_is_the_one_git_commit_makes(
    vault: Path, git_commands: list[tuple[str, ...]]
) -> None:
    """Message (cleaned as `git commit -F` cleans it), author, committer, reflog entry."""
    message = "\n\nsave: tea   \n\n\n\nbody line\t\n  indented\n\nCortexgraph-Operation: save\n\n"
    write_note(vault, "_stm/m.md", a_memory("tea"))
    VaultHistory(vault).commit_paths(["_stm/m.md"], message)
    assert made_by(git_commands) == "plumbing"
    ours = git(vault, "cat-file", "commit", "HEAD").partition("\n\n")[2]
    write_note(vault, "_stm/m.md", a_memory("coffee"))
    git(vault, "commit", "-q", "-F", "-", "--", "_stm/m.md", input=message)
    theirs = git(vault, "cat-file", "commit", "HEAD").partition("\n\n")[2]
    assert ours == theirs == clean_message(message)
    people = git(vault, "log", "-2", "--format=%an <%ae>|%cn <%ce>").splitlines()
    assert (
        people[0]
        == people[1]
        == "Test Person <person@example.org>|Test Person <person@example.org>"
    )
    assert git(vault, "reflog", "-2", "--format=%gs").splitlines()[1] == "commit: save: tea"


@pytest.mark.parametrize(
    "message",
    [
        "plain",
        "subject\nbody",
        "  leading spaces kept\n\n\n\ntrailing\t \r\n\n",
        "\n\n\nx\n\n\ny\n",
        "café # not a comment\n#also kept\n",
        "a\r\nb\r\n",
        "\tonly\ttabs\t\n \n\t\n",
    ],
)
def test_the_message_is_cleaned_as_git_cleans_it(vault: Path, message: str) -> None:
    assert clean_message(message) == git(vault, "stripspace", input=message)


def test_another_tools_commit_between_our_steps_is_kept(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """obsidian-git commits after we read HEAD, before we move it: we build again on its commit."""

    def their_commit() -> None:
        write_note(vault, "a.md", "committed by another tool\n")
        git(vault, "commit", "-qm", "obsidian-git", "--", "a.md")

    write_note(vault, "_stm/m.md", a_memory("saved"))
    done = on_command(monkeypatch, "update-ref", their_commit)
    sha = VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m")
    assert done == ["update-ref"]
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert git(vault, "log", "--format=%s").splitlines() == ["save: m", "obsidian-git", "start"]
    assert name_status(vault) == {"A\t_stm/m.md"}
    assert git(vault, "show", "HEAD:a.md") == "committed by another tool\n"
    assert status(vault) == set()


def test_another_tool_committing_our_file_first_leaves_nothing_to_record(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def their_commit_of_everything() -> None:
        git(vault, "add", "-A")
        git(vault, "commit", "-qm", "vault backup")

    write_note(vault, "_stm/m.md", a_memory("saved"))
    on_command(monkeypatch, "update-ref", their_commit_of_everything)
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is None
    assert git(vault, "log", "--format=%s").splitlines() == ["vault backup", "start"]
    assert status(vault) == set()


def test_an_index_written_back_after_our_snapshot_is_set_to_the_commit(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another tool read the index before our staging and writes it back (a new file, as git
    writes one) while we commit: the commit is made, and the index holds it again."""
    index = vault / ".git" / "index"
    before = index.read_bytes()

    def write_back() -> None:
        aside = index.with_name("index.other-tool")
        aside.write_bytes(before)
        os.replace(aside, index)

    write_note(vault, "_stm/m.md", a_memory("saved"))
    write_note(vault, "_stm/old.md", "edited by us\n")
    done = on_command(monkeypatch, "write-tree", write_back)
    sha = VaultHistory(vault).commit_paths(["_stm/m.md", "_stm/old.md"], "save: m")
    assert done == ["write-tree"]
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert name_status(vault) == {"A\t_stm/m.md", "M\t_stm/old.md"}
    assert git(vault, "diff", "--cached", "--name-only") == ""
    assert status(vault) == set()


def test_a_tool_that_read_the_index_before_our_write_and_writes_it_after_is_caught_up(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`git commit --only` reads the index, then locks it: a tool committing again and again
    whose read falls before our write of the index and whose lock falls after it writes our
    paths back as they were. Seen holding the lock, it is waited for, and the index set again."""
    index = vault / ".git" / "index"
    lock = index.with_name("index.lock")
    before = index.read_bytes()
    done: list[str] = []
    run = GitRunner.run

    def their_commit_under_way(self: GitRunner, *args: str, **kwargs: Any) -> Any:
        result = run(self, *args, **kwargs)
        if args[:2] == ("update-index", "-z") and "--index-info" in args and not done:
            done.append("written back")  # just after our write of the index: their lock...
            lock.write_bytes(before)
            threading.Timer(0.2, os.replace, (lock, index)).start()  # ...and what they read
        return result

    monkeypatch.setattr(GitRunner, "run", their_commit_under_way)
    write_note(vault, "_stm/m.md", a_memory("saved"))
    write_note(vault, "_stm/old.md", "edited by us\n")
    sha = VaultHistory(vault).commit_paths(["_stm/m.md", "_stm/old.md"], "save: m")
    assert done == ["written back"] and not lock.exists()
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert git(vault, "diff", "--cached", "--name-only") == ""
    assert status(vault) == set()


def test_moves_and_deletions(vault: Path, git_commands: list[tuple[str, ...]]) -> None:
    history = VaultHistory(vault)
    (vault / "memories").mkdir()
    (vault / "_stm/old.md").rename(vault / "memories/old.md")
    history.commit_paths(["_stm/old.md", "memories/old.md"], "promote")
    assert name_status(vault) == {"D\t_stm/old.md", "A\tmemories/old.md"}
    (vault / "a.md").unlink()
    git(vault, "rm", "-q", "--cached", "b.md")  # already gone from the index
    (vault / "b.md").unlink()
    history.commit_paths(["a.md", "b.md"], "forget")
    assert name_status(vault) == {"D\ta.md", "D\tb.md"}
    assert made_by(git_commands) == "plumbing"
    assert status(vault) == set()


def hook(folder: Path, name: str, script: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.mark.parametrize("where", ["hooks", "core.hooksPath"])
@pytest.mark.parametrize("name", ["pre-commit", "commit-msg", "post-commit", "prepare-commit-msg"])
def test_commit_hooks_still_run(
    vault: Path, git_commands: list[tuple[str, ...]], where: str, name: str
) -> None:
    folder = vault / ".git" / "hooks"
    if where == "core.hooksPath":
        folder = vault / ".githooks"
        git(vault, "config", "core.hooksPath", ".githooks")
    hook(folder, name, f'echo ran >> "$(git rev-parse --git-dir)/{name}.ran"')
    write_note(vault, "_stm/m.md", a_memory("saved"))
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is not None
    assert (vault / ".git" / f"{name}.ran").read_text() == "ran\n"
    assert made_by(git_commands) == "git commit"
    assert name_status(vault) == {"A\t_stm/m.md"}


def test_a_hook_that_is_not_executable_does_not_run_and_changes_nothing(
    vault: Path, git_commands: list[tuple[str, ...]]
) -> None:
    (vault / ".git/hooks/pre-commit").write_text("#!/bin/sh\nexit 1\n")  # git would skip it
    write_note(vault, "_stm/m.md", a_memory("saved"))
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is not None
    assert made_by(git_commands) == "plumbing"


def test_signed_commits_are_still_signed(
    vault: Path, tmp_path: Path, git_commands: list[tuple[str, ...]]
) -> None:
    signer = tmp_path / "fake-gpg"
    signer.write_text(
        "#!/bin/sh\ncat >/dev/null\necho '[GNUPG:] SIG_CREATED ' >&2\n"
        "printf -- '-----BEGIN PGP SIGNATURE-----\\nfake\\n-----END PGP SIGNATURE-----\\n'\n"
    )
    signer.chmod(0o755)
    git(vault, "config", "commit.gpgSign", "true")
    git(vault, "config", "gpg.program", str(signer))
    write_note(vault, "_stm/m.md", a_memory("saved"))
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is not None
    assert made_by(git_commands) == "git commit"
    assert "\ngpgsig -----BEGIN PGP SIGNATURE-----" in git(vault, "cat-file", "commit", "HEAD")


def test_during_a_merge_nothing_is_committed_onto_it(
    vault: Path, git_commands: list[tuple[str, ...]]
) -> None:
    git(vault, "switch", "-q", "-c", "side")
    write_note(vault, "a.md", "side\n")
    git(vault, "commit", "-qam", "side")
    git(vault, "switch", "-q", "main")
    write_note(vault, "a.md", "main\n")
    git(vault, "commit", "-qam", "main")
    subprocess.run(["git", "-C", str(vault), "merge", "-q", "side"], capture_output=True)
    assert (vault / ".git" / "MERGE_HEAD").exists()
    write_note(vault, "_stm/m.md", a_memory("saved"))
    head = git(vault, "rev-parse", "HEAD")
    with pytest.raises(GitOperationInProgress, match="a merge is in progress"):
        VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m")
    assert made_by(git_commands) == ""
    assert (vault / ".git" / "MERGE_HEAD").exists()
    assert git(vault, "rev-parse", "HEAD") == head


def test_loose_objects_piling_up_start_the_automatic_gc(vault: Path) -> None:
    """`git commit` runs `git maintenance run --auto`; the plumbing does when gc is due."""
    git(vault, "config", "gc.auto", "1")  # due with 2 loose objects in objects/17
    git(vault, "config", "gc.autoDetach", "false")
    folder = vault / "blobs"
    folder.mkdir()
    for i in range(1500):
        (folder / f"{i}").write_text(f"blob {i}\n")
    git(vault, "add", "blobs")  # staged by the person: loose objects that gc will pack
    assert len(os.listdir(vault / ".git/objects/17")) >= 2
    write_note(vault, "_stm/m.md", a_memory("saved"))
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is not None
    assert not (vault / ".git/objects/17").exists() or not os.listdir(vault / ".git/objects/17")
    assert "_stm/m.md" in git(vault, "ls-tree", "-r", "--name-only", "HEAD")


def test_a_split_index_is_left_to_git_commit(
    vault: Path, git_commands: list[tuple[str, ...]]
) -> None:
    git(vault, "update-index", "--split-index")
    write_note(vault, "a.md", "the person's staged edit\n")
    git(vault, "add", "a.md")
    write_note(vault, "_stm/m.md", a_memory("saved"))
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is not None
    assert made_by(git_commands) == "git commit"
    assert name_status(vault) == {"A\t_stm/m.md"}
    assert status(vault) == {"M  a.md"}


def test_a_staged_submodule_the_person_ignores_stays_out_of_our_commit(
    vault: Path, tmp_path: Path, git_commands: list[tuple[str, ...]]
) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q")
    write_note(sub, "x.md", "one\n")
    git(sub, "add", "-A")
    git(sub, "commit", "-qm", "one")
    git(vault, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "sub")
    git(vault, "config", "-f", ".gitmodules", "submodule.sub.ignore", "all")
    git(vault, "add", ".gitmodules")
    git(vault, "commit", "-qm", "a submodule")
    recorded = git(vault, "rev-parse", "HEAD:sub")
    write_note(vault / "sub", "x.md", "two\n")
    git(vault / "sub", "commit", "-qam", "two")
    git(vault, "add", "sub")  # the person stages the submodule's new commit
    write_note(vault, "_stm/m.md", a_memory("saved"))
    assert VaultHistory(vault).commit_paths(["_stm/m.md"], "save: m") is not None
    assert made_by(git_commands) == "plumbing"
    assert name_status(vault) == {"A\t_stm/m.md"}
    assert git(vault, "rev-parse", "HEAD:sub") == recorded
    staged = git(vault, "diff", "--cached", "--ignore-submodules=none", "--name-only")
    assert staged == "sub\n"
