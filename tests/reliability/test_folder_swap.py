"""A vault folder swapped, again and again, with a symlink to a folder outside the vault while
the memory inside it is used and read: nothing outside is written, no temp file is left
there, no read returns its text, and every refusal is a clear one (never a 500).

`_stm/sub/Race.md` is the memory; `_stm/subx` is a symlink to `outside/`, which holds a
`Race.md` with the same id. One thread exchanges the two names (renameat2 RENAME_EXCHANGE)
as fast as it can; at any instant `_stm/sub` is the vault's folder or the link. A check of a
path followed by an open of it by name can be cut in two by the swap; only a walk from the
vault root that follows no symlink (vault/anchored.py) holds.
"""

from __future__ import annotations

import ctypes
import hashlib
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from cortexgraph_vault.errors import VaultError
from tests.api.daemon_process import start_daemon
from tests.builders import a_vault, memory_text, service_for

SWAP_SECONDS, SOAK_SWAP_SECONDS = 3.0, 20.0
MEMORY_ID = "00000000-0000-4000-8000-00000000race"
INSIDE = "Inside words of the race memory.\n"
OUTSIDE = "OUTSIDE-SECRET text that must never be read or written.\n"

pytestmark = pytest.mark.skipif(
    not hasattr(ctypes.CDLL(None), "renameat2"), reason="needs Linux renameat2"
)


# The swapping runs in a process of its own, as an attacker's would: a thread of the test
# process would take the interpreter from the threads it races.
SWAPPER = """
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, seconds = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), float(sys.argv[3])
swaps, ends = 0, time.monotonic() + seconds
while time.monotonic() < ends or swaps % 2:
    if libc.renameat2(-100, a, -100, b, 2):
        sys.exit(f"renameat2: {os.strerror(ctypes.get_errno())}")
    swaps += 1
print(swaps)
"""


def race_vault(tmp_path: Path) -> tuple[Path, Path]:
    """(vault, outside folder): `_stm/sub/Race.md` inside, `_stm/subx` → outside/Race.md."""
    vault = a_vault(
        tmp_path / "vault",
        {"_stm/sub/Race.md": memory_text(MEMORY_ID, INSIDE)},
        git_init=True,
    )
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Race.md").write_text(memory_text(MEMORY_ID, OUTSIDE, use_count=100))
    (vault / "_stm" / "subx").symlink_to(outside, target_is_directory=True)
    return vault, outside


def fingerprint(folder: Path) -> dict[str, str]:
    """Every name in `folder` (hidden ones too) with the hash of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def swap_while(vault: Path, seconds: float, work: Callable[[threading.Event], None]) -> int:
    """Exchange `_stm/sub` and `_stm/subx` for `seconds` while `work` runs in two threads
    (each given the stop event); the names end as they began. Returns the number of swaps."""
    sub, subx = vault / "_stm" / "sub", vault / "_stm" / "subx"
    stop = threading.Event()
    workers = [threading.Thread(target=work, args=(stop,)) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        swapper = subprocess.run(
            [sys.executable, "-c", SWAPPER, str(sub), str(subx), str(seconds)],
            capture_output=True, text=True, timeout=seconds + 60, check=False,
        )  # fmt: skip
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    assert swapper.returncode == 0, swapper.stderr
    assert not sub.is_symlink() and subx.is_symlink()
    return int(swapper.stdout)


def check_outside_untouched(outside: Path, before: dict[str, str], vault: Path) -> None:
    assert fingerprint(outside) == before, "a file outside the vault was written or created"
    note = (vault / "_stm" / "sub" / "Race.md").read_text()
    assert "OUTSIDE-SECRET" not in note and INSIDE in note


def test_a_folder_swapped_with_a_symlink_leaks_nothing_through_the_service(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    vault, outside = race_vault(tmp_path)
    before = fingerprint(outside)
    service = service_for(vault)
    outcomes: Counter[str] = Counter()
    leaks: list[str] = []
    crashes: list[str] = []
    lock = threading.Lock()

    def work(stop: threading.Event) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                if n % 2:
                    service.touch(MEMORY_ID)
                    what = "touched"
                else:
                    text = service.read_note(MEMORY_ID).body
                    if "OUTSIDE-SECRET" in text:
                        leaks.append(text[:200])
                    what = "read"
            except VaultError as exc:
                what = type(exc).__name__
            except Exception as exc:  # an unexpected one: the test fails on it
                what = "crash"
                crashes.append(f"{type(exc).__name__}: {exc}")
            with lock:
                outcomes[what] += 1

    swaps = swap_while(vault, SOAK_SWAP_SECONDS if soak else SWAP_SECONDS, work)
    figures.update(swaps=swaps, outcomes=dict(outcomes), leaks=len(leaks), crashes=len(crashes))
    assert crashes == [], crashes[:5]
    assert leaks == [], leaks[:3]
    check_outside_untouched(outside, before, vault)
    assert outcomes["touched"] > 0  # the memory was used while the folder was its own


def found_again(client: httpx.Client) -> tuple[httpx.Response, int]:
    """The memory asked for until the daemon's watcher has taken in the folder's last swap back
    (its events come after the swapper ends, later on a busy machine): (last answer, asks)."""
    for asked in range(1, 301):
        answer = client.get(f"/api/v1/memories/{MEMORY_ID}")
        if answer.status_code != 404:
            return answer, asked
        time.sleep(0.1)
    return answer, asked


def test_a_folder_swapped_with_a_symlink_leaks_nothing_over_rest(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    vault, outside = race_vault(tmp_path)
    before = fingerprint(outside)
    daemon = start_daemon(tmp_path / "home", vault)
    answers: Counter[int] = Counter()
    leaks: list[str] = []
    failures: list[str] = []
    lock = threading.Lock()

    def work(stop: threading.Event) -> None:
        client = daemon.client()
        n = 0
        while not stop.is_set():
            n += 1
            try:
                if n % 3 == 0:
                    answer = client.post(f"/api/v1/memories/{MEMORY_ID}/touch")
                elif n % 3 == 1:
                    answer = client.get(f"/api/v1/memories/{MEMORY_ID}")
                else:
                    answer = client.get("/api/v1/notes/read", params={"ref": MEMORY_ID})
            except httpx.TransportError as exc:
                failures.append(f"connection: {exc}")
                continue
            if answer.status_code >= 500:
                failures.append(f"{answer.status_code}: {answer.text[:300]}")
            if "OUTSIDE-SECRET" in answer.text:
                leaks.append(answer.text[:200])
            with lock:
                answers[answer.status_code] += 1

    try:
        swaps = swap_while(vault, SOAK_SWAP_SECONDS if soak else SWAP_SECONDS, work)
        final, asked = found_again(daemon.client())
    finally:
        daemon.stop()
    figures.update(
        swaps=swaps, answers=dict(answers), leaks=len(leaks), failures=len(failures),
        asked_until_found=asked,
    )  # fmt: skip
    assert failures == [], failures[:5]
    assert leaks == [], leaks[:3]
    assert final.status_code == 200 and "OUTSIDE-SECRET" not in final.text
    check_outside_untouched(outside, before, vault)
    assert "Traceback" not in daemon.err, daemon.err[-3000:]
