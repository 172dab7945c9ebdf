"""A touch made as a call of its own lets go of the locks while its temp file is fsynced
(vault/disk_wait.py): a touch of another note runs meanwhile, a touch of the same note waits
for it (and is not made twice), and a touch within a call holding other locks keeps them."""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.service import MemoryService
from tests.mcp.mcp_session import service_for

WAIT = 60.0  # bounds a failure only
HELD = "held-touch"


class HeldFsync:
    """os.fsync, held on the thread named HELD until released; counts fsyncs per thread."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.inner = os.fsync
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls: Counter[str] = Counter()
        monkeypatch.setattr(os, "fsync", self)

    def __call__(self, fd: int) -> None:
        name = threading.current_thread().name
        self.calls[name] += 1
        if name == HELD:
            self.started.set()
            assert self.release.wait(WAIT)
        self.inner(fd)


def _touch_on_thread(
    service: MemoryService, name: str, ref: str, out: list[Any]
) -> threading.Thread:
    thread = threading.Thread(
        target=lambda: out.append(service.touch(ref)),  # a call of its own
        name=name,
    )
    thread.start()
    return thread


def _use_count(vault: Path, rel: str) -> int:
    return int(parse_note((vault / rel).read_text(encoding="utf-8")).frontmatter["use_count"])


def test_a_touch_of_another_note_runs_while_a_touch_waits_for_its_fsync(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(sample_vault)
    first, second = [m for m in service.engine.catalog.memories() if m.id][:2]
    held = HeldFsync(monkeypatch)
    answers: list[Any] = []
    waiting = _touch_on_thread(service, HELD, first.id or "", answers)
    assert held.started.wait(WAIT)
    other = _touch_on_thread(service, "other-touch", second.id or "", answers)
    other.join(WAIT)
    assert not other.is_alive() and [a.use_count for a in answers] == [second.use_count + 1]
    assert waiting.is_alive()  # still in its fsync: its note not replaced yet
    assert _use_count(sample_vault, first.path) == first.use_count
    held.release.set()
    waiting.join(WAIT)
    assert answers[1].use_count == first.use_count + 1
    assert _use_count(sample_vault, first.path) == first.use_count + 1
    assert _use_count(sample_vault, second.path) == second.use_count + 1
    indexed = service.engine.catalog.note(first.path)
    assert indexed is not None and indexed.memory is not None
    assert indexed.memory.use_count == first.use_count + 1


def test_a_second_touch_of_the_same_note_waits_for_the_first_and_is_written_once(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(sample_vault)
    memory = next(m for m in service.engine.catalog.memories() if m.id)
    held = HeldFsync(monkeypatch)
    answers: list[Any] = []
    waiting = _touch_on_thread(service, HELD, memory.id or "", answers)
    assert held.started.wait(WAIT)
    second = _touch_on_thread(service, "same-note", memory.id or "", answers)
    second.join(0.5)
    assert second.is_alive() and answers == []  # waits for the note's turn
    held.release.set()
    waiting.join(WAIT)
    second.join(WAIT)
    assert sorted(a.use_count for a in answers) == [memory.use_count + 1, memory.use_count + 2]
    assert _use_count(sample_vault, memory.path) == memory.use_count + 2
    # each wrote its temp file once: the second never started over
    assert held.calls[HELD] == 1 and held.calls["same-note"] == 1


def test_a_touch_within_a_call_holding_the_vault_lock_keeps_its_locks(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(sample_vault)
    first, second = [m for m in service.engine.catalog.memories() if m.id][:2]
    held = HeldFsync(monkeypatch)
    answers: list[Any] = []

    def outer() -> None:
        with service.engine.lock.held():  # as a recall that checks, then reinforces
            answers.append(service.touch(first.id or ""))

    waiting = threading.Thread(target=lambda: service.call("test.outer", False, outer), name=HELD)
    waiting.start()
    assert held.started.wait(WAIT)
    other = _touch_on_thread(service, "other-touch", second.id or "", answers)
    other.join(0.5)
    assert other.is_alive() and answers == []  # the outer call still holds the locks
    held.release.set()
    waiting.join(WAIT)
    other.join(WAIT)
    assert [a.use_count for a in answers] == [first.use_count + 1, second.use_count + 1]
