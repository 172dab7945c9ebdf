"""The git steps of `sync`: which remote, fetch, start a merge, read and settle what git left
unmerged, commit, push. Errors say what happened and what was left as it was (SyncError)."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from cortexgraph_vault.errors import SyncError
from cortexgraph_vault.history.git_settings import identity_config
from cortexgraph_vault.history.runner import GitResult, GitRunner, nul_join, split_nul
from cortexgraph_vault.history.transfer import run_with_progress
from cortexgraph_vault.progress import TransferLine

Hear = Callable[[TransferLine], object]

# Git's words when a remote refuses who we are, and when it cannot be reached at all.
_AUTH = re.compile(
    "authentication failed|could not read (username|password)|permission denied|"
    "terminal prompts disabled|403|401|access denied"
)
_UNREACHABLE = re.compile(
    "could not resolve host|does not appear to be a git repository|connection (refused|timed "
    "out)|unable to access|repository not found|no such file or directory"
)
_REJECTED = ("[rejected]", "non-fast-forward", "fetch first", "failed to push some refs")
# During a merge we settle memory notes ourselves, in one process: git's driver would start
# one process per note. `false` makes git leave each both-sides-changed note unmerged for us.
NO_DRIVER = ("-c", "merge.cortexgraph.driver=false")


@dataclass(frozen=True)
class Unmerged:
    repo_path: str
    stages: dict[int, str]  # 1 base, 2 ours, 3 theirs -> blob sha


def explain_remote_failure(remote: str, doing: str, result: GitResult) -> SyncError:
    text = result.err.lower()
    if _AUTH.search(text):
        why = "the remote refused our credentials"
        fix = "check the remote's credentials (git credential helper, SSH key) and sync again"
    elif _UNREACHABLE.search(text):
        why = "the remote could not be reached"
        fix = f"check `git remote get-url {remote}` and the network, then sync again"
    else:
        why, fix = "git failed", "see git's message"
    return SyncError(
        f"could not {doing} {remote!r}: {why} ({result.reason}); {fix}; nothing was changed here"
    )


def current_branch(runner: GitRunner) -> str:
    found = runner.run("symbolic-ref", "--short", "-q", "HEAD")
    if not found.ok:
        raise SyncError(
            f"{runner.work_tree}: HEAD is not on a branch (detached); check out a "
            "branch and sync again; nothing was changed"
        )
    return found.out.decode().strip()


def choose_remote(runner: GitRunner, branch: str, wanted: str | None) -> str:
    remotes = runner.run("remote").out.decode().split()
    if wanted is not None:
        if wanted not in remotes:
            known = ", ".join(remotes) or "none"
            raise SyncError(
                f"--remote {wanted}: no such remote in {runner.work_tree} (remotes: "
                f"{known}); nothing was changed"
            )
        return wanted
    configured = runner.run("config", "--get", f"branch.{branch}.remote").out.decode().strip()
    if configured in remotes:
        return configured
    if len(remotes) == 1:
        return remotes[0]
    if "origin" in remotes:
        return "origin"
    if not remotes:
        raise SyncError(
            f"{runner.work_tree}: the vault's repository has no remote to sync with; "
            "add one: git remote add origin URL"
        )
    raise SyncError(
        f"several remotes ({', '.join(remotes)}) and none is this branch's; "
        "choose one with --remote NAME"
    )


def foreign_changes(runner: GitRunner, is_ours: Callable[[str], bool]) -> list[str]:
    """Uncommitted changes to tracked files that are not memory notes (a person's own work)."""
    out = runner.check("status", "--porcelain=v1", "-z", "--untracked-files=no", "--no-renames")
    paths = [entry[3:] for entry in split_nul(out)]
    return sorted(p for p in paths if (mine := runner.from_repo(p)) is None or not is_ours(mine))


def merge_in_progress(runner: GitRunner) -> bool:
    return (runner.git_dir / "MERGE_HEAD").exists() or (runner.git_dir / "rebase-merge").exists()


def fetch(runner: GitRunner, remote: str, hear: Hear | None = None) -> None:
    """`hear` gets git's transfer lines (objects received, percent) as they come."""
    if hear is None:
        result = runner.run("fetch", "--quiet", "--no-tags", remote)
    else:
        result = run_with_progress(runner, "fetch", "--no-tags", remote, hear=hear)
    if not result.ok:
        raise explain_remote_failure(remote, "fetch from", result)


def remote_ref(runner: GitRunner, remote: str, branch: str) -> str | None:
    found = runner.run("rev-parse", "-q", "--verify", f"refs/remotes/{remote}/{branch}^{{commit}}")
    return found.out.decode().strip() if found.ok else None


def count(runner: GitRunner, revisions: str) -> int:
    return int(runner.check("rev-list", "--count", revisions).decode().strip() or 0)


def devices_in(runner: GitRunner, revisions: str, trailer: str) -> list[str]:
    """The device names our commits in `revisions` carry (their `trailer`), newest first."""
    found = runner.run(
        "log", f"--format=%(trailers:key={trailer},valueonly,separator=%x00)%x00", revisions
    )
    names = (name.strip() for name in found.out.decode("utf-8", "replace").split("\0"))
    return list(dict.fromkeys(name for name in names if name)) if found.ok else []


def merge_base(runner: GitRunner, a: str, b: str) -> str | None:
    found = runner.run("merge-base", a, b)
    return found.out.decode().strip() if found.ok else None


def fast_forward(runner: GitRunner, upstream: str) -> None:
    result = runner.run("merge", "--ff-only", "--quiet", upstream)
    if not result.ok:
        raise SyncError(
            f"could not bring in the remote's commits ({result.reason}); nothing was changed"
        )


def start_merge(runner: GitRunner, upstream: str, folders: Sequence[str]) -> list[Unmerged]:
    """Merge without committing; the paths git could not merge alone are returned."""
    # Memories are followed by their ids (handlers/sync/sync_ids.py), not by git's guess from likeness,
    # which pairs two short memories that look alike: only near-identical files count as moved.
    with memory_notes_left_to_us(runner, folders):
        merge = ("merge", "--no-ff", "--no-commit", "--quiet", "-X", "find-renames=90%")
        result = runner.run(*merge, upstream, config=NO_DRIVER)
    if not result.ok and not merge_in_progress(runner):
        raise SyncError(f"git could not start the merge ({result.reason}); nothing was changed")
    return unmerged(runner)


_ATTRIBUTES_MARK = (
    "# cortexgraph-vault sync: memory notes are merged by sync itself (removed after)"
)


@contextmanager
def memory_notes_left_to_us(runner: GitRunner, folders: Sequence[str]) -> Iterator[None]:
    """For the length of our own merge, git leaves memory notes changed on both sides unmerged
    (`merge=binary`, from `.git/info/attributes`, which outranks `.gitattributes`) instead of
    starting the driver once per note: `sync` merges them all in this process. A sync killed
    meanwhile leaves the lines behind; the next one removes them (`clear_left_lines`)."""
    path = runner.git_dir / "info" / "attributes"
    clear_left_lines(runner)
    try:
        before = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = None
    lines = [
        f"{runner.to_repo(f).replace(' ', '[[:space:]]')}/**/*.md merge=binary" for f in folders
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    body = (before or "") + ("" if not before or before.endswith("\n") else "\n")
    path.write_text(
        body + _ATTRIBUTES_MARK + "\n" + "".join(f"{line}\n" for line in lines), "utf-8"
    )
    try:
        yield
    finally:
        if before is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(before, encoding="utf-8")


def clear_left_lines(runner: GitRunner) -> None:
    path = runner.git_dir / "info" / "attributes"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    if _ATTRIBUTES_MARK in text:
        kept = text.split(_ATTRIBUTES_MARK, 1)[0]
        if kept.strip():
            path.write_text(kept, encoding="utf-8")
        else:
            path.unlink()


def unmerged(runner: GitRunner) -> list[Unmerged]:
    entries: dict[str, dict[int, str]] = {}
    for entry in split_nul(runner.check("ls-files", "-u", "-z")):
        meta, _, path = entry.partition("\t")
        _, sha, stage = meta.split()
        entries.setdefault(path, {})[int(stage)] = sha
    return [Unmerged(path, stages) for path, stages in sorted(entries.items())]


def deleting_commit(
    runner: GitRunner, side: str, other: str, repo_path: str, memory_id: str | None
) -> tuple[bytes | None, str] | None:
    """The newest commit on `side` since it parted from `other` that deleted this memory at
    `repo_path`: the version it deleted and its message. None when no such commit exists (the
    path held another memory then, or a merge removed it)."""
    found = runner.run("log", "--format=%H", "--diff-filter=D", f"{other}..{side}", "--", repo_path)
    for sha in found.out.decode().split() if found.ok else []:
        last = runner.blob_at(f"{sha}^", repo_path)
        if memory_id is not None and (last is None or memory_id.encode() not in last):
            continue
        return last, runner.check("log", "-1", "--format=%B", sha).decode("utf-8", "replace")
    return None


def forgotten_by_gc(runner: GitRunner, side: str, other: str, memory_id: str) -> bool:
    """Whether a gc commit on `side` since it parted from `other` forgot `memory_id` (for a
    memory moved on one side and deleted on the other, which git names by its new path)."""
    found = runner.run("log", "--format=%B", f"{other}..{side}", "--grep=Cortexgraph-Operation: gc")
    lines = found.out.decode("utf-8", "replace").splitlines() if found.ok else []
    return f"Cortexgraph-Forgotten: {memory_id}" in (line.strip() for line in lines)


def settle(runner: GitRunner, repo_path: str, data: bytes | None) -> None:
    """The merged content of a path (None: deleted), written and staged."""
    staging = Staging(runner)
    staging.settle(repo_path, data)
    staging.flush()


class Staging:
    """Settled paths written at once and staged together: one `git add` and one `git rm` for a
    merge of a thousand notes, not a process each."""

    def __init__(self, runner: GitRunner) -> None:
        self.runner = runner
        self.added: list[str] = []
        self.removed: list[str] = []

    def settle(self, repo_path: str, data: bytes | None) -> None:
        path = self.runner.work_tree / repo_path
        if data is None:
            path.unlink(missing_ok=True)
            self.removed.append(repo_path)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.added.append(repo_path)

    def flush(self) -> None:
        spec = ("--pathspec-from-file=-", "--pathspec-file-nul")
        if self.added:
            self.runner.check("add", *spec, input=nul_join(self.added))
        if self.removed:
            self.runner.check(
                "rm", "-q", "-f", "--ignore-unmatch", *spec, input=nul_join(self.removed)
            )
        self.added, self.removed = [], []


def free_path(runner: GitRunner, repo_path: str, taken: Iterable[str] = ()) -> str:
    """`Title 2.md`, `Title 3.md`, ... beside `repo_path`, free on disk and in the index."""
    stem, _, suffix = repo_path.rpartition(".")
    used = set(taken)
    for n in itertools.count(2):
        candidate = f"{stem} {n}.{suffix}"
        if candidate in used or os.path.lexists(runner.work_tree / candidate):
            continue
        if not runner.run("ls-files", "--", candidate).out.strip():
            return candidate
    raise AssertionError("unreachable")


def commit_merge(runner: GitRunner, message: str) -> str:
    commit = ("commit", "--quiet", "--no-verify", "-F", "-")
    result = runner.run(*commit, input=message.encode(), config=identity_config(runner))
    if not result.ok:
        abort_merge(runner)
        raise SyncError(f"could not commit the merge ({result.reason}); the merge was undone")
    return runner.head_sha()


def abort_merge(runner: GitRunner) -> None:
    runner.run("merge", "--abort")


def push(
    runner: GitRunner, remote: str, branch: str, *, set_upstream: bool, hear: Hear | None = None
) -> bool:
    """True when pushed; False when the remote moved on meanwhile (fetch and merge again)."""
    args = ("push", *(("-u",) if set_upstream else ()), remote, f"HEAD:refs/heads/{branch}")
    if hear is None:
        result = runner.run(args[0], "--quiet", *args[1:])
    else:
        result = run_with_progress(runner, *args, hear=hear)
    if result.ok:
        return True
    if any(word in result.err for word in _REJECTED) and "permission" not in result.err.lower():
        return False
    raise explain_remote_failure(remote, "push to", result)
