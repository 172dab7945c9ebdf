"""Pausing Python's cyclic garbage collector while the index builds millions of objects,
and settling what a long-lived process built (`settle`).

Loading or building a 10k-note index creates objects faster than they die; the collector
would walk the growing heap again and again (three times slower, measured). Nothing built
then is garbage, so pausing it is safe. Nested and concurrent pauses are counted.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = True
_freeze_on_resume = False


def freeze_on_resume(on: bool) -> None:
    """For a process that makes one call and ends (a CLI command): what a pause built (the
    word index restored for a search: 50k objects at 10k notes) lives to the end, so it is
    frozen when the collector resumes rather than walked at once by a young collection that
    frees none of it. Never for a long-lived process: what it freezes is never freed."""
    global _freeze_on_resume
    _freeze_on_resume = on


@contextmanager
def gc_paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                if _freeze_on_resume:
                    gc.freeze()
                gc.enable()


# After this many changed paths taken in, what they built is worth settling: the collector's
# full walks of it stall every thread (the daemon's event loop answers nothing meanwhile).
SETTLE_AFTER = 1000


def settle() -> None:
    """After the watcher took in many notes: collect their garbage once while it is young
    (one short walk of what was made), then freeze what survived, as a big vault's index is
    frozen at start. Otherwise the collector walks those objects again in each full
    collection for as long as the process lives, stalling every thread each time. Frozen
    objects are still freed when nothing refers to them; only a cycle among them, once
    dropped, stays. Done even while another thread pauses the collector: one young walk
    costs that thread nothing but the time of it."""
    gc.collect(1)
    gc.freeze()
