"""A cross-process lock around read-modify-write of the vault.

`flock` on a file outside the vault (vaults are synced; a lock file there would travel).
The kernel drops the lock when its holder dies, so a crash never leaves a stale lock.
Re-entrant within a process, so a service operation can call another under the same lock.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cortexgraph_vault.errors import LockTimeout


def vault_key(root: Path) -> str:
    return hashlib.sha256(os.path.realpath(root).encode()).hexdigest()[:16]


def held_elsewhere(path: Path) -> bool:
    """Whether another open file holds an flock on `path` (a live vault lock or daemon claim).

    False when the file cannot be opened: a holder that died left nothing held.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def flock_within(
    fd: int, seconds: float, *, first_delay: float = 0.002, max_delay: float = 0.05
) -> bool:
    """Take an exclusive flock on `fd`, waiting up to `seconds`; False if it stayed held."""
    deadline = time.monotonic() + seconds
    delay = first_delay
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, max_delay)


class VaultLock:
    def __init__(self, root: Path, lock_dir: Path, *, timeout: float = 30.0) -> None:
        lock_dir.mkdir(parents=True, exist_ok=True)
        self.path = lock_dir / f"{vault_key(root)}.lock"
        self.root = root
        self.timeout = timeout
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None
        # The lock file stays open between holds (opening and closing it for each change
        # were two system calls on the change's turn): (pid, fd, device, inode) it was opened as.
        self._kept: tuple[int, int, int, int] | None = None

    @contextmanager
    def held(self, timeout: float | None = None) -> Iterator[None]:
        with self._thread_lock:
            if self._depth == 0:
                self._acquire(self.timeout if timeout is None else timeout)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._release()

    def _acquire(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            fd = self._open()
            if not flock_within(fd, max(0.0, deadline - time.monotonic())):
                raise LockTimeout(
                    f"{self.root}: another cortexgraph-vault process has held the vault lock "
                    f"for more than {timeout:g} s ({self.path}); try again"
                )
            # Locked, but is it still the file others lock? One removed or replaced since it
            # was opened (a cleared cache folder) locks nothing: open the path anew.
            assert self._kept is not None
            try:
                now = os.stat(self.path)
                same = (now.st_dev, now.st_ino) == self._kept[2:]
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                return
            fcntl.flock(fd, fcntl.LOCK_UN)
            self._forget_kept()

    def _open(self) -> int:
        """The lock file's descriptor, opened once per process (a forked child opens its own:
        one shared with the parent would share its lock)."""
        if self._kept is not None and self._kept[0] == os.getpid():
            return self._kept[1]
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        st = os.fstat(fd)
        self._kept = (os.getpid(), fd, st.st_dev, st.st_ino)
        self._closer = weakref.finalize(self, os.close, fd)  # a dropped engine's lock file
        return fd

    def _forget_kept(self) -> None:
        if self._kept is not None and self._kept[0] == os.getpid():
            self._closer()
        self._kept = None

    def _release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._fd = None
