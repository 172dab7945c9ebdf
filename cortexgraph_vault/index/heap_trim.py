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
_looked = False


def give_back_freed_memory() -> None:
    global _trim, _looked
    if not _looked:
        _looked = True
        if sys.platform.startswith("linux"):
            import ctypes

            try:  # glibc only (musl has none)
                _trim = ctypes.CDLL("libc.so.6").malloc_trim
            except (OSError, AttributeError):
                _trim = None
    if _trim is not None:
        _trim(0)
