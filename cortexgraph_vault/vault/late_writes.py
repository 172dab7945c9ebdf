"""Later looks at a note we replaced, for words written into it after we read it back.

An editor that opened the note before our rename and writes after it writes into the file we
replaced, not into ours (fix 16 of RELIABILITY.md reads that file back just after the rename,
which catches a write made up to then). The descriptor we hold on the replaced file stays open
(on the durability thread, never on a writer's turn) and is looked at again every
`LATE_LOOK_SECONDS` for as long as someone still has the file open for writing — which Linux
tells us: a read lease is refused then (fcntl F_SETLEASE, EAGAIN) — up to `LATE_LOOK_LIMIT`.
Words found are handed, with what we saw before them, to the note's owner to merge into the
note as it is now (vault/store.py). Where leases are not to be had (another file system, a
file of another user), one look is made after the delay.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import threading
import time
from collections.abc import Callable

from cortexgraph_vault.vault.fd_reads import read_fd

log = logging.getLogger(__name__)

LATE_LOOK_SECONDS = 0.25
LATE_LOOK_LIMIT = 60.0
# (what we saw in the replaced note before, what it holds now)
KeepLateWords = Callable[[bytes, bytes], None]
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


def open_for_writing(fd: int) -> bool | None:
    """Whether any process has the file of `fd` (read-only) open for writing; None when the
    system will not say (no leases here)."""
    lease = getattr(fcntl, "F_SETLEASE", None)  # Linux only
    if lease is None:
        return None
    try:
        fcntl.fcntl(fd, lease, fcntl.F_RDLCK)
    except OSError as exc:
        return True if exc.errno == errno.EAGAIN else None
    fcntl.fcntl(fd, lease, fcntl.F_UNLCK)
    return False


def last_look(fd: int, replaced: bytes, keep: KeepLateWords) -> LastLook:
    """What to run before `fd` is closed: hand late words to `keep`, on a thread of its own
    (it takes the vault lock, which a writer waiting for the durability thread may hold)."""
    seen = [replaced]
    ends = time.monotonic() + LATE_LOOK_LIMIT
    merging: list[threading.Thread] = []

    def look() -> bool:
        # Asked first: a writer that lets go after the question wrote before it, so the read
        # below holds everything it wrote.
        writing = open_for_writing(fd)
        try:
            now = read_fd(fd, offset=0)
        except OSError as exc:
            log.warning("could not look again at a replaced note: %s", exc)
            return False
        if now != seen[0]:
            before = merging[-1] if merging else None

            def merge(old: bytes = seen[0], new: bytes = now) -> None:
                if before is not None:
                    before.join()  # one file's late words merged in the order written
                keep(old, new)

            # Not a daemon thread: a one-call process waits for it before it exits.
            keeper = threading.Thread(target=merge, name="cgv-late-words")
            _KEEPERS.add(keeper)
            merging[:] = [keeper]
            keeper.start()
            seen[0] = now
        return bool(writing) and time.monotonic() < ends

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
