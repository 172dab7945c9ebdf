"""`VaultHistory`: the vault's git history as the service sees it. Every path in and out is
vault-relative posix, whether the vault is the repository's root or one of its folders."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from cortexgraph_vault.errors import GitError, InvalidArgument
from cortexgraph_vault.history.git_states import held, operation_in_progress
from cortexgraph_vault.history.locate import locate
from cortexgraph_vault.history.merge_setup import DriverState, driver_state, install_driver
from cortexgraph_vault.history.raw_log import LoggedCommit
from cortexgraph_vault.history.recording import commit_file_lock, init_repo, never_committed, record
from cortexgraph_vault.history.results import (
    CommitInfo,
    ForgottenMemory,
    MemoryVersion,
    VersionNotFound,
)
from cortexgraph_vault.history.runner import GitRunner, chunks, clean_vault_path
from cortexgraph_vault.history.tracing import MemoryStep, frontmatter_id, trace_memory

# Deleted notes are read this many at a time, so `forgotten(limit=10)` stops early.
_DELETION_BATCH = 200
CLONE_ID_KEY = "cortexgraph.clone"
DEVICE_TRAILER = "Cortexgraph-Device"


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def commit_info(
    commit: LoggedCommit, *, paths: tuple[str, ...] = (), change: str = ""
) -> CommitInfo:
    return CommitInfo(
        sha=commit.sha,
        short=commit.sha[:7],
        time=commit.time,
        author=commit.author,
        message=commit.message,
        summary=commit.message.split("\n", 1)[0],
        paths=paths or tuple(sorted({c.path for c in commit.changes})),
        change=change,
    )


class VaultHistory:
    """Commits of exactly the paths an operation touched, and the history of each memory."""

    def __init__(self, vault_root: Path, *, lock_wait_seconds: float = 10.0) -> None:
        self.vault_root = Path(vault_root)
        self.lock_wait_seconds = lock_wait_seconds
        self._runner: GitRunner | None = None
        self._reason = ""
        # Our own threads queue here rather than poll index.lock against each other.
        self._commit_lock = threading.Lock()
        # Named in our commits, so that a sync on another device can say where changes came from.
        self.device: str | None = None

    @staticmethod
    def init_repo(vault_root: Path) -> None:
        init_repo(Path(vault_root), lock_wait=10.0)

    def _find_repo(self) -> GitRunner | None:
        # Looked for again while missing: `cortexgraph-vault init` may run after we start.
        if self._runner is not None and not self._runner.git_dir.is_dir():
            self._runner = None
        if self._runner is None:
            found = GitRunner.discover(self.vault_root)
            if isinstance(found, str):
                self._reason = found
            else:
                self._runner, self._reason = found, ""
        return self._runner

    @property
    def available(self) -> bool:
        return self._find_repo() is not None

    def located(self) -> str:
        """Nothing ("") when the vault has history, else why not: read from the `.git` files
        where they tell (no git process), else as `available` finds it. A git on PATH that does
        not run is found out by the first operation that runs it."""
        if self._runner is None:
            found = locate(self.vault_root)
            if found is not None:
                return found.reason
        return self.why_unavailable()

    def git_dir(self) -> Path | None:
        """The repository's folder when the `.git` files show it plainly (no git process)."""
        if self._runner is not None:
            return self._runner.git_dir
        found = locate(self.vault_root)
        return found.git_dir if found is not None else None

    def why_unavailable(self) -> str:
        return "" if self._find_repo() is not None else self._reason

    def _require(self, consequence: str) -> GitRunner:
        runner = self._find_repo()
        if runner is None:
            raise GitError(f"{self._reason}; {consequence}")
        return runner

    # Recording.

    def commit_paths(self, paths: Iterable[str], message: str) -> str | None:
        """Commit exactly `paths` (adds, edits, deletions; a move is its two paths) and nothing
        else. Returns the new commit's sha, or None when those paths hold nothing new."""
        runner = self._require("nothing was committed")
        state = operation_in_progress(runner.git_dir)
        if state is not None:  # HEAD is the operation's: a commit there would be lost to it
            raise held(state)
        if self.device and "Cortexgraph-Operation:" in message:
            message = f"{message.rstrip()}\n{DEVICE_TRAILER}: {self.device}"
        with self._commit_lock, commit_file_lock(runner, self.lock_wait_seconds) as exclusive:
            return record(runner, paths, message, self.lock_wait_seconds, exclusive=exclusive)

    def changed_paths(
        self, folders: Iterable[str] = ("",), *, untracked_only: bool = False
    ) -> list[str]:
        """Files under `folders` ("" is the whole vault) whose working content is not what HEAD
        holds: edited, new (and not ignored) or deleted; only the new with `untracked_only`.
        Sorted, vault-relative."""
        runner = self._require("could not compare with the last commit")
        spec = sorted({runner.to_repo(f) if f.strip("./") else runner.prefix for f in folders})
        if not spec:
            return []
        # The vault at the repository's root: git names the whole tree `.`, not "".
        spec = [path or "." for path in spec]
        found = runner.list_paths("ls-files", "--others", "--exclude-standard", paths=spec)
        if not untracked_only and runner.has_head():
            diff = ("diff", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", "HEAD")
            found |= runner.list_paths(*diff, paths=spec)
        elif not untracked_only:
            found |= runner.list_paths("ls-files", "--cached", paths=spec)
        paths = (runner.from_repo(path) for path in found)
        return sorted(path for path in paths if path is not None and not never_committed(path))

    def clone_id(self) -> str | None:
        """A short random id of this clone, kept in its `.git/config` (which no clone shares):
        two clones with one device name still write different notes. None without git."""
        if (runner := self._find_repo()) is None:
            return None
        found = runner.run("config", "--local", "--get", CLONE_ID_KEY)
        if found.ok and found.out.strip():
            return found.out.decode().strip()
        made = uuid.uuid4().hex[:6]
        runner.run("config", "--local", CLONE_ID_KEY, made)
        return made

    # The merge driver for memory notes (one memory on several devices).

    def merge_driver_state(self, folders: Iterable[str], *, probe: bool = False) -> DriverState:
        runner = self._require("could not check the merge driver")
        return driver_state(runner, folders, probe=probe)

    def install_merge_driver(self, folders: Iterable[str]) -> list[str]:
        runner = self._require("the merge driver was not installed")
        with self._commit_lock:
            return install_driver(runner, folders, self.lock_wait_seconds)

    @property
    def runner(self) -> GitRunner:
        return self._require("git is needed here")

    # Reading.

    def text_at(self, commit: str, path: str) -> str:
        return _text(self.bytes_at(commit, path))

    def bytes_at(self, commit: str, path: str) -> bytes:
        """The file's exact bytes at `commit` (for a restore that must not change a byte)."""
        runner = self._require("could not read the past version")
        sha = runner.resolve_commit(commit)
        if sha is None:
            raise VersionNotFound(f"{commit}: no such commit in {self.vault_root}")
        data = runner.blob_at(sha, runner.to_repo(path))
        if data is None:
            raise VersionNotFound(f"{path}: not in commit {sha[:7]} of {self.vault_root}")
        return data

    def memory_log(
        self, memory_id: str, *, path_hint: str | None = None, limit: int = 50
    ) -> list[CommitInfo]:
        """Commits that added, changed, moved or deleted the memory, newest first."""
        steps, _ = self._trace(memory_id, path_hint)
        return [self._step_info(step) for step in steps[: max(limit, 0)]]

    def memory_versions(self, memory_id: str, *, limit: int = 50) -> list[MemoryVersion]:
        """Each committed content of the memory, newest first; a move without an edit is the
        same version and is not repeated."""
        steps, texts = self._trace(memory_id, None)
        versions: list[MemoryVersion] = []
        previous: str | None = None
        for step in reversed(steps):
            current = step.current
            if current is None:
                previous = None  # the same text brought back after a deletion is a new version
                continue
            path, blob = current
            if blob != previous:
                versions.append(MemoryVersion(self._step_info(step), path, texts.get(blob, "")))
            previous = blob
        versions.reverse()
        return versions[: max(limit, 0)]

    def last_version_before_deletion(self, memory_id: str) -> MemoryVersion | None:
        """The newest committed content of the memory: for a forgotten one, what gc removed."""
        steps, texts = self._trace(memory_id, None)
        for step in steps:
            if step.current is not None:
                path, blob = step.current
                return MemoryVersion(self._step_info(step), path, texts.get(blob, ""))
        return None

    def forgotten(self, *, limit: int = 100) -> list[ForgottenMemory]:
        """Memories deleted in some commit whose id no file at HEAD holds, newest deletion first."""
        runner = self._require("could not list forgotten memories")
        if limit <= 0:
            return []
        present = runner.ids_at_head()
        deletions = [
            (commit, change)
            for commit in runner.log("--diff-filter=D")
            for change in commit.changes
            if change.status == "D" and change.old_blob and change.path.endswith(".md")
        ]
        found: list[ForgottenMemory] = []
        seen: set[str] = set()
        for batch in chunks(deletions, _DELETION_BATCH):
            blobs = runner.read_blobs(change.old_blob for _, change in batch if change.old_blob)
            for commit, change in batch:
                text = _text(blobs.get(change.old_blob or "", b""))
                memory_id = frontmatter_id(text)
                if memory_id is None or memory_id in present or memory_id in seen:
                    continue
                seen.add(memory_id)
                found.append(
                    ForgottenMemory(
                        id=memory_id,
                        title=PurePosixPath(change.path).stem,
                        path=change.path,
                        deleted_in=commit_info(commit, paths=(change.path,), change="deleted"),
                        last_text=text,
                    )
                )
                if len(found) >= limit:
                    return found
        return found

    def _trace(
        self, memory_id: str, path_hint: str | None
    ) -> tuple[list[MemoryStep], dict[str, str]]:
        runner = self._require("could not read the memory's history")
        memory_id = memory_id.strip() if isinstance(memory_id, str) else ""
        if not memory_id or "\n" in memory_id:
            raise InvalidArgument(f"{memory_id!r}: not a memory id")
        hint = clean_vault_path(path_hint) if path_hint else None
        # Pickaxe finds the commits where the id appeared or vanished in a file — creation,
        # each move (we turn renames off, so a move is a delete and an add), deletion — and so
        # every path the memory has lived at; a second pass walks those paths' full history.
        places = {c.path for commit in runner.log(f"-S{memory_id}") for c in commit.changes}
        places |= {hint} if hint else set()
        commits = runner.log(paths=sorted(places))
        changes = [c for commit in commits for c in commit.changes]
        blobs = runner.read_blobs(b for c in changes for b in (c.old_blob, c.new_blob) if b)
        texts = {sha: _text(data) for sha, data in blobs.items()}
        return trace_memory(commits, texts, memory_id, hint), texts

    @staticmethod
    def _step_info(step: MemoryStep) -> CommitInfo:
        return commit_info(step.commit, paths=step.paths, change=step.change)
