"""A writer the crash scenario kills with SIGKILL: `python crash_writer.py VAULT LOG [CRASH_AT]`.

It saves, touches, garbage-collects and promotes in a loop, logging each operation to LOG
(fsynced) only once it returned, so the parent knows a lower bound of what happened.
With CRASH_AT it kills itself at one exact point of a two-step write instead:
  gc-before-commit  forget: every file deleted, the commit not made
  gc-mid-delete     forget: the first file deleted, the others not
  move-after-copy   promote: the new note written, the old one not removed
  before-rename     any write: the temp file complete, not yet renamed over the note
"""

from __future__ import annotations

import os
import random
import signal
import sys
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault import files, store

NOW = "2026-12-01T12:00:00Z"


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(crash_at: str) -> None:
    """Patch the one step after which the process dies."""
    from cortexgraph_vault.history import vault_history

    if crash_at == "gc-before-commit":
        real_commit = vault_history.VaultHistory.commit_paths

        def commit(self, paths, message):  # type: ignore[no-untyped-def]
            if message.startswith("gc: forget"):
                die()
            return real_commit(self, paths, message)

        vault_history.VaultHistory.commit_paths = commit  # type: ignore[method-assign]
    elif crash_at == "gc-mid-delete":
        real_set_aside = store.NoteStore.set_aside

        def set_aside(self, rel, aside, expected_sha256):  # type: ignore[no-untyped-def]
            real_set_aside(self, rel, aside, expected_sha256)
            die()

        store.NoteStore.set_aside = set_aside  # type: ignore[method-assign]
    elif crash_at == "move-after-copy":

        def remove(path: Path) -> None:
            die()

        store.remove_file = remove  # type: ignore[assignment]
    elif crash_at == "before-rename":
        real_replace = files.os.replace

        def replace(src, dst, **fds):  # type: ignore[no-untyped-def]
            if files.TEMP_MARK in str(src) and str(dst).endswith(".md"):
                die()
            real_replace(src, dst, **fds)

        files.os.replace = replace  # type: ignore[assignment]
    else:
        raise SystemExit(f"unknown crash point {crash_at}")


def main() -> None:
    vault, log_path = Path(sys.argv[1]), Path(sys.argv[2])
    crash_at = sys.argv[3] if len(sys.argv) > 3 else None
    service = MemoryService(load_config({"vault": str(vault), "now": NOW}))
    log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 - kept open until killed

    def done(line: str) -> None:
        log.write(line + "\n")
        log.flush()
        os.fsync(log.fileno())

    if crash_at:
        arm(crash_at)
        if crash_at.startswith("gc"):
            service.gc(dry_run=False)
        elif crash_at == "move-after-copy":
            service.promote(auto_detect=True)
        else:
            ids = [m.id for m in service.engine.fresh().memories() if m.id]
            service.touch(ids[0])
        raise SystemExit("the crash point was never reached")
    rng = random.Random(os.getpid())
    n = 0
    while True:
        ids = [m.id for m in service.engine.fresh().memories() if m.id and m.status != "archived"]
        roll = rng.random()
        if roll < 0.35 or not ids:
            saved = service.save(f"Crash writer {os.getpid()} saved note {n}, word{rng.random()}")
            done(f"save {saved.memory_id}")
        elif roll < 0.75:
            pick = rng.choice(ids)
            service.touch(pick)
            done(f"touch {pick}")
        elif roll < 0.9:
            result = service.gc(dry_run=False, limit=rng.randint(1, 4))
            done(f"gc {' '.join(result.memory_ids)}")
        else:
            result = service.promote(auto_detect=True)
            done(f"promote {' '.join(result.promoted_ids)}")
        n += 1


if __name__ == "__main__":
    main()
