"""Names of our temp files and of notes set aside, and the sweep of a killed writer's litter.

A write goes to a hidden temp file beside the note (files.py); a forget sets the note aside
under a hidden name until its commit is made (handlers/lifecycle/gc_and_promotion.py). Both names carry the
writer's host and pid, so the next start can tell a dead writer's litter from a live one's.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
from pathlib import Path

from cortexgraph_vault.vault.anchored import FOLDER_FLAGS, folder_of
from cortexgraph_vault.vault.commit_outbox import alive

TEMP_MARK = ".cgv-tmp-"
ASIDE_MARK = ".cgv-aside-"


# This machine, in temp file names (a pid means nothing on another device of a synced vault).
_WRITER = hashlib.sha256(os.uname().nodename.encode()).hexdigest()[:6]
_OWNER = re.compile(re.escape(TEMP_MARK) + r"([0-9a-f]{6})-(\d+)-[0-9a-f]+$")


def temp_path_for(path: Path, mark: str = TEMP_MARK) -> Path:
    # The writer's host and pid in the name let the next start sweep a killed writer's litter
    # at once, while a live writer's temp file (here or on a synced device) is left alone.
    # A name near the file system's 255-byte limit would not leave room for the suffix.
    name = path.name
    if len(os.fsencode(name)) > 150:
        name = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return path.with_name(f".{name}{mark}{_WRITER}-{os.getpid()}-{os.urandom(4).hex()}")


def aside_path_for(path: Path) -> Path:
    """A hidden name beside `path` for a note a forget has taken out of the vault until its
    commit is made (a rename needs no free space, so a full disk can always put it back)."""
    return temp_path_for(path, ASIDE_MARK)


def _writer_is_dead(name: str) -> bool:
    """True when the temp file's writer was a process on this host that no longer runs."""
    found = _OWNER.search(name)
    if found is None or found.group(1) != _WRITER or int(found.group(2)) == os.getpid():
        return False
    return not alive(int(found.group(2)), "")


def sweep_temp_files(root: Path, folders: list[str], older_than_seconds: float = 60.0) -> int:
    """Remove temp files a crashed writer left behind (they are hidden, but they are litter):
    at once when their writer is known dead, otherwise once they are old. The folders are
    walked from the vault root without following a symlink (anchored.py): a folder swapped
    for a link to elsewhere is not entered, and nothing outside is removed."""
    removed = 0
    limit = time.time() - older_than_seconds
    for folder in folders:
        try:
            with folder_of(root / folder / "x") as (fd, _):
                removed += _sweep(fd, limit)
        except OSError:  # not there, or refused: nothing of ours to sweep
            continue
    return removed


def _sweep(top: int, limit: float) -> int:
    """What `Path(base).rglob(f".*{TEMP_MARK}*")` finds (symlinked folders not entered), by
    comparing names rather than matching each against a pattern at every start."""
    removed = 0
    folders = [os.dup(top)]
    while folders:
        fd = folders.pop()
        try:
            with contextlib.suppress(OSError), os.scandir(fd) as listing:
                for entry in listing:
                    name = entry.name
                    with contextlib.suppress(OSError):
                        ours = name[:1] == "." and TEMP_MARK in name[1:]
                        if ours and entry.is_file(follow_symlinks=False):
                            dead = _writer_is_dead(name)
                            if dead or entry.stat(follow_symlinks=False).st_mtime < limit:
                                os.unlink(name, dir_fd=fd)
                                removed += 1
                        elif entry.is_dir(follow_symlinks=False):
                            folders.append(os.open(name, FOLDER_FLAGS, dir_fd=fd))
        finally:
            os.close(fd)
    return removed
