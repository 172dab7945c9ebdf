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
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if not flock_within(fd, timeout):
            os.close(fd)
            raise LockTimeout(
                f"{self.root}: another cortexgraph-vault process has held the vault lock "
                f"for more than {timeout:g} s ({self.path}); try again"
            )
        self._fd = fd

    def _release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # and with it the lock
            self._fd = None
