"""CPU the file watcher spends per write of our own, in process (issue 16).

A service on a copy of the sample vault (in a git repository) with its watcher running makes
N touches, one after another as the daemon's change lane does; the watcher's threads (the
event reader: ours on Linux or watchdog's; and the worker that checks the paths) are timed
by their own CPU clocks (`time.pthread_getcpuclockid`), from before the first touch until the
watcher is quiet after the last. Printed: ms of watcher CPU per touch, split by thread kind,
and the events the watcher was handed.

    python -m bench.watcher_cpu [--touches 400] [--backend auto|watchdog]

`--backend watchdog` sets CORTEXGRAPH_WATCHER=watchdog: the watcher as it was (watchdog on
every platform), for a before/after on the same tree.
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
from pathlib import Path


def _kind(thread: threading.Thread) -> str | None:
    if thread.name == "cgv-watcher":
        return "worker"
    if thread.name == "cgv-inotify":
        return "reader"
    if type(thread).__module__.startswith("watchdog"):
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


def watcher_cpu(vault: Path, touches: int) -> dict[str, object]:
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
        events0, before = watcher.state.events, _thread_cpu()
        started = time.perf_counter()
        for _ in range(touches):
            service.touch(saved.memory_id)
        _quiet(watcher)
        wall = time.perf_counter() - started
        after = _thread_cpu()
        per = {k: round((after.get(k, 0.0) - before.get(k, 0.0)) * 1000 / touches, 4)
               for k in after}  # fmt: skip
        return {
            "backend": type(watcher.backend).__name__ if hasattr(watcher, "backend") else "?",
            "touches": touches,
            "watcher_cpu_ms_per_touch": round(sum(per.values()), 4),
            "by_thread_ms_per_touch": per,
            "events_per_touch": round((watcher.state.events - events0) / touches, 2),
            "wall_s": round(wall, 2),
        }
    finally:
        engine.stop_watcher()


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
    p.add_argument("--backend", choices=("auto", "watchdog"), default="auto")
    args = p.parse_args(argv)
    if args.backend == "watchdog":
        os.environ["CORTEXGRAPH_WATCHER"] = "watchdog"
    from bench.daemon_load import sample_vault

    work = Path(tempfile.mkdtemp(prefix="cgv-watcher-"))
    home = work / "home"
    home.mkdir()
    os.environ.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"),
                      XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))  # fmt: skip
    os.environ.update({k: "bench" for k in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME")})
    os.environ.update({k: "bench@example.org" for k in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL")})
    try:
        print(json.dumps(watcher_cpu(sample_vault(work / "vault"), args.touches)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
