"""A commit made from git's plumbing, without `git commit`'s look at every file.

`git commit --only` refreshes the whole index before it commits: a stat of every file of the
vault, for each group of saves. Here our paths are staged in a copy of the index (its own file
in `.git/`, so nothing else sees it), the person's staged work on other paths is set back to
HEAD in that copy, and `write-tree`, `commit-tree` and `update-ref <new> <old>` make the
commit. `update-ref` moves HEAD only if it is still the commit we built on: another tool's
commit meanwhile, or one under way (it holds the index lock), makes us commit again
(`HeadMoved`), holding the index lock as that tool does so that we get our turn. The index is
then written to hold our paths as committed (`_keep_in_step`).

`git commit` of the copy is kept whenever it would do more than this (`refusal`). What it does
besides is done the same way here: the message cleaned as `-F` cleans it, the reflog's
"commit: <subject>", the identity, and the automatic maintenance when loose objects pile up.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.errors import GitError
from cortexgraph_vault.history.git_settings import is_true, settings
from cortexgraph_vault.history.git_states import operation_in_progress
from cortexgraph_vault.history.locate import common_folder
from cortexgraph_vault.history.runner import GitRunner, chunks, nul_join, split_nul
from cortexgraph_vault.vault.commit_outbox import alive, process_started

if TYPE_CHECKING:
    from cortexgraph_vault.history.recording import LockWait

log = logging.getLogger("cortexgraph_vault")

TEMP_INDEX = "cortexgraph-vault-index"
# The hooks `git commit` runs; any of them makes us leave the commit to it.
COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit")
_GC_AUTO = 6700  # git's default for gc.auto
# Stages exactly the paths given: in the index or new, deletions too, no look for new files.
_STAGE = ("update-index", "--add", "--remove", "--replace", "-z", "--stdin")
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
    in_progress = operation_in_progress(runner.git_dir)
    if in_progress is not None:
        return in_progress
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
    text = "\n".join(line.rstrip(_SPACES) for line in message.split("\n")).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", text) + "\n" if text else ""


@dataclass(frozen=True)
class Commit:
    """A commit to make: the working files of `ours`, with `message`. `stageable` are those
    `update-index` may stage (in the index, or new and not ignored). `by_git_commit`: `git
    commit` makes the commit from the copy of the index (hooks, signing), else the plumbing."""

    runner: GitRunner
    stageable: Sequence[str]
    ours: Sequence[str]
    message: str
    waiter: LockWait
    config: Sequence[str]  # the identity, as `-c` settings
    by_git_commit: bool
    exclusive: bool


def commit(planned: Commit, *, hold_index: bool = False) -> tuple[list[str], str | None]:
    """Make `planned` on top of HEAD from a copy of the index, never from the index itself:
    (the files that differ from HEAD, the new commit), or ([], None) when none does.
    `hold_index`: the index's lock is taken for the commit's time, so that a tool committing
    again and again (which needs that lock) waits its turn once. Raises HeadMoved when another
    commit came first."""
    runner, ours, waiter = planned.runner, planned.ours, planned.waiter
    with index_held(runner, waiter) if hold_index else contextlib.nullcontext():
        changed, sha, temp_entries = _commit_copy(planned, holding=hold_index)
    if sha is None:
        # Nothing to commit; an index left behind HEAD for our paths (a process of ours killed
        # between its commit and its write of the index) is brought up to it.
        lagging = _lagging(runner, ours)
        if lagging:
            _keep_in_step(runner, temp_entries, lagging, "HEAD", waiter)
        return [], None
    # Our paths were just committed from the copy: the index itself still holds them as they
    # were, so they are written without asking git first which differ.
    _keep_in_step(runner, temp_entries, changed, sha, waiter, ask_first=False)
    if _another_git_may_write_back(runner, waiter, contended=hold_index):
        _keep_in_step(runner, temp_entries, changed, sha, waiter)
    if not planned.by_git_commit:
        _maintain(runner)
    return changed, sha


_GRACE = 0.05  # longer than a `git commit --only` takes from reading the index to locking it


def _another_git_may_write_back(runner: GitRunner, waiter: LockWait, *, contended: bool) -> bool:
    """Whether another git may have written back an index it read before our write of it,
    and has now finished. `git commit --only` reads the index before it locks it (see
    `commit_file_lock`): a tool committing again and again whose read fell before our write and
    its lock after it writes our paths back as they were, and `git status` shows them as
    staged changes. Such a tool is seen holding the lock now, or (`contended`: one already
    kept us waiting) may take it within a moment; once it is done, our entries are checked
    again. A quiet repository costs one stat."""
    if contended:
        waiter.pause(_GRACE)
    elif not runner.index_lock.exists():
        return False
    while runner.index_lock.exists() and waiter.time_left():
        waiter.pause(0.02)
    return True


def _commit_copy(planned: Commit, *, holding: bool) -> tuple[list[str], str | None, list[str]]:
    """The commit from a copy of the index: (paths changed, sha, their entries in the copy)."""
    runner, ours, waiter, config = planned.runner, planned.ours, planned.waiter, planned.config
    by_git_commit, stageable = planned.by_git_commit, planned.stageable
    parent = runner.head_from_files() or runner.head_or_none()
    if parent is None and not by_git_commit:
        raise GitError(f"{runner.vault_root}: git could not read HEAD; nothing was committed")
    with _aside(runner, exclusive=planned.exclusive) as temp:
        if stageable:
            _must(runner, *_STAGE, input=nul_join(stageable), index=temp)
        in_copy: dict[str, str | None] | None = None  # path -> its entry in the copy
        if parent is None:
            staged = set(split_nul(_must(runner, "ls-files", "-z", "--cached", index=temp)))
        else:
            # Every entry not as the parent has it, a submodule's too, whatever .gitmodules says.
            diff = (
                "diff-index",
                "--cached",
                "--raw",
                "--no-renames",
                "-z",
                "--ignore-submodules=none",
                parent,
            )
            in_copy = _copy_side(_must(runner, *diff, index=temp))
            staged = set(in_copy)
        wanted = set(ours)
        changed = sorted(staged & wanted)
        if not changed:
            return [], None, _entries(runner, temp, ours) if parent is not None else []
        others = sorted(staged - wanted)
        if others:  # a person's staged work stays staged and out of our commit
            _set_to(runner, temp, parent, others)
        text = clean_message(planned.message)
        if by_git_commit:
            sha = _git_commit(runner, temp, text, waiter, config)
        else:
            assert parent is not None
            sha = _plumbed_commit(runner, temp, parent, text, waiter, config, holding=holding)
        if in_copy is None or by_git_commit:  # a hook may have staged more in the copy
            return changed, sha, _entries(runner, temp, changed)
        return changed, sha, [e for e in (in_copy[p] for p in changed) if e is not None]


def _copy_side(raw: bytes) -> dict[str, str | None]:
    """`diff-index --raw -z` of the copy against the parent, as each path's entry in the copy
    (as `ls-files --stage` prints it), None for a path the copy no longer holds."""
    items = split_nul(raw)
    found: dict[str, str | None] = {}
    for meta, path in zip(items[::2], items[1::2], strict=True):
        _, mode, _, sha, _ = meta.split(" ")
        found[path] = None if mode.strip("0") == "" else f"{mode} {sha} 0\t{path}"
    return found


def _entries(runner: GitRunner, index: Path, paths: Sequence[str]) -> list[str]:
    """The stage lines of `paths` in `index` (as `update-index --index-info` takes them)."""
    entries: list[str] = []
    for chunk in chunks(paths):
        listed = _must(runner, "ls-files", "--stage", "-z", "--", *chunk, index=index)
        entries.extend(split_nul(listed))
    return entries


def _plumbed_commit(
    runner: GitRunner,
    temp: Path,
    parent: str,
    text: str,
    waiter: LockWait,
    config: Sequence[str],
    *,
    holding: bool,
) -> str:
    tree = _must(runner, "write-tree", "--missing-ok", index=temp).decode().strip()
    made = runner.run("commit-tree", tree, "-p", parent, input=text.encode(), config=config)
    if not made.ok:
        raise GitError(f"{runner.vault_root}: git could not commit ({made.reason}); {_LEFT}")
    sha = made.out.decode().strip()
    subject = text.partition("\n")[0]
    if not holding and runner.index_lock.exists():
        # Moving HEAD now would make that git's commit fail: ours is made again after it.
        raise HeadMoved(f"{runner.vault_root}: another git is committing")
    waiter.run(
        "update-ref",
        "-m",
        f"commit: {subject}",
        "HEAD",
        sha,
        parent,
        config=config,
        doing="move HEAD to the new commit",
        cas=True,
    )
    return sha


def _git_commit(
    runner: GitRunner, temp: Path, text: str, waiter: LockWait, config: Sequence[str]
) -> str:
    """`git commit` of the index copy: its hooks run and see the copy (GIT_INDEX_FILE), it
    signs and cleans up the message as the person set it up."""
    waiter.run(
        "commit",
        "--quiet",
        "-F",
        "-",
        input=text.encode(),
        config=config,
        index=temp,
        doing="commit",
        cas=True,
    )
    return runner.head_sha()


_LEFT = "nothing was committed, and the files and the index were left as they were"


def _must(runner: GitRunner, *args: str, index: Path, input: bytes | None = None) -> bytes:
    result = runner.run(*args, index=index, input=input)
    if not result.ok:
        raise GitError(f"{runner.vault_root}: git could not commit ({result.reason}); {_LEFT}")
    return result.out


@contextlib.contextmanager
def _aside(runner: GitRunner, *, exclusive: bool) -> Iterator[Path]:
    """A copy of the index in `.git/` (a hard link: git replaces an index, never writes one in
    place; its files' stat data spares hashing them again), or an index of HEAD made afresh
    when there is no index to copy. Under the commit file lock (`exclusive`) the name is ours
    and one left by a killed process is replaced; else it is this thread's own."""
    index = runner.git_dir / "index"
    name = TEMP_INDEX if exclusive else f"{TEMP_INDEX}-{os.getpid()}-{threading.get_ident()}"
    temp = runner.git_dir / name
    _remove(temp)
    try:
        try:
            os.link(index, temp)
        except FileNotFoundError:  # no index yet: HEAD's tree, or nothing on an unborn branch
            if runner.has_head():
                _must(runner, "read-tree", "HEAD", index=temp)
        except OSError:  # a file system without hard links
            shutil.copyfile(index, temp)
        yield temp
    finally:
        _remove(temp)


def _remove(temp: Path) -> None:
    for path in (temp, temp.with_name(temp.name + ".lock")):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _set_to(runner: GitRunner, temp: Path, parent: str | None, paths: Sequence[str]) -> None:
    """Set `paths` in the index copy to what `parent` holds (gone when it holds nothing)."""
    lines = [f"0 {runner.zero_sha()}\t{path}" for path in paths]  # mode 0 removes every stage
    for chunk in chunks(paths):
        if parent is None:
            break
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
    entries: Sequence[str],
    changed: Sequence[str],
    sha: str,
    waiter: LockWait,
    *,
    ask_first: bool = True,
) -> None:
    """The index holds our paths as committed (`entries`, from the copy the commit was made
    of), so `git status` shows nothing of ours: the only write of ours to it, made once the
    commit is, so a process killed before it leaves nothing of ours staged there.
    `ask_first`: only those of `changed` that differ from `sha` in the index are written
    (one git process more); else all of them (the same entries again for one that does not)."""
    try:
        differ = (
            sorted(runner.list_paths("diff-index", "--cached", "--name-only", sha, paths=changed))
            if ask_first
            else sorted(changed)
        )
        if not differ:
            return
        wanted = set(differ)
        lines = [f"0 {runner.zero_sha()}\t{path}" for path in differ]
        lines += [line for line in entries if line.partition("\t")[2] in wanted]
        waiter.run(
            "update-index",
            "-z",
            "--index-info",
            input=nul_join(lines),
            doing="stage what was committed",
        )
    except GitError:
        # The commit is made; an index that lags behind it shows our paths as changes to be
        # committed, which `git status` makes plain, and our next commit of them fixes.
        log.warning("committed %s, but the index could not be brought up to date", sha[:12])


