"""Scenario 2 — crashes: a writer killed with SIGKILL, at exact points of two-step writes and at
random moments while it saves, touches, collects and promotes.

After every kill each note parses and no temp file is visible as a note; the next start takes
the lock at once (the kernel dropped the dead writer's flock), sweeps the dead writer's hidden
temp files, and finishes or undoes a half-done forget or move from the write journal, so no
memory is lost: each is in the vault exactly once, or forgotten in a git commit that can
restore it.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config, user_cache_dir
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault.lock import VaultLock
from tests.conftest import NOW_ISO, scenario_size
from tests.reliability.vault_audit import (
    child_env,
    memories_on_disk,
    memory_vault,
    temp_files,
    unreadable_notes,
)

WRITER = Path(__file__).with_name("crash_writer.py")
# Kills: 10 in CI, 4 in a person's run (tests/conftest.py `scenario_size`), 60 with --soak.
ROUNDS, SOAK_ROUNDS = scenario_size(10, 4), 60


def run_writer(vault: Path, log: Path, crash_at: str | None = None) -> subprocess.Popen[bytes]:
    argv = [sys.executable, str(WRITER), str(vault), str(log), *([crash_at] if crash_at else [])]
    return subprocess.Popen(argv, env={**child_env(), "TESTS_NOW": NOW_ISO}, stderr=subprocess.PIPE)


def next_start(vault: Path) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))


def lock_is_free(vault: Path) -> bool:
    lock = VaultLock(vault.resolve(), user_cache_dir() / "locks", timeout=1.0)
    with lock.held():
        return True


def check_nothing_lost(vault: Path, service: MemoryService, ids: set[str]) -> dict[str, list[str]]:
    on_disk = memories_on_disk(vault)
    forgotten = {f.id for f in service.forgotten(limit=500).forgotten}
    return {
        "missing": sorted(ids - set(on_disk) - forgotten),
        "twice": sorted(
            f"{mid}: {[p for p, _ in found]}" for mid, found in on_disk.items() if len(found) > 1
        ),
        "unreadable": unreadable_notes(vault),
        "temp files": temp_files(vault),
    }


@pytest.mark.parametrize(
    "crash_at", ["gc-before-commit", "gc-mid-delete", "move-after-copy", "before-rename"]
)
def test_a_writer_killed_inside_a_two_step_write_is_repaired_at_the_next_start(
    tmp_path: Path, crash_at: str
) -> None:
    vault = tmp_path / "vault"
    id_paths = memory_vault(vault, 3, faded=4, promotable=2)
    faded = sorted(id_paths)[3:7]
    promotable = sorted(id_paths)[7:]
    before = {p: (vault / p).read_bytes() for p in id_paths.values()}

    writer = run_writer(vault, tmp_path / "log", crash_at)
    _, err = writer.communicate(timeout=120)
    assert writer.returncode == -signal.SIGKILL, err.decode()[-2000:]
    assert unreadable_notes(vault) == []
    assert lock_is_free(vault)

    service = next_start(vault)
    lost = check_nothing_lost(vault, service, set(id_paths))
    assert not any(lost.values()), lost
    on_disk = memories_on_disk(vault)
    if crash_at.startswith("gc"):
        # Completed: the forget the writer chose is committed, and each one can come back.
        assert {f.id for f in service.forgotten().forgotten} == set(faded)
        assert not set(faded) & set(on_disk)
        restored = service.restore(faded[0])
        assert (vault / restored.path).is_file()
    elif crash_at == "move-after-copy":
        # Completed: the promoted memory is in memories/ once, its _stm/ copy gone.
        moved = [p for p, _ in on_disk[promotable[0]]]
        assert len(moved) == 1 and moved[0].startswith("memories/"), moved
    else:
        # Nothing happened: the note is as it was, the hidden temp file swept.
        assert {p: (vault / p).read_bytes() for p in id_paths.values()} == before
    assert service.touch(sorted(on_disk)[0]).use_count >= 2  # the next writer writes


def test_a_writer_killed_again_and_again_loses_no_memory(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    vault = tmp_path / "vault"
    id_paths = memory_vault(vault, 10, faded=25, promotable=10)
    start_counts = {mid: found[0][1]["use_count"] for mid, found in memories_on_disk(vault).items()}
    rounds = SOAK_ROUNDS if soak else ROUNDS
    rng = random.Random(20261201)
    log = tmp_path / "log"
    for _ in range(rounds):
        writer = run_writer(vault, log)
        # A start takes about a second here; kill anywhere from its start to deep in its loop.
        time.sleep(rng.uniform(0.8, 3.5))
        writer.send_signal(signal.SIGKILL)
        _, err = writer.communicate(timeout=60)
        assert writer.returncode == -signal.SIGKILL, err.decode()[-2000:]
        assert unreadable_notes(vault) == []
        assert lock_is_free(vault)

    # A writer opens its log after its imports: on a busy machine every kill may come first.
    entries = [line.split() for line in log.read_text().splitlines()] if log.exists() else []
    ops = Counter(e[0] for e in entries)
    saved = {e[1] for e in entries if e[0] == "save"}
    touched = Counter(e[1] for e in entries if e[0] == "touch")
    service = next_start(vault)
    lost = check_nothing_lost(vault, service, set(id_paths) | saved)
    assert not any(lost.values()), lost
    # Each logged touch is in use_count; at most one unlogged one per kill (done, then killed).
    counts = {mid: found[0][1]["use_count"] for mid, found in memories_on_disk(vault).items()}
    short = {m: (counts[m], start_counts.get(m, 1) + touched[m]) for m in counts
             if counts[m] < start_counts.get(m, 1) + touched[m]}  # fmt: skip
    assert not short, f"uses lost (id: (on disk, logged)): {short}"
    extra = sum(counts[m] - start_counts.get(m, 1) - touched[m] for m in counts)
    assert extra <= rounds
    figures.update(
        kills=rounds, operations_logged=len(entries), by_kind=dict(ops),
        memories=len(set(id_paths) | saved), forgotten=service.forgotten(limit=500).count,
        lost=0,
    )  # fmt: skip


def test_an_interrupted_move_whose_old_note_was_edited_since_is_undone(tmp_path: Path) -> None:
    """Killed mid-promotion, then the person typed into the old note before the next start:
    their note stays where they typed, and the half-made copy goes."""
    vault = tmp_path / "vault"
    id_paths = memory_vault(vault, 1, promotable=1)
    promotable = sorted(id_paths)[1]
    writer = run_writer(vault, tmp_path / "log", "move-after-copy")
    writer.communicate(timeout=120)
    assert writer.returncode == -signal.SIGKILL
    old = vault / id_paths[promotable]
    with old.open("a", encoding="utf-8") as note:
        note.write("Typed after the crash.\n")
    service = next_start(vault)
    assert [p for p, _ in memories_on_disk(vault)[promotable]] == [id_paths[promotable]]
    assert old.read_text(encoding="utf-8").endswith("Typed after the crash.\n")
    assert not (vault / "memories").exists() or not list((vault / "memories").iterdir())
    assert service.open([promotable]).memories[0].path == id_paths[promotable]
