"""This process's pid, kept in memory: `os.getpid()` is a system call (glibc caches it no
longer), and a change asks for it on its turn (temp file names, the kept lock file). A forked
child learns its own at the fork."""

from __future__ import annotations

import os

_pid = os.getpid()


def pid() -> int:
    return _pid


def _forked() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_forked)
