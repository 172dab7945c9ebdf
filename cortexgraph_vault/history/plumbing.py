"""A commit made from git's plumbing, without `git commit`'s look at every file.

`git commit --only` refreshes the whole index before it commits: a stat of every file of the
vault, ~42 ms of its ~60 at 10,000 notes, for each group of saves. Here the index our paths were
just staged in is linked aside (its own file in `.git/`, so nothing else sees it), the person's
staged work on other paths is set back to HEAD in that copy, and `write-tree`, `commit-tree`
and `update-ref <new> <old>` make the commit. `update-ref` moves HEAD only if it is still the
commit we built on: another tool's commit meanwhile (obsidian-git, the person), or one under
way (it holds the index lock), makes us commit again with `git commit` (`HeadMoved`), which
waits its turn for the index lock where the plumbing would lose every race to a busy tool. The repository's index already holds our entries (our `git add`), so
`git status` is clean for our paths; if another git wrote that index meanwhile, our entries are
put back as committed.

`git commit` is kept whenever it would do more than this: hooks to run, a commit to sign, a
message cleanup of the person's choosing, a merge or rebase in progress, a split index, no
index, no commit yet (`refusal`). What `git commit` does besides is done the same way here: the
message cleaned of trailing spaces and blank lines (its cleanup for a message given with `-F`),
the reflog's "commit: <subject>", the identity, and the automatic maintenance when loose objects
pile up.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.errors import GitError
from cortexgraph_vault.history.git_settings import common_dir, file_key, is_true, settings
from cortexgraph_vault.history.runner import GitRunner, chunks, nul_join, split_nul

if TYPE_CHECKING:
    from cortexgraph_vault.history.recording import LockWait

log = logging.getLogger("cortexgraph_vault")

TEMP_INDEX = "cortexgraph-vault-index"
# The hooks `git commit` runs; any of them makes us leave the commit to it.
COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit")
_IN_PROGRESS = (
    "MERGE_HEAD",
    "CHERRY_PICK_HEAD",
    "REVERT_HEAD",
    "rebase-merge",
    "rebase-apply",
    "sequencer",
)
_GC_AUTO = 6700  # git's default for gc.auto
_SPACES = " \t\r\n"  # what git's stripspace takes for trailing white space


class HeadMoved(GitError):
    """Another git committed since we read HEAD, or is committing (it holds the index lock):
    the commit is made again by `git commit`, which waits its turn for the index lock."""


def refusal(runner: GitRunner) -> str | None:
    """Why this commit is left to `git commit`, or None when the plumbing makes the same one."""
    found = settings(runner)
    if "commit.gpgsign" in found and is_true(found["commit.gpgsign"]):
        return "commits are signed (commit.gpgSign)"
    cleanup = (found.get("commit.cleanup") or "default").strip().lower()
    if "commit.cleanup" in found and cleanup not in ("default", "whitespace"):
        return f"commit.cleanup is {cleanup}"
    if ("core.splitindex" in found and is_true(found["core.splitindex"])) or _split(runner):
        return "the index is split (core.splitIndex)"
    if any(name.startswith("hook.") for name in found):
        return "hooks are configured (hook.*)"
    for name in _IN_PROGRESS:
        if (runner.git_dir / name).exists():
            return f"{name} is in progress"
    if not (runner.git_dir / "index").is_file():
        return "there is no index"
    hooks = _hooks_folder(runner, found.get("core.hookspath"))
    for hook in COMMIT_HOOKS:
        path = hooks / hook
        if path.is_file() and os.access(path, os.X_OK):
            return f"the {hook} hook is to run"
    return None


def _split(runner: GitRunner) -> bool:
    """A split index (`update-index --split-index`) keeps most entries in a shared file that a
    write of our copy could replace: left to `git commit`."""
    try:
        return any(entry.name.startswith("sharedindex.") for entry in os.scandir(runner.git_dir))
    except OSError:
        return True


def clean_message(message: str) -> str:
    """The message as `git commit -F` records it: trailing white space off every line, runs of
    blank lines made one, none at the start or the end, a newline after the last line."""
    lines: list[str] = []
    blank = False
    for line in message.split("\n"):
        line = line.rstrip(_SPACES)
        if not line:
            blank = True
            continue
        if blank and lines:
            lines.append("")
        blank = False
        lines.append(line)
    return "".join(f"{line}\n" for line in lines)


def commit(
    runner: GitRunner,
    ours: Sequence[str],
    message: str,
    waiter: LockWait,
    config: Sequence[str],
) -> tuple[list[str], str | None]:
    """Commit the index's entries of `ours` on top of HEAD: (those that differ from HEAD, the
    new commit), or ([], None) when none does. Raises HeadMoved when another commit came first."""
    parent = runner.head_from_files() or runner.head_or_none()
    if parent is None:
        raise GitError(f"{runner.vault_root}: git could not read HEAD; nothing was committed")
    with _aside(runner) as (temp, seen):
        # Every entry not as the parent has it, a submodule's too, whatever .gitmodules says.
        diff = ("diff-index", "--cached", "--name-only", "--no-renames", "-z",
                "--ignore-submodules=none", parent)  # fmt: skip
        staged = set(split_nul(_must(runner, *diff, index=temp)))
        wanted = set(ours)
        changed = sorted(staged & wanted)
        if not changed:
            return [], None
        others = sorted(staged - wanted)
        if others:  # a person's staged work stays staged and out of our commit
            _set_to(runner, temp, parent, others)
        tree = _must(runner, "write-tree", "--missing-ok", index=temp).decode().strip()
        text = clean_message(message)
        made = runner.run("commit-tree", tree, "-p", parent, input=text.encode(), config=config)
        if not made.ok:
            raise GitError(f"{runner.vault_root}: git could not commit ({made.reason}); {_LEFT}")
        sha = made.out.decode().strip()
        subject = text.partition("\n")[0]
        if runner.index_lock.exists():
            # Moving HEAD now would make that git's commit fail: `git commit` waits for it.
            raise HeadMoved(f"{runner.vault_root}: another git is committing")
        waiter.run(
            "update-ref", "-m", f"commit: {subject}", "HEAD", sha, parent,
            config=config, doing="move HEAD to the new commit", cas=True,
        )  # fmt: skip
        _keep_in_step(runner, temp, seen, changed, sha, waiter)
    _maintain(runner)
    return changed, sha


_LEFT = "nothing was committed, and the files and the index were left as they were"


def _must(runner: GitRunner, *args: str, index: Path, input: bytes | None = None) -> bytes:
    result = runner.run(*args, index=index, input=input)
    if not result.ok:
        raise GitError(f"{runner.vault_root}: git could not commit ({result.reason}); {_LEFT}")
    return result.out


@contextlib.contextmanager
def _aside(runner: GitRunner) -> Iterator[tuple[Path, tuple[int, int, int] | None]]:
    """A copy of the index in `.git/` (a hard link: git replaces an index, never writes one in
    place), with the real index's identity when linked. The caller holds the commit file lock,
    so the name is ours; one left by a killed process is replaced."""
    index = runner.git_dir / "index"
    temp = runner.git_dir / TEMP_INDEX
    _remove(temp)
    seen = file_key(index)
    try:
        os.link(index, temp)
    except OSError:  # a file system without hard links
        shutil.copyfile(index, temp)
    try:
        yield temp, seen
    finally:
        _remove(temp)


def _remove(temp: Path) -> None:
    for path in (temp, temp.with_name(temp.name + ".lock")):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _set_to(runner: GitRunner, temp: Path, parent: str, paths: Sequence[str]) -> None:
    """Set `paths` in the index copy to what `parent` holds (gone when it holds nothing)."""
    lines = [f"0 {runner.zero_sha()}\t{path}" for path in paths]  # mode 0 removes every stage
    for chunk in chunks(paths):
        listed = _must(
            runner, "ls-tree", "-r", "-z", "--full-tree", parent, "--", *chunk, index=temp
        )
        for item in split_nul(listed):
            meta, _, path = item.partition("\t")
            mode, _, sha = meta.split(" ")
            lines.append(f"{mode} {sha}\t{path}")
    _must(runner, "update-index", "-z", "--index-info", input=nul_join(lines), index=temp)


def _keep_in_step(
    runner: GitRunner,
    temp: Path,
    seen: tuple[int, int, int] | None,
    changed: Sequence[str],
    sha: str,
    waiter: LockWait,
) -> None:
    """The index holds our entries as committed, unless another git wrote it since we linked
    it (a write-back of an index it read before our `add`): then they are put back."""
    index = runner.git_dir / "index"
    if file_key(index) == seen:
        return
    try:
        differ = sorted(
            runner.list_paths("diff-index", "--cached", "--name-only", sha, paths=changed)
        )
        if not differ:
            return
        lines = [f"0 {runner.zero_sha()}\t{path}" for path in differ]
        for chunk in chunks(differ):
            listed = _must(runner, "ls-files", "--stage", "-z", "--", *chunk, index=temp)
            lines.extend(split_nul(listed))
        waiter.run(
            "update-index", "-z", "--index-info", input=nul_join(lines),
            doing="stage what was committed",
        )  # fmt: skip
    except GitError:
        # The commit is made; an index that lags behind it shows our paths as changes to be
        # committed, which `git status` makes plain, and our next commit of them fixes.
        log.warning("committed %s, but the index could not be brought up to date", sha[:12])


def _hooks_folder(runner: GitRunner, configured: str | None) -> Path:
    if configured:
        folder = Path(os.path.expanduser(configured.strip()))
        return folder if folder.is_absolute() else runner.work_tree / folder
    return Path(common_dir(runner)) / "hooks"


def _maintain(runner: GitRunner) -> None:
    """`git commit` ends with `git maintenance run --auto`: gc packs the loose objects once
    there are more than gc.auto of them. Run it when git's own estimate (the files in
    objects/17) says it is due, or whenever maintenance is configured; not at every commit."""
    found = settings(runner)
    if not any(name.startswith("maintenance.") for name in found):
        limit = _int(found.get("gc.auto"), _GC_AUTO)
        if limit <= 0:
            return  # gc.auto = 0: automatic gc is off
        threshold = (limit + 255) // 256
        try:
            names = os.listdir(Path(common_dir(runner)) / "objects" / "17")
        except OSError:
            return
        if sum(1 for name in names if len(name) >= 38) <= threshold:
            return
    result = runner.run("maintenance", "run", "--auto", "--quiet")
    if not result.ok:
        log.warning("git maintenance run --auto failed: %s", result.reason)


def _int(value: str | None, default: int) -> int:
    if value is None:
        return default
    text = value.strip().lower()
    scale = {"k": 1024, "m": 1024**2, "g": 1024**3}.get(text[-1:], 1)
    try:
        return int(text[:-1] if scale > 1 else text) * scale
    except ValueError:
        return default
