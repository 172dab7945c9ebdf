"""Reading notes strictly and writing them atomically.

A write goes to a hidden temp file in the same folder (Obsidian and our watcher ignore dot
files), is fsynced, and replaces the note with one rename, so a reader sees the old note or
the new one, never half of either. Every file below a vault root is opened, created, renamed
and removed relative to a descriptor of its folder, reached from the root without following
a symlink (vault/anchored.py): a folder swapped for a symlink is refused, never written
through.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from cortexgraph_vault.errors import (
    BeingWritten,
    NoteFormatError,
    UnsafePath,
    VaultError,
    WriteFailed,
)
from cortexgraph_vault.vault import durability
from cortexgraph_vault.vault.anchored import HeldFolder, SymlinkedFolder, folder_of, register
from cortexgraph_vault.vault.durability import DURABILITY
from cortexgraph_vault.vault.fd_reads import read_fd as read_fd
from cortexgraph_vault.vault.late_writes import KeepLateWords, last_look
from cortexgraph_vault.vault.other_writers import read_alone
from cortexgraph_vault.vault.temp_names import TEMP_MARK as TEMP_MARK
from cortexgraph_vault.vault.temp_names import aside_path_for as aside_path_for
from cortexgraph_vault.vault.temp_names import sweep_temp_files as sweep_temp_files
from cortexgraph_vault.vault.temp_names import temp_path_for


@dataclass(frozen=True)
class FileStamp:
    """What we saw of a file when we read it; a change of any part means someone wrote it."""

    size: int
    mtime_ns: int
    sha256: str
    # The file's own stat when we wrote it (device, inode: `is_ours`); not part of the stamp.
    st: os.stat_result | None = field(default=None, compare=False, repr=False)


def stamp_of(data: bytes, st: os.stat_result, *, keep_st: bool = False) -> FileStamp:
    sha = hashlib.sha256(data).hexdigest()
    return FileStamp(st.st_size, st.st_mtime_ns, sha, st if keep_st else None)


class NotRegularFile(OSError):
    """A path named like a note that is not a regular file of the vault: never read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISLNK, "a symbolic link"),
)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


NEVER_READ = "; never read"


def not_regular(kind: str) -> str:
    return f"{kind}, not a regular file{NEVER_READ}"


OUTSIDE = f"in a symlinked folder (it could lead outside the vault){NEVER_READ}"


def open_stat(
    path: Path | str, real_root: str | None = None, held: HeldFolder | None = None
) -> tuple[int, os.stat_result]:
    """A read-only descriptor of the regular file at `path`, or NotRegularFile.

    O_NOFOLLOW: a symlink named like a note is never followed (it could lead anywhere on the
    machine), nor is a symlinked folder on the way to it (anchored.py). O_NONBLOCK: opening a
    FIFO returns at once instead of waiting for a writer forever. `real_root`: the vault's
    real path, for a process that has not opened the vault (a parsing worker). `held`: the
    folder kept from the read before, for many reads in a row.
    """
    if real_root is not None:
        register(real_root)
    try:
        if held is not None:
            fd = _open_held(held, os.fspath(path))
        else:
            with folder_of(path) as (folder, name):
                fd = os.open(name, _READ, dir_fd=folder)
    except SymlinkedFolder:
        raise NotRegularFile(OUTSIDE) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegularFile(not_regular("a symbolic link")) from None
        raise
    return _opened_regular(fd, path)


def _open_held(held: HeldFolder, path: str) -> int:
    folder, name = held.at(path)
    try:
        return os.open(name, _READ, dir_fd=folder)
    except FileNotFoundError:
        # The folder held may have been replaced whole since it was opened (a sync tool or a
        # restore swaps folders): a note is gone only when a fresh walk finds it gone too.
        held.close()
        folder, name = held.at(path)
        return os.open(name, _READ, dir_fd=folder)


def _opened_regular(fd: int, path: Path | str) -> tuple[int, os.stat_result]:
    st = os.fstat(fd)  # handed on: each further fstat is one more system call on a turn
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        raise NotRegularFile(not_regular(kind_of(st.st_mode)))
    return fd, st


