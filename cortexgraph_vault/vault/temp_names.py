"""Names of our temp files and of notes set aside, and the sweep of a killed writer's litter.

A write goes to a hidden temp file beside the note (files.py); a forget sets the note aside
under a hidden name until its commit is made (ops/lifecycle.py). Both names carry the
writer's host and pid, so the next start can tell a dead writer's litter from a live one's.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import socket
import time
from pathlib import Path

from cortexgraph_vault.vault import this_process

TEMP_MARK = ".cgv-tmp-"
ASIDE_MARK = ".cgv-aside-"
# This machine, in temp file names (a pid means nothing on another device of a synced vault).
_WRITER = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:6]
_OWNER = re.compile(re.escape(TEMP_MARK) + r"([0-9a-f]{6})-(\d+)-[0-9a-f]+$")


class _Suffixes:
    """Name suffixes from memory: `os.getpid()` and `secrets` are a system call each
    (getpid, getrandom), paid on the writer's turn by every write. The suffix needs no
    secrecy, only to differ (the file is created exclusively); a forked child is seeded anew."""

    def __init__(self) -> None:
        self.renew()

    def renew(self) -> None:
        self.random = random.Random(os.urandom(16))

    def next(self) -> str:
        return f"{this_process.pid()}-{self.random.getrandbits(32):08x}"


_ME = _Suffixes()
os.register_at_fork(after_in_child=_ME.renew)


def temp_path_for(path: Path) -> Path:
    # The writer's host and pid in the name let the next start sweep a killed writer's litter
    # at once, while a live writer's temp file (here or on a synced device) is left alone.
    # A name near the file system's 255-byte limit would not leave room for the suffix.
    name = path.name if len(os.fsencode(path.name)) <= 150 else _short_name(path.name)
    return path.with_name(f".{name}{TEMP_MARK}{_WRITER}-{_ME.next()}")


def aside_path_for(path: Path) -> Path:
    """A hidden name beside `path` for a note a forget has taken out of the vault until its
    commit is made (a rename needs no free space, so a full disk can always put it back)."""
    name = path.name if len(os.fsencode(path.name)) <= 150 else _short_name(path.name)
    return path.with_name(f".{name}{ASIDE_MARK}{_WRITER}-{_ME.next()}")


def _short_name(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _writer_is_dead(name: str) -> bool:
    """True when the temp file's writer was a process on this host that no longer runs."""
    found = _OWNER.search(name)
    if found is None or found.group(1) != _WRITER:
        return False
    pid = int(found.group(2))
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, someone else's
    return False


def sweep_temp_files(root: Path, folders: list[str], older_than_seconds: float = 60.0) -> int:
    """Remove temp files a crashed writer left behind (they are hidden, but they are litter):
    at once when their writer is known dead, otherwise once they are old."""
    removed = 0
    limit = time.time() - older_than_seconds
    for folder in folders:
        base = root / folder
        if not base.is_dir():
            continue
        for entry in base.rglob(f".*{TEMP_MARK}*"):
            with contextlib.suppress(OSError):
                if entry.is_file() and (
                    _writer_is_dead(entry.name) or entry.stat().st_mtime < limit
                ):
                    entry.unlink()
                    removed += 1
    return removed
