"""Walking a vault's folders for its notes, and the names that are not the vault's business.

A walk never follows a symlink; it names every entry that ends in `.md` with its lstat (the
catalogue reports those that are not regular files, and never opens them) and every other
regular file as an attachment.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from cortexgraph_vault.vault.files import TEMP_MARK
from cortexgraph_vault.vault.paths import IGNORED_DIRS

log = logging.getLogger(__name__)

BAD_NAME = "file name is not UTF-8 (rename it); never read"


class NoteStat(Protocol):
    """What a walk's reader takes of a note's lstat (an `os.stat_result` has it)."""

    @property
    def st_mode(self) -> int: ...
    @property
    def st_size(self) -> int: ...
    @property
    def st_mtime_ns(self) -> int: ...


Walked = tuple[str, NoteStat | None]  # what `walk_vault` yields: a note's lstat, or None


def utf8_name(rel: str) -> bool:
    """A name read from the disk that was not UTF-8 holds surrogates (Python's escape for its
    bytes): such a path could never be written into JSON, YAML or a git command."""
    if rel.isascii():  # nearly every name: no encoding to try (10k at every walk)
        return True
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_name(rel: str) -> str:
    """A name that is not UTF-8 as a person can read it: `caf\\xe9.md`."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def ignored_name(name: str) -> bool:
    """Hidden files and folders, our temp files and other tools' folders are not the vault's."""
    return name.startswith(".") or TEMP_MARK in name or name in IGNORED_DIRS


def cannot_list(folder: str, reason: str | None) -> None:
    log.warning("%s: cannot list folder (%s)", folder, reason)


def walk_vault(
    root: Path, start: str = "", unlisted: list[tuple[str, str | None]] | None = None
) -> Iterator[Walked]:
    """(vault-relative path, lstat) of every note under `start`; attachments with stat None.

    A symlink, FIFO, socket or device named like a note comes with its lstat (not a regular
    file's): the caller reports it, and never opens it. A folder that cannot be listed is
    logged (`cannot_list`), or put in `unlisted` for a walker that reports elsewhere."""
    base = os.path.join(root, start) if start else str(root)
    stack = [(base, start.strip("/") + "/" if start.strip("/") else "")]
    while stack:
        folder, rel_folder = stack.pop()
        try:
            entries: list[os.DirEntry[str] | None] = list(os.scandir(folder))
        except OSError as exc:
            if folder != base or not isinstance(exc, FileNotFoundError | NotADirectoryError):
                if unlisted is None:
                    cannot_list(folder, exc.strerror)
                else:
                    unlisted.append((folder, exc.strerror))
            continue
        for i, entry in enumerate(entries):
            if entry is None:
                continue
            # let go of each entry once passed: an entry keeps the stat it made (the biggest
            # folder of 100k notes: ~13 MB of them held until the folder was done)
            entries[i] = None
            name = entry.name
            if ignored_name(name):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, rel_folder + name + "/"))
                elif name.endswith(".md"):
                    yield rel_folder + name, entry.stat(follow_symlinks=False)
                elif entry.is_file(follow_symlinks=False):
                    yield rel_folder + name, None
            except OSError:
                continue