def _lagging(runner: GitRunner, paths: Sequence[str]) -> list[str]:
    """Those of `paths` whose index entry is what HEAD's parent holds and not what HEAD holds:
    the index as it was before a commit of ours that a kill kept from writing it. An entry a
    person staged (neither version) is theirs, and left alone."""
    parent = runner.run("rev-parse", "-q", "--verify", "HEAD~1^{commit}")
    if not parent.ok:
        return []
    index: dict[str, tuple[str, str]] = {}
    for line in runner.list_paths("ls-files", "--stage", paths=paths):
        meta, _, path = line.partition("\t")
        mode, sha, stage = meta.split(" ")
        index[path] = (mode, sha) if stage == "0" else ("conflict", "")
    head, before = _tree(runner, "HEAD", paths), _tree(runner, parent.out.decode().strip(), paths)
    return [p for p in paths if index.get(p) != head.get(p) and index.get(p) == before.get(p)]


def _tree(runner: GitRunner, commit: str, paths: Sequence[str]) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for line in runner.list_paths("ls-tree", "-r", "--full-tree", commit, paths=paths):
        meta, _, path = line.partition("\t")
        mode, _, sha = meta.split(" ")
        found[path] = (mode, sha)
    return found


_OWNER = "cortexgraph-vault-index-lock"


