"""A writer the crash scenario kills with SIGKILL: `python crash_writer.py VAULT LOG [CRASH_AT]`.

It saves, touches, garbage-collects and promotes in a loop, logging each operation to LOG
(fsynced) only once it returned, so the parent knows a lower bound of what happened.
With CRASH_AT it kills itself at one exact point of a two-step write instead:
  gc-before-commit  forget: every file deleted, the commit not made
  gc-mid-delete     forget: the first file deleted, the others not
  move-after-copy   promote: the new note written, the old one not removed
  before-rename     any write: the temp file complete, not yet renamed over the note
  save-before-commit         save: the note written, its commit not begun
  promote-before-commit      promote: every note moved, the commit not begun
  consolidate-before-commit  consolidate: merged note written, originals archived, no commit
  save-mid-commit            save: its path staged in git's index copy, HEAD not moved
  save-before-index          save: HEAD moved to its commit, git's index not yet brought up
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

# the tests' clock, from the test that runs this writer (tests/conftest.py NOW_ISO)
NOW = os.environ["TESTS_NOW"]


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
    elif crash_at.endswith("-before-commit"):
        subject = {"save": "save:", "promote": "promote:", "consolidate": "consolidate:"}
        wanted = subject[crash_at.partition("-")[0]]
        real_commit = vault_history.VaultHistory.commit_paths

        def commit(self, paths, message):  # type: ignore[no-untyped-def]
            if message.startswith(wanted):
                die()
            return real_commit(self, paths, message)

        vault_history.VaultHistory.commit_paths = commit  # type: ignore[method-assign]
    elif crash_at in ("save-mid-commit", "save-before-index"):
        from cortexgraph_vault.history import plumbing

        name = "_plumbed_commit" if crash_at == "save-mid-commit" else "_keep_in_step"
        real = getattr(plumbing, name)

        def step(*args, **kwargs):  # type: ignore[no-untyped-def]
            if name == "_keep_in_step" and args[3] == "HEAD":
                return real(*args, **kwargs)  # not the commit's own step
            die()

        setattr(plumbing, name, step)
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
        elif crash_at in ("move-after-copy", "promote-before-commit"):
            service.promote(auto_detect=True)
        elif crash_at.startswith("save"):
            service.save("Maya's passport expires in March, renew it in January.")
        elif crash_at.startswith("consolidate"):
            [cluster] = [c for c in service.cluster().clusters if c.suggested_action == "merge"]
            service.consolidate(cluster_id=cluster.id, mode="apply")
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