_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def lstat_of(path: Path) -> os.stat_result:
    """The lstat of `path`, reached without following a symlinked folder (SymlinkedFolder)."""
    with folder_of(path) as (folder, name):
        return os.stat(name, dir_fd=folder, follow_symlinks=False)


def lexists(path: Path) -> bool:
    """Anything (a symlink too) is at `path`; a path through a symlinked folder is refused."""
    try:
        lstat_of(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except SymlinkedFolder as exc:
        raise refused(path, exc) from None
    return True


def regular_file_exists(path: Path) -> bool:
    """A regular file (not a symlink to one) is at `path`: lstat, never opening it."""
    try:
        return stat.S_ISREG(lstat_of(path).st_mode)
    except OSError:
        return False


def refused(path: Path, exc: SymlinkedFolder) -> UnsafePath:
    return UnsafePath(f"{path}: {exc.reason}; refused")


def decode_note(data: bytes, rel: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NoteFormatError(
            f"{rel}: not UTF-8 text (byte {exc.start}: {data[exc.start : exc.start + 1]!r}); "
            "left untouched"
        ) from None


def read_bytes(path: Path, rel: str = "", *, whole: bool = False) -> tuple[bytes, FileStamp]:
    """The regular file's bytes and their stamp. `whole`: BeingWritten rather than a version
    another program is in the middle of writing (other_writers.py), for a read whose bytes may
    be written back."""
    data, stamp, fd = _read_kept_open(path, rel, None, whole=whole)
    os.close(fd)
    return data, stamp


def _read_kept_open(
    path: Path, rel: str, max_bytes: int | None, *, whole: bool
) -> tuple[bytes, FileStamp, int]:
    fd, st = open_stat(path)
    try:
        if max_bytes is not None and st.st_size > max_bytes:
            raise NoteFormatError(
                f"{rel}: {st.st_size} bytes, larger than max_note_bytes ({max_bytes}); "
                "too large to rewrite safely, left untouched"
            )
        if whole:
            read = read_alone(fd, size=st.st_size)
            if read is None:
                raise BeingWritten(rel or path.name)
            data = read
        else:
            data = read_fd(fd, size=st.st_size)
    except BaseException:
        os.close(fd)
        raise
    return data, stamp_of(data, st), fd


def read_note_open(
    path: Path, rel: str, max_bytes: int | None = None
) -> tuple[str, FileStamp, int]:
    """The note's text and stamp, refused (NoteFormatError) when it is larger than `max_bytes`, and its
    descriptor, left open for the caller (to close, or to give to `atomic_write` as
    `held_open`). A read to be written back: BeingWritten while another program writes it."""
    try:
        data, stamp, fd = _read_kept_open(path, rel, max_bytes, whole=True)
    except IsADirectoryError:
        raise NoteFormatError(f"{rel}: is a folder, not a note") from None
    except NotRegularFile as exc:
        raise NoteFormatError(f"{rel}: {exc.reason}") from None
    try:
        return decode_note(data, rel), stamp, fd
    except BaseException:
        os.close(fd)
        raise


def current_stamp(path: Path) -> FileStamp | None:
    """The stamp of the regular file at `path`; None when there is none (gone, or replaced by
    something that is not a regular file)."""
    try:
        _, stamp = read_bytes(path)
    except (FileNotFoundError, NotRegularFile, IsADirectoryError):
        return None
    return stamp


def _fsync_dir(folder: Path) -> None:
    durability.fsync_folder(folder)  # looked up at each call: tests hold it to watch the order


def rename_file(src: Path, dst: Path) -> None:
    try:
        with folder_of(src) as (src_folder, src_name), folder_of(dst) as (dst_folder, dst_name):
            os.rename(src_name, dst_name, src_dir_fd=src_folder, dst_dir_fd=dst_folder)
    except SymlinkedFolder as exc:
        raise refused(src, exc) from None
    except OSError as exc:
        raise write_failed(src, exc) from exc
    _fsync_dir(dst.parent)


def atomic_write(
    path: Path,
    data: bytes,
    *,
    expected: FileStamp | None = None,
    must_not_exist: bool = False,
    sync_later: bool = False,
    on_late: KeepLateWords | None = None,
    held_open: int | None = None,
) -> FileStamp:
    """Replace `path` with `data` in one rename.

    `expected` is the stamp read before the caller computed `data`: if the file on disk no
    longer matches it, a person (or another process) wrote it meanwhile, and we stop with
    ChangedUnderUs rather than overwrite their edit. `must_not_exist` guards new files.
    `sync_later`: a write that is one step on its own (not part of a journaled move, not a
    journal) may leave its folder's fsync to be waited for after the lock (durability.py).
    `on_late` is given words written into the replaced note after we read it back
    (late_writes.py). `held_open`: the descriptor of the note `expected` was read from
    (`read_note_open`), kept open since, and closed here whatever happens: the check reads
    it again instead of opening the path anew (two system calls fewer on the writer's turn:
    an open and a close); a file put at the path since is a different one (`_same_file`).

    Every read of the note here is whole (other_writers.py): a note another program is
    writing at the check is ChangedUnderUs (read again once it is written); the note we
    replaced, found being written or emptied after our rename, is not a version of theirs
    but the start of a save into it: it is looked at again once the writer lets go.
    """
    tmp = temp_path_for(path).name
    # The note we replace, held open from the check on: whatever an editor writes into it in
    # the instant before our rename lands in this file, not in ours, and we read it back.
    held: int | None = held_open
    held_size = 0
    checked = b""  # what the note held at the check: what we replaced, unless written since
    try:
        with folder_of(path, create=True) as (folder, name):
            try:
                ours = _write_new(folder, tmp, data)
                # Check as late as possible: the window between this check and the rename is
                # what remains of the race with an editor that does not take our lock.
                if must_not_exist and _lexists_in(folder, name):
                    raise ChangedUnderUs(path, "a file with this name appeared")
                if expected is not None:
                    now = None
                    if held is None:
                        opened = _open_existing(folder, name, path)
                        if opened is not None:
                            held, held_st = opened
                    else:
                        held_st = os.fstat(held)
                    if held is not None:
                        held_size = held_st.st_size
                        read = read_alone(held, size=held_size, offset=0)
                        if read is None:
                            raise ChangedUnderUs(path, "another program is writing it")
                        checked = read
                        now = stamp_of(checked, held_st)
                    if now != expected and (now is None or now.sha256 != expected.sha256):
                        raise ChangedUnderUs(path, "the file changed since it was read")
                    if held is not None and not _same_file(held_st, folder, name):
                        raise ChangedUnderUs(path, "the file was replaced since it was read")
                os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=folder)
                raise
    except BaseException as exc:
        if held is not None:
            os.close(held)
        if isinstance(exc, SymlinkedFolder):
            raise refused(path, exc) from None
        if isinstance(exc, OSError):
            raise write_failed(path, exc) from exc
        raise
    # The folder's fsync and the close of the replaced note (slow, both) leave the lock's
    # turn when the caller can wait for them (vault/durability.py); the close always can.
    if sync_later:
        DURABILITY.sync_folder(path.parent)
    else:
        _fsync_dir(path.parent)
    # Our file's stat from before the rename (a rename keeps its inode, size and mtime): a
    # stat of the path now could be of an editor's write made since, under our bytes' hash.
    written = stamp_of(data, ours, keep_st=True)
    if held is not None:
        look = None
        late = False
        try:
            replaced = read_alone(held, size=held_size, offset=0)
            if replaced is None or not replaced.strip():
                replaced = checked  # theirs is still to come: the looks will find it
            elif expected is not None:
                late = hashlib.sha256(replaced).hexdigest() != expected.sha256
            if on_late is not None:
                look = last_look(held, replaced, on_late)
        finally:
            DURABILITY.close_later(held, look)
        if late:
            raise LateWrite(path, replaced, written)
    return written


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC


def _write_new(folder: int, tmp: str, data: bytes) -> os.stat_result:
    """Write `data` to the new file `tmp` in `folder`, fsynced; its stat once written. A plain
    descriptor: a buffered file object costs three system calls more (fstat, ioctl, lseek)."""
    fd = os.open(tmp, _NEW_FILE, 0o666, dir_fd=folder)
    try:
        _write_all(fd, data)
        os.fsync(fd)
        return os.fstat(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _lexists_in(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def _open_existing(folder: int, name: str, path: Path) -> tuple[int, os.stat_result] | None:
    try:
        return _opened_regular(os.open(name, _READ, dir_fd=folder), path)
    except FileNotFoundError:
        return None
    except (NotRegularFile, IsADirectoryError):
        # It was a regular file when read: something replaced it since (re-read, refused).
        raise ChangedUnderUs(path, "the file was replaced since it was read") from None
    except OSError as exc:
        if exc.errno != errno.ELOOP:  # a symlink now
            raise
        raise ChangedUnderUs(path, "the file was replaced since it was read") from None


def _same_file(held: os.stat_result, folder: int, name: str) -> bool:
    try:
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False  # removed since: read again (and found gone)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def remove_file(path: Path) -> None:
    try:
        with folder_of(path) as (folder, name):
            os.unlink(name, dir_fd=folder)
    except FileNotFoundError:
        raise
    except SymlinkedFolder as exc:
        raise refused(path, exc) from None
    except OSError as exc:
        raise write_failed(path, exc) from exc
    _fsync_dir(path.parent)


def remove_if_present(path: Path) -> None:
    """`remove_file` of a file that may be gone already, its folder not fsynced."""
    try:
        with folder_of(path) as (folder, name):
            os.unlink(name, dir_fd=folder)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except SymlinkedFolder as exc:
        raise refused(path, exc) from None


def make_folder(path: Path) -> None:
    """The folder `path`, made with its missing parents (none through a symlink)."""
    try:
        with folder_of(path / "x", create=True):
            pass
    except SymlinkedFolder as exc:
        raise refused(path, exc) from None
    except OSError as exc:
        raise write_failed(path, exc) from exc


def write_new_unsynced(path: Path, data: bytes) -> bool:
    """Write a file that must not exist yet, atomically and not fsynced (the caller syncs a
    batch once): False if the name is taken.

    A hard link of a complete temp file cannot replace anything, so even an editor that does
    not take our lock cannot lose a file to us. Where links are not supported, a check just
    before the rename is the fallback.
    """
    tmp = temp_path_for(path).name
    try:
        with folder_of(path, create=True) as (folder, name):
            try:
                fd = os.open(tmp, _NEW_FILE, 0o666, dir_fd=folder)
                try:
                    _write_all(fd, data)
                finally:
                    os.close(fd)
                try:
                    os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
                except FileExistsError:
                    return False
                except OSError:
                    if _lexists_in(folder, name):
                        return False
                    os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
                return True
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp, dir_fd=folder)
    except SymlinkedFolder as exc:
        raise refused(path, exc) from None


def write_failed(path: Path, exc: OSError) -> WriteFailed:
    return WriteFailed(
        f"{path}: the file system refused the write ({exc.strerror or exc}); "
        "the note was left as it was"
    )


class ChangedUnderUs(VaultError):
    """Internal: the file changed between our read and our write; the caller re-reads."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path.name}: {reason}")
        self.path = path


class LateWrite(VaultError):
    """Internal: our write replaced the note, but someone wrote into the note we replaced in
    the instant before (an editor appending a line). `data` is what that note held at the
    end, their words included; `written` is the stamp of our file, now on disk."""

    def __init__(self, path: Path, data: bytes, written: FileStamp) -> None:
        super().__init__(f"{path.name}: written into just before our write replaced it")
        self.path = path
        self.data = data
        self.written = written