@contextlib.contextmanager
def index_held(runner: GitRunner, waiter: LockWait) -> Iterator[None]:
    """Hold `.git/index.lock` as git's own commands do (made exclusively, waited for while
    another git holds it), as a turn only: nothing is written into it, and it is removed, not
    renamed over the index. A note beside it names this process, so that a lock left by a
    process killed while holding it is removed by the next (`clear_left_lock`)."""
    lock, owner = runner.index_lock, runner.git_dir / _OWNER
    while True:
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            if not waiter.time_left():
                raise waiter.lock_held() from None
            waiter.pause(0.02)
    try:
        os.close(fd)
        st = os.stat(lock)
        started = process_started(os.getpid()) or "-"
        owner.write_text(f"{os.getpid()} {started} {st.st_ino}\n", "ascii")
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(owner)


def clear_left_lock(runner: GitRunner) -> bool:
    """Remove an index lock a process of ours was killed holding (its note names a process
    that has ended, and the lock is still that one). True when one was removed."""
    owner = runner.git_dir / _OWNER
    try:
        pid, started, inode = owner.read_text("ascii").split()
        st = os.stat(runner.index_lock)
    except (OSError, ValueError):
        return False
    if alive(int(pid), "" if started == "-" else started) or str(st.st_ino) != inode:
        return False
    with contextlib.suppress(FileNotFoundError):
        os.unlink(runner.index_lock)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(owner)
    log.warning("%s: removed .git/index.lock left by a killed commit of ours", runner.vault_root)
    return True


def _hooks_folder(runner: GitRunner, configured: str | None) -> Path:
    if configured:
        folder = Path(os.path.expanduser(configured.strip()))
        return folder if folder.is_absolute() else runner.work_tree / folder
    return common_folder(runner.git_dir) / "hooks"


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
            names = os.listdir(common_folder(runner.git_dir) / "objects" / "17")
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
