"""Parsing `git log -z --raw`: commits with the files they changed, paths made vault-relative."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

LOG_FORMAT = "%x00%H%x00%P%x00%ct%x00%an%x00%ae%x00%B"
_HEX = re.compile(rb"^[0-9a-f]{40,64}$")


@dataclass(frozen=True)
class RawChange:
    status: str  # A, D, M or T (renames arrive as D + A: we ask for --no-renames)
    path: str  # vault-relative
    old_blob: str | None  # None when absent on that side, or a submodule
    new_blob: str | None


@dataclass(frozen=True)
class LoggedCommit:
    sha: str
    parents: tuple[str, ...]
    time: datetime
    author: str
    message: str
    changes: tuple[RawChange, ...]


def parse_log(data: bytes, to_vault: Callable[[str], str | None]) -> list[LoggedCommit]:
    """Parse `git log -z --raw --format=<LOG_FORMAT>`.

    Every field is NUL-terminated and no field can hold a NUL, so the header is read by
    position; raw entries are `:<meta>` then `<path>`; empty tokens only separate commits.
    """
    tokens = data.split(b"\0")
    commits: list[LoggedCommit] = []
    header: list[bytes] | None = None
    changes: list[RawChange] = []

    def flush() -> None:
        if header is not None:
            commits.append(_commit(header, changes))

    i = 0
    while i < len(tokens):
        token = tokens[i].lstrip(b"\n")
        if token.startswith(b":") and header is not None and i + 1 < len(tokens):
            change = _change(token, tokens[i + 1].decode("utf-8", "surrogateescape"), to_vault)
            if change is not None:
                changes.append(change)
            i += 2
        elif _HEX.match(token) and i + 5 < len(tokens):
            flush()
            header, changes = tokens[i : i + 6], []
            i += 6
        else:
            i += 1
    flush()
    return commits


def _commit(header: list[bytes], changes: list[RawChange]) -> LoggedCommit:
    sha, parents, stamp, name, email, message = (t.decode("utf-8", "replace") for t in header)
    when = datetime.fromtimestamp(int(stamp), tz=UTC)
    author, text = f"{name} <{email}>", message.rstrip("\n")
    return LoggedCommit(sha, tuple(parents.split()), when, author, text, tuple(changes))


def _change(meta: bytes, repo_path: str, to_vault: Callable[[str], str | None]) -> RawChange | None:
    fields = meta[1:].decode().split()
    path = to_vault(repo_path)
    if len(fields) < 5 or path is None:
        return None
    old_mode, new_mode, old, new, status = fields[:5]
    return RawChange(
        status=status[0], path=path, old_blob=_blob(old_mode, old), new_blob=_blob(new_mode, new)
    )


def _blob(mode: str, sha: str) -> str | None:
    if mode == "160000" or not sha.strip("0"):  # a submodule's commit, or nothing on that side
        return None
    return sha
