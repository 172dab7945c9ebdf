"""Running git for one vault: finding the repository, a quiet environment, vault-relative paths,
and parsing the few outputs we read (raw logs, blob batches, lists of paths)."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

from cortexgraph_vault.errors import GitError, UnsafePath
from cortexgraph_vault.history.locate import NO_GIT, common_folder, not_a_repository
from cortexgraph_vault.history.raw_log import LOG_FORMAT, LoggedCommit, parse_log
from cortexgraph_vault.history.tracing import id_value

# Settings a person may have that would change the shape of the output we parse.
CONFIG_ARGS: tuple[str, ...] = tuple(
    arg
    for setting in (
        "core.quotepath=false",
        "log.follow=false",
        "log.showSignature=false",
        "color.ui=false",
        "core.pager=cat",
        "i18n.logOutputEncoding=UTF-8",
        "grep.lineNumber=false",
        "grep.column=false",
        "grep.fullName=false",
    )
    for arg in ("-c", setting)
)
ENV: dict[str, str] = {
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_EDITOR": ":",
    # Vault paths may hold `*`, `?` or `[ ]`: they always name files, never patterns.
    "GIT_LITERAL_PATHSPECS": "1",
    # Reading must never take index.lock (to refresh stat data): obsidian-git may be committing.
    "GIT_OPTIONAL_LOCKS": "0",
}
# Variables that would move the repository or its index away from the vault's own: discovery
# goes by the vault's folder, and every command then names the repository explicitly.
_MOVING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY")
# Keeps each command line far below every platform's limit (Windows: 32k characters).
ARG_CHUNK = 200
_SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_REV = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._/@{}^~-]*$")
# `--full-history`: a side branch's edits stay visible even when a merge kept the other side's.
_LOG_ARGS: tuple[str, ...] = ("-z", "--raw", "--no-renames", "--full-history", "--no-abbrev")
_LOG_ARGS += ("--no-ext-diff", "--no-textconv")
_git_works: bool | None = None


@dataclass(frozen=True)
class GitResult:
    status: int
    out: bytes
    err: str

    @property
    def ok(self) -> bool:
        return self.status == 0

    @property
    def reason(self) -> str:
        """Git's own explanation: its first fatal/error line, else its first line."""
        lines = [line.strip() for line in self.err.splitlines() if line.strip()]
        fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
        return (fatal or lines or [f"exit status {self.status}"])[0]


