"""Outcomes a caller can match on. Each door maps these once (MCP tool error, HTTP status, exit code).

Messages name the file or id and the reason, and say what to do next when there is something to do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NotRequired, TypedDict


def _code(class_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()


class VaultError(Exception):
    """Base of every error we raise on purpose.

    The message is worded for MCP and REST, which share the operations' parameter names.
    `params` and `operations` say which of its words are a parameter's name (`force` in "pass
    force") or another operation's tool name (`search_memory`), so a door that calls them
    otherwise (the CLI: `--force`, `cortexgraph-vault search`) can say it in its own words.
    """

    exit_code = 1
    http_status = 400

    def __init__(
        self, message: str = "", *, params: Sequence[str] = (), operations: Sequence[str] = ()
    ) -> None:
        super().__init__(message)
        self.params = tuple(params)
        self.operations = tuple(operations)

    def __init_subclass__(cls, *, exit_code: int = 0, http_status: int = 0) -> None:
        """`class NotFound(VaultError, exit_code=4, http_status=404)`: the codes a door maps
        it to; one not given is the parent's."""
        super().__init_subclass__()
        cls.exit_code = exit_code or cls.exit_code
        cls.http_status = http_status or cls.http_status
        BY_CODE[_code(cls.__name__)] = cls


# every error class by its `error` code, so a client of the REST door can raise it again
BY_CODE: dict[str, type[VaultError]] = {}


class ConfigError(VaultError, exit_code=2):
    """A configuration value is invalid; the message names the variable and the allowed range."""


class InvalidArgument(VaultError, exit_code=2, http_status=422): ...


class NoteFormatError(VaultError, http_status=422):
    """A note cannot be parsed well enough to edit it safely; it is left untouched."""


class UnsafePath(VaultError, exit_code=2):
    """A path would leave the vault (`..`, absolute, symlink out)."""


class NotFound(VaultError, exit_code=4, http_status=404): ...


class Ambiguous(VaultError, exit_code=4, http_status=409):
    def __init__(self, message: str, candidates: list[str]) -> None:
        super().__init__(message)
        self.candidates = candidates


class Conflict(VaultError, exit_code=3, http_status=409):
    """The file changed since the caller read it (expected hash differs)."""

    def __init__(
        self, path: str, expected_hash: str, actual_hash: str, current_text: str = ""
    ) -> None:
        super().__init__(
            f"{path}: changed since it was read (expected content hash {expected_hash[:12]}, "
            f"found {actual_hash[:12]}); re-read the memory and apply the change again"
        )
        self.path = path
        self.expected_hash = expected_hash
        self.actual_hash = actual_hash
        self.current_text = current_text


class BeingWritten(VaultError, exit_code=3, http_status=409):
    """Another program (an editor saving in place) was writing the note all the while we
    waited for it; nothing was changed. The message names the note."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"{path}: another program is writing it right now (an editor saving it in place?) "
            "and did not let go in time; left untouched, try again in a moment"
        )
        self.path = path


class SecretRefused(VaultError, exit_code=8, http_status=422):
    """Content looks like a credential; the vault is committed to git, so it is refused. Its
    exit code is its own: a script can tell "needs --force" from any other failure."""


class GitError(VaultError, exit_code=5, http_status=503):
    """Git could not record an operation; the message says why and what was left as it was."""


class GitOperationInProgress(GitError, http_status=409):
    """Git is in the middle of a rebase, merge, cherry-pick, revert or bisect: a change to a
    note git tracks waits until it is over (nothing was changed), and a new memory's commit is
    held until then. The message names the operation and how to end it."""


class WriteFailed(VaultError, OSError, exit_code=5, http_status=503):
    """The file system refused a write (disk full, permission denied, read-only); the note was
    left as it was. The message names the file and the system's reason. Still an OSError, so
    code that tolerates a failed write of its own (a cache) goes on tolerating it."""


class LockTimeout(VaultError, exit_code=5, http_status=503): ...


class Stale(VaultError, exit_code=3, http_status=409):
    """What an earlier call described (a cluster, a plan item) changed since; nothing was done.
    The message names what changed."""


class SyncError(VaultError, exit_code=7, http_status=409):
    """`sync` could not bring this device and its remote together (no remote, refused
    credentials, a history it cannot merge, a person's own uncommitted notes). The message says
    why and what was left as it was."""


class StillIndexing(VaultError, exit_code=6, http_status=503):
    """A call that came while the server was still reading the vault, and waited as long as a
    client should; the message says how far it got."""


def error_code(exc: VaultError) -> str:
    """The machine-readable code of an error: its class name in snake case (`not_found`)."""
    return _code(type(exc).__name__)


class ErrorFields(TypedDict):
    """The error body as JSON: REST's `ErrorBody` (api/schemas.py) with only the keys set."""

    error: str
    detail: str
    candidates: NotRequired[list[str]]
    expected_hash: NotRequired[str]
    actual_hash: NotRequired[str]
    params: NotRequired[list[str]]
    operations: NotRequired[list[str]]
    current_text: NotRequired[str]


def error_body(exc: VaultError) -> ErrorFields:
    """The one error body every door gives (REST's JSON, MCP's structured content): its
    `error` code and `detail`; the candidates of an ambiguous reference, the hashes of a
    conflict; which words of the detail are parameter (`params`) and operation names."""
    body: ErrorFields = {"error": error_code(exc), "detail": str(exc)}
    if isinstance(exc, Ambiguous):
        body["candidates"] = list(exc.candidates)
    elif isinstance(exc, Conflict):
        body["expected_hash"] = exc.expected_hash
        body["actual_hash"] = exc.actual_hash
    if exc.params:
        body["params"] = list(exc.params)
    if exc.operations:
        body["operations"] = list(exc.operations)
    return body
