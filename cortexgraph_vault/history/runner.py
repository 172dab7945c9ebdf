"""Running git for one vault: finding the repository, a quiet environment, vault-relative paths,
and parsing the few outputs we read (raw logs, blob batches, lists of paths)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, BinaryIO, TypeVar

from cortexgraph_vault.errors import GitError, UnsafePath
from cortexgraph_vault.history.locate import NO_GIT, not_a_repository, searched_folders
from cortexgraph_vault.history.raw_log import LOG_FORMAT, LoggedCommit, parse_log
from cortexgraph_vault.history.tracing import id_value

if TYPE_CHECKING:
    import git

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
# Keeps each command line far below every platform's limit (Windows: 32k characters).
ARG_CHUNK = 200
_SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_REV = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._/@{}^~-]*$")
_git_works: bool | None = None
_T = TypeVar("_T")


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
        for line in lines:
            if line.startswith(("fatal:", "error:")):
                return line
        return lines[0] if lines else f"exit status {self.status}"


def load_gitpython() -> ModuleType | None:
    try:
        import git
    except ImportError:  # GitPython refuses to import when it finds no git executable
        return None
    return git


def git_works() -> bool:
    global _git_works
    if not _git_works:
        gitmod = load_gitpython()
        try:
            _git_works = gitmod is not None and gitmod.Git().execute(["git", "version"]) != ""
        except Exception:
            _git_works = False
    return _git_works


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


def chunks(items: Sequence[_T], size: int = ARG_CHUNK) -> Iterator[Sequence[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@contextmanager
def _stdin(data: bytes | None) -> Iterator[BinaryIO | None]:
    if data is None:
        yield None  # GitPython then gives the child /dev/null: MCP's stdin must stay ours
        return
    # A real file, not a pipe: nothing can deadlock however much git writes back.
    with tempfile.TemporaryFile() as stream:
        stream.write(data)
        stream.seek(0)
        yield stream


class GitRunner:
    """Runs git in one repository for a vault that is its root or one of its folders."""

    def __init__(self, repo: git.Repo, vault_root: Path, prefix: str) -> None:
        assert repo.working_tree_dir is not None
        self.repo = repo
        self.vault_root = vault_root
        self.work_tree = Path(repo.working_tree_dir)
        self.git_dir = Path(repo.git_dir)
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
        """The runner for `vault_root`, or why there can be none."""
        gitmod = load_gitpython()
        if gitmod is None or not git_works():
            return NO_GIT
        if not vault_root.is_dir():
            return f"{vault_root} does not exist or is not a folder"
        try:
            repo = gitmod.Repo(vault_root, search_parent_directories=True)
        except (gitmod.InvalidGitRepositoryError, gitmod.NoSuchPathError):
            return not_a_repository(vault_root)
        if repo.working_tree_dir is None:
            return f"{vault_root} is inside a bare git repository, which has no files to record"
        # GitPython searches past GIT_CEILING_DIRECTORIES; git itself, and we, do not. Where
        # it found the repository: the folder of a `.git` folder, or of a `.git` file.
        searched = searched_folders(vault_root)
        holders = (Path(repo.git_dir).resolve().parent, Path(repo.working_tree_dir).resolve())
        if not any(holder in searched for holder in holders):
            return not_a_repository(vault_root)
        try:
            inside = vault_root.resolve().relative_to(Path(repo.working_tree_dir).resolve())
        except ValueError:
            return f"{vault_root} is not inside the work tree of {repo.working_tree_dir}"
        prefix = inside.as_posix()
        return cls(repo, vault_root, "" if prefix == "." else prefix)

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
                status, out, err = self.repo.git.execute(
                    command,
                    istream=stream,
                    with_extended_output=True,
                    with_exceptions=False,
                    stdout_as_string=False,
                    strip_newline_in_stdout=False,
                    env=env,
                )
            except OSError as exc:  # GitCommandNotFound is one: git vanished since discovery
                raise GitError(f"{self.vault_root}: git could not be run ({exc})") from exc
        return GitResult(status, out, err)

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
        from git.refs.symbolic import SymbolicReference

        try:
            sha = SymbolicReference.dereference_recursive(self.repo, "HEAD")
        except Exception:  # unborn, reftable, a file being made: git itself knows
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
        if paths is not None and not paths:
            return []
        if not self.has_head():
            return []
        spec = self.vault_pathspec() if paths is None else [self.to_repo(p) for p in paths]
        out = self.check(
            "log",
            "-z",
            "--raw",
            "--no-renames",
            # A side branch's edits stay visible even when a merge kept the other side's.
            "--full-history",
            "--no-abbrev",
            "--no-ext-diff",
            "--no-textconv",
            f"--format={LOG_FORMAT}",
            *args,
            "--",
            *spec,
        )
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
        ids = set()
        for line in found.out.decode("utf-8", "replace").splitlines():
            value = id_value(line.partition(":")[2])
            if value:
                ids.add(value)
        return ids
