"""Later looks at a note we replaced, for words written into it after we read it back.

An editor that opened the note before our rename and writes after it writes into the file we
replaced, not into ours (fix 16 of RELIABILITY.md reads that file back just after the rename,
which catches a write made up to then). The descriptor we hold on the replaced file stays open
(on the durability thread, never on a writer's turn) and is looked at again every
`LATE_LOOK_SECONDS` for as long as someone still has the file open for writing — which Linux
tells us: a read lease is refused then (other_writers.py) — up to `LATE_LOOK_LIMIT`. A version
is read only once nobody writes it: an editor saving in place has truncated the file and not
yet written its buffer meanwhile, and that empty or partial file is not what it saved. Words
found are handed, with what we saw before them, to the note's owner to merge into the note as
it is now (vault/store.py). Where leases are not to be had (another file system, a file of
another user), one look is made after the delay. An empty version is never handed on: it
holds no words to keep, and it is what an in-place save looks like before its write.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from cortexgraph_vault.vault.fd_reads import read_fd
from cortexgraph_vault.vault.other_writers import read_alone

log = logging.getLogger(__name__)

LATE_LOOK_SECONDS = 0.25
LATE_LOOK_LIMIT = 60.0
# (what we saw in the replaced note before, what it holds now, whether that was read with no
# writer left: False when one still held it open at LATE_LOOK_LIMIT)
KeepLateWords = Callable[[bytes, bytes, bool], None]
# Run before the descriptor is closed; True: look again later, someone may still write.
LastLook = Callable[[], bool]


def merged_late(replaced: bytes, current: bytes, late: bytes) -> tuple[bytes, str | None]:
    """The note with the late words in (pure): an append (the usual late write, and many at
    once never clash) is appended to the note as it is now; anything else is merged as two
    devices' versions are. The second value says what a person should know, if anything."""
    if late.startswith(replaced):
        return current + late[len(replaced) :], None
    # Rarely needed, and a one-call process should not import the merge for nothing.
    from cortexgraph_vault.core.note_merge import merge_versions

    merged = merge_versions(replaced, current, late)
    return merged.result, merged.report


def last_look(fd: int, replaced: bytes, keep: KeepLateWords) -> LastLook:
    """What to run before `fd` is closed: hand late words to `keep`, on a thread of its own
    (it takes the vault lock, which a writer waiting for the durability thread may hold)."""
    seen = [replaced]
    ends = time.monotonic() + LATE_LOOK_LIMIT
    merging: list[threading.Thread] = []

    def look() -> bool:
        # Read under a lease: nobody writes while it is held, and nobody can once it was
        # granted (the file is no longer at any path). Refused, someone still writes.
        last = time.monotonic() >= ends
        try:
            now = read_alone(fd, offset=0)
            settled = now is not None
            if now is None:
                if not last:
                    return True
                now = read_fd(fd, offset=0)
        except OSError as exc:
            log.warning("could not look again at a replaced note: %s", exc)
            return False
        if now != seen[0] and now.strip():
            before = merging[-1] if merging else None

            def merge(old: bytes = seen[0], new: bytes = now) -> None:
                try:
                    if before is not None:
                        before.join()  # one file's late words merged in the order written
                    keep(old, new, settled)
                finally:  # a daemon runs for weeks: a finished merge is not kept
                    _KEEPERS.discard(threading.current_thread())

            # Not a daemon thread: a one-call process waits for it before it exits.
            keeper = threading.Thread(target=merge, name="cgv-late-words")
            _KEEPERS.add(keeper)
            merging[:] = [keeper]
            keeper.start()
            seen[0] = now
        return False

    return look


_KEEPERS: set[threading.Thread] = set()


def wait_for_keepers(timeout: float) -> bool:
    """Whether every merge of late words started so far has ended within `timeout`."""
    ends = time.monotonic() + timeout
    for keeper in list(_KEEPERS):
        keeper.join(max(0.0, ends - time.monotonic()))
        if keeper.is_alive():
            return False
        _KEEPERS.discard(keeper)
    return True
