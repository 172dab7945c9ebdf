"""Freed memory handed back to the system after a burst of short-lived objects.

Parsing, embedding or writing the cache of many notes makes millions of short-lived objects
among the long-lived ones the index keeps. The C allocator keeps the holes they leave for
later use, and the process holds that memory from then on: 100k notes, 40-50 MB after the
parse and again after the embedding. glibc's `malloc_trim` gives the free pages back (a few
milliseconds); elsewhere this does nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_mallopt: Callable[[int, int], int] | None = None
_looked = False
_one_heap = False
M_ARENA_MAX = -8  # glibc's mallopt parameter number


def _look() -> None:
    global _trim, _mallopt, _looked
    if not _looked:
        _looked = True
        if sys.platform.startswith("linux"):
            import ctypes

            try:  # glibc only (musl has none)
                libc = ctypes.CDLL("libc.so.6")
                _trim, _mallopt = libc.malloc_trim, libc.mallopt
            except (OSError, AttributeError):
                _trim = _mallopt = None


def give_back_freed_memory() -> None:
    _look()
    if _trim is not None:
        _trim(0)


def one_heap() -> None:
    """Every thread of the process allocates from one heap. glibc gives each thread that
    meets another in the allocator a heap of its own, and what a thread frees stays in its
    heap for its own later use: readers beside a gc (each building the tables of a new
    state) and the watcher held tens of megabytes each at 100k notes (the warm peak). The
    interpreter lock already serialises most allocations, so little waits on the one heap.
    A thread that has a heap keeps it: threads made before the call (a cold start's
    embedding, whose tokenizer threads allocate at once and would wait on one heap: 100k
    notes' vectors took a third longer) are left as they are."""
    global _one_heap
    _look()
    if _mallopt is not None and not _one_heap:
        _one_heap = True
        _mallopt(M_ARENA_MAX, 1)
