"""History against real git repositories in tmp_path: exact commits, and memories followed by id."""

from __future__ import annotations

import subprocess
from datetime import UTC
from pathlib import Path

import pytest

from cortexgraph_vault.errors import GitError, NotFound, UnsafePath
from cortexgraph_vault.history import GITIGNORE, VaultHistory, VersionNotFound
from cortexgraph_vault.history.tracing import frontmatter_id
from tests.builders import write_note
from tests.conftest import git

ID_A = "3f1c9a0e-0000-4000-8000-00000000000a"
ID_B = "3f1c9a0e-0000-4000-8000-00000000000b"


pytestmark = pytest.mark.usefixtures("git_of_a_person")


def a_memory(memory_id: str, body: str = "I prefer tea.", *, quote: str = "") -> str:
    return f"---\nid: {quote}{memory_id}{quote}\nuse_count: 1\n---\n{body}\n"


def name_status(repo: Path, rev: str = "HEAD") -> set[str]:
    out = git(repo, "show", "--name-status", "--format=", "-M", rev)
    return {line for line in out.splitlines() if line}


def status(repo: Path) -> set[str]:
    out = git(repo, "status", "--porcelain", "--untracked-files=all")
    return {line for line in out.splitlines() if line}


def commit_count(repo: Path) -> int:
    return int(git(repo, "rev-list", "--count", "HEAD").strip())


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    git(root, "init", "-q")
    write_note(root, "a.md", "alpha\n")
    write_note(root, "other.md", "other\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


# commit_paths


def test_commits_only_the_listed_paths_leaving_a_persons_work_alone(vault: Path) -> None:
    write_note(vault, "staged.md", "the person's staged work\n")
    git(vault, "add", "staged.md")
    write_note(vault, "other.md", "the person's unstaged edit\n")
    write_note(vault, "_stm/m.md", a_memory(ID_A))
    write_note(vault, "a.md", "alpha, edited by us\n")

    sha = VaultHistory(vault).commit_paths(["_stm/m.md", "a.md"], "save: m")

    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert name_status(vault) == {"A\t_stm/m.md", "M\ta.md"}
    assert status(vault) == {"A  staged.md", " M other.md"}
    assert git(vault, "show", ":staged.md") == "the person's staged work\n"


def test_deletion_and_move_are_recorded(vault: Path) -> None:
    history = VaultHistory(vault)
    write_note(vault, "_stm/m.md", a_memory(ID_A))
    history.commit_paths(["_stm/m.md"], "save")
    (vault / "memories").mkdir()
    (vault / "_stm/m.md").rename(vault / "memories/m.md")
    history.commit_paths(["_stm/m.md", "memories/m.md"], "promote")
    assert name_status(vault) == {"R100\t_stm/m.md\tmemories/m.md"}
    (vault / "a.md").unlink()
    history.commit_paths(["a.md"], "forget")
    assert name_status(vault) == {"D\ta.md"}
    assert status(vault) == set()


def test_deletion_git_already_unstaged_is_recorded(vault: Path) -> None:
    git(vault, "rm", "-q", "--cached", "a.md")
    (vault / "a.md").unlink()
    assert VaultHistory(vault).commit_paths(["a.md"], "forget") is not None
    assert name_status(vault) == {"D\ta.md"}
    assert status(vault) == set()


def test_awkward_names_are_files_not_patterns(vault: Path) -> None:
    names = ["_stm/café au lait #1 [draft].md", "_stm/[abc].md", "_stm/what?*.md"]
    for name in [*names, "_stm/a.md"]:
        write_note(vault, name, a_memory(ID_A, name))
    sha = VaultHistory(vault).commit_paths(names, "save awkward")
    assert sha is not None
    assert name_status(vault) == {f"A\t{name}" for name in names}
    assert status(vault) == {"?? _stm/a.md"}  # `[abc].md` as a glob would have matched it


def test_nothing_to_record_returns_none(vault: Path) -> None:
    history = VaultHistory(vault)
    before = commit_count(vault)
    assert history.commit_paths([], "empty") is None
    assert history.commit_paths(["never-existed.md"], "ghost") is None
    assert history.commit_paths(["a.md"], "unchanged") is None
    write_note(vault, "b.md", "b\n")
    assert history.commit_paths(["b.md", "never-existed.md"], "one real") is not None
    assert commit_count(vault) == before + 1
    assert name_status(vault) == {"A\tb.md"}


def test_unchanged_path_keeps_a_persons_staged_version(vault: Path) -> None:
    write_note(vault, "a.md", "staged by the person\n")
    git(vault, "add", "a.md")
    write_note(vault, "a.md", "alpha\n")  # the working file is back to HEAD's content
    assert VaultHistory(vault).commit_paths(["a.md"], "nothing") is None
    assert git(vault, "show", ":a.md") == "staged by the person\n"


@pytest.mark.parametrize("path", ["_stm/new.md", "a.md"])
def test_our_staging_written_over_by_another_tool_is_staged_again(
    vault: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """obsidian-git's `git commit -- <its paths>` reads the index before our `add` and writes it
    back after: our entry is gone from the index again. A new file is then untracked once more
    (which `git diff HEAD` does not show), and must still be committed, not taken as done."""
    write_note(vault, path, a_memory(ID_A, "restored"))
    index = vault / ".git" / "index"
    before = index.read_bytes()
    runner_class = type(VaultHistory(vault).runner)
    run = runner_class.run
    undone: list[str] = []

    def run_then_lose_our_add(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = run(self, *args, **kwargs)
        staging = "add" in args or ("update-index" in args and "--stdin" in args)
        if staging and not undone:
            index.write_bytes(before)  # the other tool's write-back of the index it read
            undone.append(path)
        return result

    monkeypatch.setattr(runner_class, "run", run_then_lose_our_add)
    sha = VaultHistory(vault).commit_paths([path], "restore: new")
    assert undone == [path]
    assert sha is not None and sha == git(vault, "rev-parse", "HEAD").strip()
    assert name_status(vault) == {f"{'A' if path.startswith('_stm') else 'M'}\t{path}"}
    assert status(vault) == set()


def test_unsafe_paths_are_refused(vault: Path) -> None:
    history = VaultHistory(vault)
    for path in ("../outside.md", "/etc/passwd", ".git/config", "_stm/../../x.md"):
        with pytest.raises(UnsafePath):
            history.commit_paths([path], "escape")


def test_plugin_settings_are_never_committed(vault: Path) -> None:
    write_note(vault, ".obsidian/plugins/cortexgraph/data.json", '{"token": "secret"}')
    assert (
        VaultHistory(vault).commit_paths([".obsidian/plugins/cortexgraph/data.json"], "x") is None
    )


def test_no_identity_falls_back_to_ours(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty_home = vault.parent / "empty-home"
    empty_home.mkdir()
    monkeypatch.setenv("HOME", str(empty_home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    write_note(vault, "b.md", "b\n")
    VaultHistory(vault).commit_paths(["b.md"], "no identity")
    author = git(vault, "log", "-1", "--format=%an <%ae>|%cn <%ce>").strip()
    fallback = "cortexgraph-vault <cortexgraph-vault@localhost>"
    assert author == f"{fallback}|{fallback}"


def test_configured_identity_is_kept(vault: Path) -> None:
    git(vault, "config", "user.name", "Repo Owner")
    git(vault, "config", "user.email", "owner@example.org")
    write_note(vault, "b.md", "b\n")
    VaultHistory(vault).commit_paths(["b.md"], "as the owner")
    assert git(vault, "log", "-1", "--format=%an <%ae>").strip() == "Repo Owner <owner@example.org>"


def test_detached_head(vault: Path) -> None:
    git(vault, "checkout", "-q", "--detach")
    write_note(vault, "b.md", "b\n")
    sha = VaultHistory(vault).commit_paths(["b.md"], "detached")
    assert sha == git(vault, "rev-parse", "HEAD").strip()
    assert subprocess.run(["git", "-C", str(vault), "symbolic-ref", "-q", "HEAD"]).returncode == 1


def test_first_commit_in_an_empty_repository(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    write_note(root, "staged.md", "theirs\n")
    git(root, "add", "staged.md")
    write_note(root, "_stm/m.md", a_memory(ID_A))
    history = VaultHistory(root)
    assert history.memory_log(ID_A) == []
    assert history.forgotten() == []
    assert history.commit_paths(["_stm/m.md"], "first") is not None
    assert commit_count(root) == 1
    assert git(root, "show", "--name-only", "--format=", "HEAD").split() == ["_stm/m.md"]
    assert status(root) == {"A  staged.md"}


def test_vault_in_a_folder_of_a_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "notes").mkdir(parents=True)
    git(root, "init", "-q")
    write_note(root, "outside.md", "not the vault\n")
    write_note(root, "notes/_stm/a.md", a_memory(ID_A))
    history = VaultHistory(root / "notes")
    history.commit_paths(["_stm/a.md"], "save")
    assert git(root, "show", "--name-only", "--format=", "HEAD").split() == ["notes/_stm/a.md"]
    log = history.memory_log(ID_A)
    assert [(c.change, c.paths) for c in log] == [("added", ("_stm/a.md",))]
    assert history.text_at("HEAD", "_stm/a.md") == a_memory(ID_A)
    assert status(root) == {"?? outside.md"}


def test_unavailable_until_init(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    history = VaultHistory(root)
    assert not history.available
    assert "not a git repository" in history.why_unavailable()
    assert "cortexgraph-vault init" in history.why_unavailable()
    with pytest.raises(GitError, match="nothing was committed"):
        history.commit_paths(["a.md"], "x")
    VaultHistory.init_repo(root)
    assert history.available
    assert history.why_unavailable() == ""


# init_repo


def test_init_repo_commits_everything_once(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    write_note(root, "_stm/a.md", a_memory(ID_A))
    write_note(root, ".obsidian/workspace.json", "{}")
    write_note(root, ".obsidian/app.json", "{}")
    write_note(root, ".obsidian/plugins/x/data.json", "{}")
    VaultHistory.init_repo(root)
    VaultHistory.init_repo(root)
    assert commit_count(root) == 1
    assert (root / ".gitignore").read_text() == GITIGNORE
    tracked = set(git(root, "ls-files").split())
    assert tracked == {".gitignore", "_stm/a.md", ".obsidian/app.json"}


def test_init_repo_keeps_an_existing_gitignore_and_a_persons_work(tmp_path: Path) -> None:
    root = tmp_path / "theirs"
    root.mkdir()
    git(root, "init", "-q")
    write_note(root, "kept.md", "k\n")
    git(root, "add", "kept.md")
    git(root, "commit", "-qm", "theirs")
    write_note(root, "draft.md", "uncommitted draft\n")
    VaultHistory.init_repo(root)
    assert name_status(root) == {"A\t.gitignore"}
    assert status(root) == {"?? draft.md"}
    (root / ".gitignore").write_text("custom\n")
    git(root, "commit", "-qam", "custom ignore")
    VaultHistory.init_repo(root)
    assert (root / ".gitignore").read_text() == "custom\n"


# A memory's history


@pytest.fixture
def lived(vault: Path) -> tuple[Path, list[str]]:
    """ID_A: created in _stm/a.md, edited, moved to memories/b.md, edited, deleted; then ID_B
    takes both of its old paths. Returns the vault and ID_A's commits, oldest first."""
    history = VaultHistory(vault)
    shas: list[str] = []

    def commit(paths: list[str], message: str) -> str:
        sha = history.commit_paths(paths, message)
        assert sha is not None
        return sha

    write_note(vault, "_stm/a.md", a_memory(ID_A, "v1"))
    shas.append(commit(["_stm/a.md"], "save a"))
    write_note(vault, "other.md", "unrelated\n")
    commit(["other.md"], "unrelated")
    write_note(vault, "_stm/a.md", a_memory(ID_A, "v2"))
    shas.append(commit(["_stm/a.md"], "touch a"))
    (vault / "memories").mkdir()
    (vault / "_stm/a.md").rename(vault / "memories/b.md")
    shas.append(commit(["_stm/a.md", "memories/b.md"], "promote a"))
    write_note(vault, "memories/b.md", a_memory(ID_A, "v4\r\nwith CRLF  \nand ünïcode"))
    shas.append(commit(["memories/b.md"], "edit a"))
    (vault / "memories/b.md").unlink()
    shas.append(commit(["memories/b.md"], "gc: forget a\n\nForgotten: a\nMemory-Id: " + ID_A))
    write_note(vault, "_stm/a.md", a_memory(ID_B, "another memory"))
    write_note(vault, "memories/b.md", a_memory(ID_B, "same path, other id"))
    commit(["_stm/a.md", "memories/b.md"], "save b")
    write_note(vault, "notes.md", f"I once wrote about {ID_A} in a body.\n")
    commit(["notes.md"], "mention")
    return vault, shas


def test_memory_log_follows_the_id_across_moves(lived: tuple[Path, list[str]]) -> None:
    vault, shas = lived
    log = VaultHistory(vault).memory_log(ID_A)
    assert [c.sha for c in log] == shas[::-1]
    assert [c.change for c in log] == ["deleted", "modified", "renamed", "modified", "added"]
    assert [c.paths for c in log] == [
        ("memories/b.md",),
        ("memories/b.md",),
        ("_stm/a.md", "memories/b.md"),
        ("_stm/a.md",),
        ("_stm/a.md",),
    ]
    newest = log[0]
    assert newest.summary == "gc: forget a"
    assert newest.message.endswith("Memory-Id: " + ID_A)
    assert newest.short == newest.sha[:7]
    assert newest.author == "Test Person <person@example.org>"
    assert newest.time.tzinfo is not None and newest.time.utcoffset() == UTC.utcoffset(None)
    assert len(VaultHistory(vault).memory_log(ID_A, limit=2)) == 2


def test_other_memory_at_the_same_paths_is_not_mixed_in(lived: tuple[Path, list[str]]) -> None:
    vault, _ = lived
    log = VaultHistory(vault).memory_log(ID_B)
    assert [(c.change, c.summary) for c in log] == [("added", "save b")]
    assert VaultHistory(vault).memory_log("no-such-id") == []


def test_versions_text_and_last_version(lived: tuple[Path, list[str]]) -> None:
    vault, shas = lived
    history = VaultHistory(vault)
    versions = history.memory_versions(ID_A)
    # The pure move is the same content and is not repeated.
    assert [(v.commit.sha, v.path) for v in versions] == [
        (shas[3], "memories/b.md"),
        (shas[1], "_stm/a.md"),
        (shas[0], "_stm/a.md"),
    ]
    assert versions[0].text == a_memory(ID_A, "v4\r\nwith CRLF  \nand ünïcode")
    assert history.text_at(shas[3], "memories/b.md") == versions[0].text
    assert history.bytes_at(shas[3], "memories/b.md") == versions[0].text.encode()
    last = history.last_version_before_deletion(ID_A)
    assert last is not None
    assert (last.commit.sha, last.path, last.text) == (shas[3], "memories/b.md", versions[0].text)
    assert history.last_version_before_deletion("no-such-id") is None
    assert len(history.memory_versions(ID_A, limit=1)) == 1


def test_text_at_missing_is_not_found(lived: tuple[Path, list[str]]) -> None:
    vault, shas = lived
    history = VaultHistory(vault)
    for commit, path in [
        (shas[0], "memories/b.md"),
        ("no-such-commit", "a.md"),
        ("--output=/tmp/x", "a.md"),
        ("HEAD", "_stm"),
    ]:
        with pytest.raises(VersionNotFound) as caught:
            history.text_at(commit, path)
        assert isinstance(caught.value, GitError) and isinstance(caught.value, NotFound)


def test_forgotten_lists_deleted_memories_not_present_at_head(
    lived: tuple[Path, list[str]],
) -> None:
    vault, shas = lived
    history = VaultHistory(vault)
    # A moved memory, a deleted-then-restored memory and a deleted plain note are not forgotten.
    restored = "3f1c9a0e-0000-4000-8000-00000000000c"
    write_note(vault, "_stm/r.md", a_memory(restored))
    write_note(vault, "plain.md", "no frontmatter\n")
    history.commit_paths(["_stm/r.md", "plain.md"], "add")
    (vault / "_stm/r.md").unlink()
    (vault / "plain.md").unlink()
    history.commit_paths(["_stm/r.md", "plain.md"], "delete")
    write_note(vault, "_stm/r.md", a_memory(restored))
    history.commit_paths(["_stm/r.md"], "restore")

    forgotten = history.forgotten()
    assert [(f.id, f.title, f.path) for f in forgotten] == [(ID_A, "b", "memories/b.md")]
    assert forgotten[0].deleted_in.sha == shas[4]
    assert forgotten[0].deleted_in.change == "deleted"
    assert forgotten[0].last_text == a_memory(ID_A, "v4\r\nwith CRLF  \nand ünïcode")
    assert history.forgotten(limit=0) == []


def test_hand_made_note_history_with_path_hint(vault: Path) -> None:
    history = VaultHistory(vault)
    write_note(vault, "_stm/h.md", "---\ntags: [x]\n---\nwritten by hand\n")
    first = history.commit_paths(["_stm/h.md"], "by hand")
    write_note(vault, "_stm/h.md", "---\ntags: [x]\nid: 'hand-made-1'\n---\nwritten by hand\n")
    second = history.commit_paths(["_stm/h.md"], "got an id")
    assert [(c.sha, c.change) for c in history.memory_log("hand-made-1")] == [(second, "added")]
    with_hint = history.memory_log("hand-made-1", path_hint="_stm/h.md")
    assert [(c.sha, c.change) for c in with_hint] == [(second, "modified"), (first, "added")]


def test_awkward_commit_messages_parse(vault: Path) -> None:
    history = VaultHistory(vault)
    write_note(vault, "_stm/m.md", a_memory(ID_A, "1"))
    git(vault, "add", "_stm/m.md")
    git(vault, "commit", "-q", "--allow-empty-message", "-m", "")
    write_note(vault, "_stm/m.md", a_memory(ID_A, "2"))
    tricky = "x\n\n:100644 100644 " + "a" * 40 + " " + "b" * 40 + " M\n" + "c" * 40 + "\n"
    assert history.commit_paths(["_stm/m.md"], tricky) is not None
    log = history.memory_log(ID_A)
    assert [(c.change, c.summary) for c in log] == [("modified", "x"), ("added", "")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"---\nid: {ID_A}\n---\nbody", ID_A),
        (f"---\nid: '{ID_A}'\n---\n", ID_A),
        (f'\ufeff---\r\nid: "{ID_A}"\r\n---\r\n', ID_A),
        (f"---\nid: {ID_A}  # stable\n---\n", ID_A),
        (f"---\ntitle: t\n---\nid: {ID_A}\n", None),
        (f"no frontmatter\nid: {ID_A}\n", None),
        ("---\nid:\n---\n", None),
        (f"---\nnested:\n  id: {ID_A}\n---\n", None),
    ],
)
def test_frontmatter_id(text: str, expected: str | None) -> None:
    assert frontmatter_id(text) == expected


def test_history_of_a_thousand_commits_takes_a_few_git_calls_not_one_per_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "big"
    root.mkdir()
    git(root, "init", "-q")
    stream = []
    for n in range(1000):
        path = f"_stm/note-{n % 100}.md"
        text = a_memory(ID_A if n % 100 == 7 else f"id-{n % 100}", f"version {n}")
        if n == 507:
            path = "memories/moved.md"
        data = text.encode()
        stream.append(
            f"commit refs/heads/main\ncommitter T <t@e> {1_700_000_000 + n} +0000\n"
            f"data 3\nc{n % 10}\n"
            f"M 100644 inline {path}\ndata {len(data)}\n"
        )
        stream.append(data.decode() + "\n")
    subprocess.run(
        ["git", "-C", str(root), "fast-import", "--quiet"],
        input="".join(stream).encode(),
        check=True,
    )
    history = VaultHistory(root)
    spawned: list[object] = []
    popen = subprocess.Popen.__init__

    def counted(self: subprocess.Popen[bytes], *args: object, **kwargs: object) -> None:
        spawned.append(args[0] if args else kwargs.get("args"))
        popen(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess.Popen, "__init__", counted)
    log = history.memory_log(ID_A, limit=100)
    assert len(log) == 10  # nine edits at note-7, and one copy written to memories/moved.md
    assert len(spawned) <= 10, (
        spawned
    )  # what keeps it fast: one walk of the log, not one per commit


def test_edits_arriving_through_a_merge_are_in_the_log(vault: Path) -> None:
    history = VaultHistory(vault)
    write_note(vault, "_stm/m.md", a_memory(ID_A, "v1"))
    history.commit_paths(["_stm/m.md"], "save")
    git(vault, "checkout", "-q", "-b", "laptop")
    write_note(vault, "_stm/m.md", a_memory(ID_A, "edited on the laptop"))
    history.commit_paths(["_stm/m.md"], "laptop edit")
    git(vault, "checkout", "-q", "main")
    write_note(vault, "other.md", "desktop edit\n")
    history.commit_paths(["other.md"], "desktop edit")
    git(vault, "merge", "-q", "--no-edit", "laptop")
    assert [c.summary for c in history.memory_log(ID_A)] == ["laptop edit", "save"]
    assert history.memory_versions(ID_A)[0].text == a_memory(ID_A, "edited on the laptop")


def test_forgotten_newest_deletion_first(vault: Path) -> None:
    history = VaultHistory(vault)
    for memory_id, name in ((ID_A, "first"), (ID_B, "second")):
        write_note(vault, f"_stm/{name}.md", a_memory(memory_id))
        history.commit_paths([f"_stm/{name}.md"], f"save {name}")
    for name in ("first", "second"):
        (vault / f"_stm/{name}.md").unlink()
        history.commit_paths([f"_stm/{name}.md"], f"gc {name}")
    assert [f.title for f in history.forgotten()] == ["second", "first"]
    assert [f.title for f in history.forgotten(limit=1)] == ["second"]


@pytest.mark.parametrize("subfolder", [False, True])
def test_changed_paths(tmp_path: Path, subfolder: bool) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    root = repo / "vault" if subfolder else repo
    write_note(repo, "outside/x.md", "x\n")  # outside the vault when it is a folder
    write_note(root, "_stm/kept.md", "k\n")
    write_note(root, "_stm/edited.md", "e\n")
    write_note(root, "_stm/gone.md", "g\n")
    write_note(root, "memories/m.md", "m\n")
    history = VaultHistory(root)
    assert history.changed_paths(["_stm"]) == ["_stm/edited.md", "_stm/gone.md", "_stm/kept.md"]
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    assert history.changed_paths(["_stm", "memories"]) == []
    write_note(root, "_stm/edited.md", "edited\n")
    (root / "_stm/gone.md").unlink()
    write_note(root, "_stm/new [1].md", "n\n")
    write_note(root, "memories/m.md", "m2\n")
    write_note(root, ".obsidian/plugins/p/data.json", "{}")
    write_note(repo, "outside/x.md", "x2\n")
    expected = ["_stm/edited.md", "_stm/gone.md", "_stm/new [1].md"]
    assert history.changed_paths(["_stm/"]) == expected
    assert history.changed_paths(["_stm", "memories", "nothing-here"]) == [
        *expected,
        "memories/m.md",
    ]
    everything = [*expected, "memories/m.md"] + ([] if subfolder else ["outside/x.md"])
    assert history.changed_paths([""]) == sorted(everything)
    assert history.changed_paths([]) == []
