"""CPU the file watcher spends per write of ours and per edit of another program, in process.

A service on a copy of the sample vault (in a git repository) with its watcher running makes
touches one after another as the daemon's change lane does, then saves (a new note and a git
commit each), then edits of a note written in place as another editor saves it, each after
the watcher's debounce (a batch each). The watcher's threads (watchdog's, which read and hand
on the events; and the worker that checks the paths) are timed by their own CPU clocks
(`time.pthread_getcpuclockid`), from before the first write until the watcher is quiet after
the last. Printed: ms of watcher CPU per touch, save and edit, split by thread kind, and the
events the watcher was handed.

    python -m bench.watcher_cpu [--touches 400] [--saves 100] [--edits 100] [--whole-root]

`--whole-root` watches the root recursively, `.git/` included, as past `MAX_FOLDERS` folders
at the top: what watching the vault's folders alone saves.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _kind(thread: threading.Thread) -> str | None:
    if thread.name == "cgv-watcher":
        return "worker"
    # watchdog's reader of the inotify descriptor hands raw buffers to a plain thread of its own
    if type(thread).__module__.startswith("watchdog") or thread.name.startswith("InotifyFD"):
        return "watchdog"
    return None


def _thread_cpu() -> dict[str, float]:
    """CPU seconds so far of each live watcher thread, by kind."""
    out: dict[str, float] = {}
    for thread in threading.enumerate():
        kind = _kind(thread)
        if kind is None or thread.ident is None:
            continue
        try:
            clock = time.pthread_getcpuclockid(thread.ident)
            spent = time.clock_gettime(clock)
        except OSError:  # ended meanwhile
            continue
        out[kind] = out.get(kind, 0.0) + spent
    return out


def watcher_cpu(vault: Path, touches: int, edits: int, saves: int) -> dict[str, object]:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    service = MemoryService(load_config({"vault": str(vault)}))
    engine = service.engine
    engine.start_watcher()
    watcher = engine.watcher
    assert watcher is not None
    try:
        saved = service.save("The watcher bench's memory about kettles.", tags=["bench"])
        for _ in range(20):  # warm: imports, first commit, first batch
            service.touch(saved.memory_id)
        _quiet(watcher)
        out: dict[str, object] = {"touches": touches, "edits": edits, "saves": saves}
        out.update(_spent(watcher, "touch", touches, lambda _: service.touch(saved.memory_id)))

        def save(i: int) -> None:  # a new note and its git commit
            service.save(f"The watcher bench's memory {i} about kettles.", tags=["bench"])

        out.update(_spent(watcher, "save", saves, save))
        note = sorted(p for p in vault.glob("Projects/*.md"))[0]
        text = note.read_text(encoding="utf-8")

        def edit(i: int) -> None:  # as another editor saves: the note itself rewritten
            note.write_text(f"{text}\nEdited {i}.\n", encoding="utf-8")
            time.sleep(EDIT_GAP)

        out.update(_spent(watcher, "edit", edits, edit))
        return out
    finally:
        engine.stop_watcher()


# Past the watcher's debounce: each edit is a batch of its own, as a person's saves are.
EDIT_GAP = 0.1


def _spent(watcher: Any, what: str, n: int, act: Callable[[int], object]) -> dict[str, object]:
    """The watcher threads' CPU per act, by thread kind, while `act` runs n times."""
    events0, before = watcher.state.events, _thread_cpu()
    started = time.perf_counter()
    for i in range(n):
        act(i)
    _quiet(watcher)
    wall = time.perf_counter() - started
    after = _thread_cpu()
    per = {k: round((after.get(k, 0.0) - before.get(k, 0.0)) * 1000 / n, 4) for k in after}
    return {
        f"watcher_cpu_ms_per_{what}": round(sum(per.values()), 4),
        f"by_thread_ms_per_{what}": per,
        f"events_per_{what}": round((watcher.state.events - events0) / n, 2),
        f"{what}_wall_s": round(wall, 2),
    }


def _quiet(watcher: object, settle: float = 0.6) -> None:
    """Until nothing is pending and no event came for `settle` seconds."""
    state = watcher.state  # type: ignore[attr-defined]
    last, since = -1, time.monotonic()
    while True:
        time.sleep(0.05)
        if state.events != last or watcher.pending():  # type: ignore[attr-defined]
            last, since = state.events, time.monotonic()
        elif time.monotonic() - since >= settle:
            return


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.watcher_cpu")
    p.add_argument("--touches", type=int, default=400)
    p.add_argument("--edits", type=int, default=100)
    p.add_argument("--saves", type=int, default=100)
    p.add_argument(
        "--whole-root",
        action="store_true",
        help="watch the vault's root recursively, .git/ too, instead of its folders",
    )
    args = p.parse_args(argv)
    if args.whole_root:
        from cortexgraph_vault.index import folder_watches

        folder_watches.MAX_FOLDERS = -1
    from bench.daemon_load import sample_vault

    work = Path(tempfile.mkdtemp(prefix="cgv-watcher-"))
    home = work / "home"
    home.mkdir()
    os.environ.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"),
                      XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))  # fmt: skip
    os.environ.update({k: "bench" for k in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME")})
    os.environ.update({k: "bench@example.org" for k in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL")})
    try:
        print(
            json.dumps(
                watcher_cpu(sample_vault(work / "vault"), args.touches, args.edits, args.saves)
            )
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
