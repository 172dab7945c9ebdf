"""A long-lived process (one that watches the vault) has its later threads allocate from one
heap: with a heap per thread, what readers beside a gc freed stayed in theirs (100k notes: the
warm peak). Counted by glibc itself (`malloc_stats` prints one line per heap)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from tests.builders import a_vault

PROBE = """
import ctypes, sys, threading
from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
service = MemoryService(load_config({"vault": sys.argv[1]}))
if sys.argv[2] == "watch":
    service.engine.start_watcher()
def work():  # a thread made afterwards, as a request's or a reader's
    kept = [bytearray(200_000) for _ in range(20)]
    del kept
thread = threading.Thread(target=work)
thread.start()
thread.join()
ctypes.CDLL("libc.so.6").malloc_stats()
service.engine.stop_watcher()
"""


def _heaps(vault: Path, mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(vault), mode],
        capture_output=True, text=True, env=dict(os.environ), check=True, timeout=120,
    )  # fmt: skip
    return sum(line.startswith("Arena ") for line in done.stderr.splitlines())


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's heaps (elsewhere: none)")
def test_threads_of_a_watching_process_share_one_heap(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", {"Notes/Tea.md": "A note about tea.\n"})
    assert _heaps(vault, "once") >= 2  # a one-call process: the thread has a heap of its own
    assert _heaps(vault, "watch") == 1
