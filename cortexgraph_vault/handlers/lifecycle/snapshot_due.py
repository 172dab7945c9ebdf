"""When the next snapshot of gathered touches is due, known without a system call.

Every touch asks whether a snapshot is due (handlers/lifecycle/gc_and_promotion.py `maybe_snapshot`): a stat of
the stamp file every process on the vault shares, of the vault's `.git`, and the vault's real
path for the stamp's name, eight system calls on the change's turn, each a hand-over of the
interpreter to a reader thread. The stamp's mtime only ever moves forward (any process
touches it when it snapshots), so once it was read, no snapshot is due before that mtime
plus the interval: until then the answer is known here.
"""

from __future__ import annotations

import functools
import threading
import time
from pathlib import Path

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.vault.lock import vault_key

_due: dict[Path, float] = {}  # stamp file → wall-clock time before which none is due
_lock = threading.Lock()


def stamp_file(root: Path) -> Path:
    """The stamp of the last snapshot of the vault at `root` (outside the vault)."""
    return _stamp_file(str(user_cache_dir()), str(root))


@functools.lru_cache(maxsize=64)
def _stamp_file(cache_dir: str, root: str) -> Path:
    return Path(cache_dir) / "snapshots" / f"{vault_key(Path(root))}.stamp"


def not_due_yet(stamp: Path) -> bool:
    """True when a look at `stamp` made earlier says no snapshot can be due now."""
    with _lock:
        return time.time() < _due.get(stamp, 0.0)


def looked(stamp: Path, last: float, interval: float) -> None:
    """`stamp` was read (or touched) with mtime `last`: none is due before last + interval."""
    with _lock:
        _due[stamp] = max(_due.get(stamp, 0.0), last + interval)