def run_git(
    command: Sequence[str],
    *,
    cwd: Path | None,
    env: Mapping[str, str],
    stdin: BinaryIO | None = None,
    drop: Sequence[str] = (),
) -> GitResult:
    """One git process: its status, its output as bytes, its messages in words. git speaks
    English here (`LC_ALL=C`): callers read some of its messages ("File exists"). `drop`:
    variables of ours git must not see."""
    inherited = {name: value for name, value in os.environ.items() if name not in drop}
    full_env = {**inherited, "LANGUAGE": "C", "LC_ALL": "C", **env}
    try:
        done = subprocess.run(
            list(command),
            cwd=cwd,
            env=full_env,
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except OSError as exc:  # no git, or git vanished since it was found
        raise GitError(f"git could not be run ({exc})") from exc
    return GitResult(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


def git_works() -> bool:
    global _git_works
    if not _git_works:
        try:
            found = run_git(["git", "version"], cwd=None, env=ENV)  # any folder, even a deleted one
            _git_works = found.ok and found.out.startswith(b"git version")
        except (GitError, OSError):
            _git_works = False
    return _git_works


def _packed_ref(packed: Path, ref: str) -> str | None:
    try:
        lines = packed.read_text("ascii").splitlines()
    except FileNotFoundError:
        return None
    return next((sha for sha, _, name in (s.partition(" ") for s in lines) if name == ref), None)


def clean_vault_path(path: str) -> str:
    """A vault-relative posix path, normalised; anything that could leave the vault is refused."""
    if not isinstance(path, str) or not path or "\0" in path:
        raise UnsafePath(f"{path!r}: not a file path inside the vault")
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path):
        raise UnsafePath(f"{path}: an absolute path; history takes paths relative to the vault")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if not parts or ".." in parts:
        raise UnsafePath(f"{path}: leaves the vault; history takes paths inside it")
    if parts[0] == ".git":
        raise UnsafePath(f"{path}: inside the .git folder, which history never records")
    return "/".join(parts)


def nul_join(paths: Iterable[str]) -> bytes:
    return b"".join(path.encode("utf-8", "surrogateescape") + b"\0" for path in paths)


def split_nul(data: bytes) -> list[str]:
    return [item.decode("utf-8", "surrogateescape") for item in data.split(b"\0") if item]


_T = TypeVar("_T")


def chunks(items: Sequence[_T], size: int = ARG_CHUNK) -> Iterator[Sequence[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@contextmanager
def _stdin(data: bytes | None) -> Iterator[BinaryIO | None]:
    if data is None:
        yield None  # the child then reads /dev/null: MCP's stdin must stay ours
        return
    # A real file, not a pipe: nothing can deadlock however much git writes back.
    with tempfile.TemporaryFile() as stream:
        stream.write(data)
        stream.seek(0)
        yield stream


class GitRunner:
    """Runs git in one repository for a vault that is its root or one of its folders."""

    def __init__(self, git_dir: Path, work_tree: Path, vault_root: Path, prefix: str) -> None:
        self.vault_root, self.work_tree, self.git_dir = vault_root, work_tree, git_dir
        self.prefix = prefix  # the vault's folder inside the repository; "" at its root
        self.index_lock = self.git_dir / "index.lock"
        # Explicit, so that a GIT_DIR or GIT_INDEX_FILE inherited from a hook cannot redirect us.
        self._env = {
            **ENV,
            "GIT_DIR": str(self.git_dir),
            "GIT_WORK_TREE": str(self.work_tree),
            "GIT_INDEX_FILE": str(self.git_dir / "index"),
        }
        self._zero: str | None = None

    @classmethod
    def discover(cls, vault_root: Path) -> GitRunner | str:
        """The runner for `vault_root`, or why there can be none. git's own discovery decides
        (GIT_CEILING_DIRECTORIES, `.git` files, `core.bare`, `core.worktree`), by the vault's
        folder alone: variables that move the repository are left out of it."""
        if not git_works():
            return NO_GIT
        if not vault_root.is_dir():
            return f"{vault_root} does not exist or is not a folder"
        asked = ["git", "rev-parse", "--is-bare-repository", "--absolute-git-dir"]
        found = run_git([*asked, "--show-toplevel"], cwd=vault_root, env=ENV, drop=_MOVING)
        lines = found.out.decode("utf-8", "surrogateescape").splitlines()
        if lines[:1] == ["true"]:
            return f"{vault_root} is inside a bare git repository, which has no files to record"
        if not found.ok or len(lines) < 3:
            if "not a git repository" in found.err or not found.err.strip():
                return not_a_repository(vault_root)
            return f"{vault_root}: git cannot use its repository ({found.reason})"
        work_tree = Path(lines[2])
        try:
            inside = vault_root.resolve().relative_to(work_tree.resolve())
        except ValueError:
            return f"{vault_root} is not inside the work tree of {work_tree}"
        prefix = inside.as_posix()
        return cls(Path(lines[1]), work_tree, vault_root, "" if prefix == "." else prefix)

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        config: Sequence[str] = (),
        index: Path | None = None,
    ) -> GitResult:
        """`index`: another index file than the repository's (a commit's own, history/plumbing)."""
        command = ["git", *CONFIG_ARGS, *config, *args]
        env = self._env if index is None else {**self._env, "GIT_INDEX_FILE": str(index)}
        with _stdin(input) as stream:
            try:
                return run_git(command, cwd=self.work_tree, env=env, stdin=stream)
            except GitError as exc:
                raise GitError(f"{self.vault_root}: {exc}") from exc

    def environment(self) -> dict[str, str]:
        """What a git process started outside `run` gets on top of ours (history/transfer.py)."""
        return dict(self._env)

    def check(self, *args: str, input: bytes | None = None) -> bytes:
        result = self.run(*args, input=input)
        if not result.ok:
            raise GitError(f"{self.vault_root}: git {args[0]} failed ({result.reason})")
        return result.out

    # Paths: vault-relative outside this class's callers, repository-relative inside git.

    def to_repo(self, path: str) -> str:
        clean = clean_vault_path(path)
        return f"{self.prefix}/{clean}" if self.prefix else clean

    def from_repo(self, path: str) -> str | None:
        if not self.prefix:
            return path
        head = self.prefix + "/"
        return path[len(head) :] if path.startswith(head) else None

    def vault_pathspec(self) -> list[str]:
        return [self.prefix] if self.prefix else []

    def list_paths(self, *args: str, paths: Sequence[str]) -> set[str]:
        """Repository paths printed NUL-separated by `git <args> -z -- <paths>`."""
        found: set[str] = set()
        for chunk in chunks(paths):
            found.update(split_nul(self.check(*args, "-z", "--", *chunk)))
        return found

    # Reading the object database.

    def has_head(self) -> bool:
        return self.head_or_none() is not None

    def head_or_none(self) -> str | None:
        found = self.run("rev-parse", "-q", "--verify", "HEAD^{commit}")
        return found.out.decode().strip() if found.ok else None

    def head_sha(self) -> str:
        return self.head_from_files() or self.check("rev-parse", "HEAD").decode().strip()

    def head_from_files(self) -> str | None:
        """HEAD's commit read from the ref files as git left them (no process: a group commit
        asks twice), or None when they do not say it plainly (no commit yet, a ref storage we
        do not read): the caller then asks git. Git replaces a ref file in one rename."""
        try:
            head = (self.git_dir / "HEAD").read_text("ascii").strip()
            if not head.startswith("ref: refs/"):
                return head if _SHA.match(head) else None  # a detached HEAD names its commit
            ref = head[len("ref: ") :]
            common = common_folder(self.git_dir)  # a linked work tree's refs are shared
            try:
                sha = (common / ref).read_text("ascii").strip()
            except FileNotFoundError:
                sha = _packed_ref(common / "packed-refs", ref) or ""
        except (OSError, UnicodeError):  # unborn, reftable, a file being made: git itself knows
            return None
        return sha if _SHA.match(sha) else None

    def zero_sha(self) -> str:
        if self._zero is None:
            found = self.run("rev-parse", "--show-object-format")
            self._zero = "0" * (64 if found.ok and found.out.strip() == b"sha256" else 40)
        return self._zero

    def resolve_commit(self, rev: str) -> str | None:
        if not _REV.match(rev) or ":" in rev:
            return None
        found = self.run("rev-parse", "-q", "--verify", f"{rev}^{{commit}}")
        return found.out.decode().strip() if found.ok else None

    def blob_at(self, commit_sha: str, repo_path: str) -> bytes | None:
        found = self.run("cat-file", "blob", f"{commit_sha}:{repo_path}")
        return found.out if found.ok else None

    def read_blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Many blobs through one `git cat-file --batch`, not one process each."""
        wanted = sorted(set(shas))
        if not wanted:
            return {}
        out = self.check("cat-file", "--batch", input="".join(f"{s}\n" for s in wanted).encode())
        blobs: dict[str, bytes] = {}
        pos = 0
        for sha in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].split()
            pos = end + 1
            if len(header) != 3:  # "<sha> missing"
                continue
            size = int(header[2])
            blobs[sha] = out[pos : pos + size]
            pos += size + 1
        return blobs

    def log(self, *args: str, paths: Sequence[str] | None = None) -> list[LoggedCommit]:
        """Non-merge commits, newest first, with their raw changes; `paths` are vault-relative
        (None: the whole vault). Changes outside the vault are left out."""
        if (paths is not None and not paths) or not self.has_head():
            return []
        spec = self.vault_pathspec() if paths is None else [self.to_repo(p) for p in paths]
        out = self.check("log", *_LOG_ARGS, f"--format={LOG_FORMAT}", *args, "--", *spec)
        return parse_log(out, self.from_repo)

    def ids_at_head(self) -> set[str]:
        """Every `id:` value in a file at HEAD (a superset of memory ids: bodies count too)."""
        if not self.has_head():
            return set()
        pattern = "^id[ \t]*:"
        found = self.run(
            "grep", "-h", "-I", "-E", "-e", pattern, "HEAD", "--", *self.vault_pathspec()
        )
        if found.status not in (0, 1):  # 1: no line matched
            raise GitError(f"{self.vault_root}: git grep failed ({found.reason})")
        lines = found.out.decode("utf-8", "replace").splitlines()
        return {value for line in lines if (value := id_value(line.partition(":")[2]))}
