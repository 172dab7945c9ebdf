"""Commits asked for and not made yet, kept outside the vault until git holds them.

An operation's files are written first and committed after; a process killed between the two
(or a commit held while git is in the middle of a rebase, `vault/../history/git_states.py`)
would leave them uncommitted, to be caught later by a snapshot under another subject. So just
before an operation's commit, its paths and message go to a small file of their own in a folder
beside the vault lock; the file goes once the commit is made (or there was nothing to commit,
or the operation undid its change). The next start, or the next commit of this process once
git's operation is over, commits what is left, each entry with its own message, oldest first.

Written without an fsync: a killed process's writes are in the kernel's cache already, and after
a power cut the snapshot still records the files. An entry names the process that wrote it, so
the entries of a live process (another CLI call, the daemon) are left to it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from cortexgraph_vault.vault.lock import vault_key

log = logging.getLogger(__name__)
_counter = itertools.count()
# This process's entries whose commit is under way (not held, not failed): never taken over.
_in_flight: set[str] = set()
_in_flight_lock = threading.Lock()


@dataclass(frozen=True)
class OutboxEntry:
    name: str  # the file's name: its time, process and number order the entries
    paths: tuple[str, ...]
    message: str
    pid: int
    started: str  # the process's start time (a pid used again is another process)

    @property
    def subject(self) -> str:
        return self.message.partition("\n")[0]


def process_started(pid: int) -> str:
    """When process `pid` started, as the kernel counts it ("" where /proc does not say)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return ""
    # The name in brackets may hold spaces; the start time is the 20th field after it.
    fields = stat.rpartition(b")")[2].split()
    return fields[19].decode() if len(fields) > 19 else ""


# This process's start, asked once (by pid: a forked child asks anew).
_started_here = functools.cache(process_started)


# Where a process cannot be asked after (Windows: signal 0 is CTRL_C_EVENT there), an entry
# this old is taken for one whose process ended: a live process makes its commit in moments,
# and one it held is made again harmlessly (the second finds nothing new).
_TAKEN_OVER_AFTER = 60.0


def alive(pid: int, started: str, *, written_ns: int | None = None) -> bool:
    """Whether the process that wrote an entry still runs."""
    if os.name == "nt":
        return written_ns is not None and time.time_ns() - written_ns < _TAKEN_OVER_AFTER * 1e9
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: alive
    return not started or process_started(pid) in ("", started)


def _written(name: str) -> int | None:
    try:
        return int(name.partition("-")[0])
    except ValueError:
        return None


class CommitOutbox:
    def __init__(self, root: Path, folder: Path) -> None:
        self.folder = folder / vault_key(root)
        self._made = False

    def put(self, paths: list[str], message: str) -> str:
        """Keep a commit about to be made; returns the name `done` takes. A failure to keep
        it never stops the commit (it is only the fallback of a kill)."""
        pid = os.getpid()
        name = f"{time.time_ns():020d}-{pid}-{next(_counter):06d}.json"
        entry = {"paths": paths, "message": message, "pid": pid, "started": _started_here(pid)}
        data = json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogateescape")
        try:
            if not self._made:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._made = True
            fd = os.open(self.folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
        except OSError as exc:
            log.warning("%s: commit not kept for a restart (%s)", self.folder, exc)
            return ""
        with _in_flight_lock:
            _in_flight.add(name)
        return name

    def done(self, name: str) -> None:
        """The commit is made (or has nothing left to make): the entry goes."""
        if name:
            self.release(name)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.folder / name)

    def release(self, name: str) -> None:
        """The commit was not made (held, or failed): the entry stays, for whoever makes it."""
        with _in_flight_lock:
            _in_flight.discard(name)

    def any_left(self) -> bool:
        """Whether any entry is kept (one look at the folder, for every start)."""
        try:
            return any(n.endswith(".json") for n in os.listdir(self.folder))
        except OSError:
            return False

    def pending(self) -> list[OutboxEntry]:
        """Entries waiting to be made, oldest first: those of processes that have ended, and
        this process's that are not under way. One that cannot be read is set aside."""
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.endswith(".json"))
        except FileNotFoundError:
            return []
        me = os.getpid()
        with _in_flight_lock:
            names = [n for n in names if n not in _in_flight]
        found: list[OutboxEntry] = []
        for name in names:
            try:
                raw = (self.folder / name).read_bytes()
                data = json.loads(raw.decode("utf-8", "surrogateescape"))
                pid, started = int(data["pid"]), str(data.get("started", ""))
                mine = pid == me and started == _started_here(me)
                entry = OutboxEntry(name, tuple(data["paths"]), str(data["message"]), pid, started)
            except FileNotFoundError:
                continue  # committed meanwhile by its process
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("%s: unreadable kept commit (%s); set aside", self.folder / name, exc)
                with contextlib.suppress(OSError):
                    os.replace(self.folder / name, self.folder / f"{name}.unreadable")
                continue
            if mine or not alive(pid, started, written_ns=_written(name)):
                found.append(entry)
        return found
