"""Files of a vault reached from a descriptor of its root, no symlink followed at any level.

A path checked and then opened by name can be swapped in between: a vault folder exchanged
with a symlink to a folder outside (renameat2 RENAME_EXCHANGE, in a loop) turns the name the
check passed into one that leads out, and O_NOFOLLOW guards only the last part of a name.
So nothing below a vault root is opened by its full name: the folder holding a file is
walked to from a descriptor of the root, one folder at a time, each opened relative to the
one before with O_NOFOLLOW | O_DIRECTORY, and the file is then opened, created, renamed or
removed relative to that folder's descriptor. A symlink met on the way is refused
(`SymlinkedFolder`), never followed; whatever is swapped meanwhile, a descriptor reached this
way is a folder of the vault.

Vault roots are registered once (`register`, by the note store; a parsing worker by the
root it is given): the root itself is trusted and opened by its name (a vault is not moved
under a running process; no descriptor is kept, so a process that opens many vaults, a test
run, holds none open). A path outside every registered root (the index cache, the write
journal, our settings) is one of our own folders and is opened as it is named.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_ROOT = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC

# Vault roots as given and as resolved, the deepest first (a vault inside another's folder is
# reached from its own root); replaced whole, never changed in place: a lookup needs no lock.
_roots: tuple[str, ...] = ()
_lock = threading.Lock()


class SymlinkedFolder(OSError):
    """A folder on the way to a vault path is a symlink (or was swapped for one): refused."""

    def __init__(self, path: str, folder: str) -> None:
        super().__init__(errno.ELOOP, f"{folder} is a symlinked folder")
        self.path = path
        self.folder = folder

    @property
    def reason(self) -> str:
        return f"{self.folder}/ is a symlinked folder; nothing through it is read or written"


def register(root: Path | str) -> None:
    """Make `root` a vault root: every path below it is reached from its descriptor."""
    global _roots
    if os.fspath(root) in _roots:  # asked again by every read of a parsing worker
        return
    names = {os.path.abspath(root), os.path.realpath(root)}
    with _lock:
        if names <= set(_roots):
            return
        _roots = tuple(sorted(names | set(_roots), key=len, reverse=True))


def _vault_of(path: str) -> tuple[str, list[str]] | None:
    """(root, names of the folders below it) for a path below a registered root; None for
    any other path."""
    for root in _roots:
        if path.startswith(root) and path[len(root) : len(root) + 1] == os.sep:
            parts = path[len(root) + 1 :].split(os.sep)
            return root, [p for p in parts[:-1] if p not in ("", ".")]
    return None


def _open_below(root: str, folders: list[str], path: str, *, create: bool) -> int:
    fd = os.open(root, _ROOT)
    walked = root
    try:
        for part in folders:
            if part == "..":
                raise SymlinkedFolder(path, os.path.join(walked, part))
            walked = os.path.join(walked, part)
            try:
                below = os.open(part, FOLDER_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                below = _open_folder(part, fd, walked, path)
            except OSError as exc:
                if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                    raise
                below = _open_folder(part, fd, walked, path)
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_folder(part: str, fd: int, walked: str, path: str) -> int:
    """`part` again, after an open that did not give a folder: a symlink is refused, a file
    is NotADirectoryError (as an open by name says)."""
    st = os.stat(part, dir_fd=fd, follow_symlinks=False)
    if stat.S_ISLNK(st.st_mode):
        raise SymlinkedFolder(path, walked)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", walked)
    try:
        return os.open(part, FOLDER_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ENOTDIR, errno.ELOOP):  # swapped for a symlink meanwhile
            raise SymlinkedFolder(path, walked) from None
        raise


class HeldFolder:
    """The folder of the last path read, its descriptor kept for the next path in the same
    folder: a parse of thousands of notes in a row (a walk's order: each folder's files
    together) walks to each folder once, not once a note. Reached as `folder_of` reaches it,
    no symlink followed; what a descriptor reached so stands for is a folder of the vault,
    whatever is swapped or renamed later. Closed on leaving the `with` block."""

    __slots__ = ("fd", "head")

    def __init__(self) -> None:
        self.head: str | None = None
        self.fd = -1

    def at(self, path: str) -> tuple[int, str]:
        """(a descriptor of the folder holding `path`, its last name), as `folder_of` gives."""
        head, tail = os.path.split(path)
        if head != self.head:
            self.close()
            found = _vault_of(path)
            self.fd = (
                _open_below(*found, path, create=False) if found else os.open(head or ".", _ROOT)
            )
            self.head = head
        return self.fd, tail

    def close(self) -> None:
        if self.head is not None:
            self.head = None
            os.close(self.fd)

    def __enter__(self) -> HeldFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def folder_of(path: Path | str, *, create: bool = False) -> Iterator[tuple[int, str]]:
    """(a descriptor of the folder holding `path`, the last name of `path`), closed after
    the block. Below a vault root the folder is walked to without following a symlink
    (SymlinkedFolder); `create`: missing folders are made on the way."""
    name = os.fspath(path)
    head, tail = os.path.split(name)
    found = _vault_of(name)
    if found is not None:
        fd = _open_below(*found, name, create=create)
    else:
        if create:
            os.makedirs(head, exist_ok=True)
        fd = os.open(head or ".", _ROOT)
    try:
        yield fd, tail
    finally:
        os.close(fd)
