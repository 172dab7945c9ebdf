"""What the history layer hands out: commits, versions of a memory, forgotten memories."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cortexgraph_vault.errors import GitError, NotFound


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    short: str
    time: datetime  # aware UTC, commit (not author) time
    author: str  # "Name <email>"
    message: str  # full message, without the trailing newline
    summary: str  # first line
    # Vault-relative paths this commit touched; in a memory's history, the memory's own path(s):
    # for "renamed" the old path(s) first, then the new one(s).
    paths: tuple[str, ...]
    change: str  # "added" | "modified" | "deleted" | "renamed" in a memory's history, else ""


@dataclass(frozen=True)
class MemoryVersion:
    commit: CommitInfo
    path: str  # vault-relative path of the memory in that commit
    text: str  # the file's full text at that commit (undecodable bytes become U+FFFD)


@dataclass(frozen=True)
class ForgottenMemory:
    id: str
    title: str  # the file's stem when it was deleted
    path: str  # vault-relative path it was deleted from
    deleted_in: CommitInfo
    last_text: str  # its content just before the deletion


class VersionNotFound(GitError, NotFound):
    """A commit, or a path in a commit, that the repository does not hold.

    A GitError (so history callers catch one type) that doors map like any NotFound.
    """

    exit_code = NotFound.exit_code
    http_status = NotFound.http_status
