"""A door's write is answered only once its folder is fsynced, and that fsync is made after
the change lock is let go (vault/durability.py); elsewhere it is made at once, as before."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.handlers.writes import writes
from cortexgraph_vault.models import TouchResult
from cortexgraph_vault.requests.memories import TouchMemoryRequest
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault import durability
from tests.mcp.mcp_session import service_for

WAIT = 60.0  # bounds a failure only


class HeldFsync:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.inner = durability.fsync_folder
        self.started = threading.Event()
        self.release = threading.Event()
        self.folders: list[Path] = []
        monkeypatch.setattr(durability, "fsync_folder", self)

    def __call__(self, folder: Path) -> None:
        self.folders.append(folder)
        self.started.set()
        assert self.release.wait(WAIT)
        self.inner(folder)


def service_and_memory(vault: Path) -> tuple[MemoryService, Memory]:
    """A service over `vault` and one of its memories (one with an id)."""
    service = service_for(vault)
    return service, next(m for m in service.engine.catalog.memories() if m.id)


def test_a_touch_through_a_call_waits_for_its_folder_fsync_made_after_the_lock(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, memory = service_and_memory(sample_vault)
    held = HeldFsync(monkeypatch)
    answers: list[TouchResult] = []
    touching = threading.Thread(
        target=lambda: answers.append(
            service.call("test.touch", False, lambda: service.touch(memory.id or ""))
        )
    )
    touching.start()
    assert held.started.wait(WAIT)
    # The note is written and the lock let go, but the touch is not answered yet.
    assert service.change_lock.acquire(timeout=WAIT)
    service.change_lock.release()
    on_disk = parse_note((sample_vault / memory.path).read_text(encoding="utf-8"))
    assert on_disk.frontmatter["use_count"] == memory.use_count + 1
    assert answers == [] and touching.is_alive()
    held.release.set()
    touching.join(WAIT)
    assert answers[0].use_count == memory.use_count + 1
    assert held.folders == [(sample_vault / memory.path).parent.resolve()]


def test_a_write_outside_a_call_fsyncs_its_folder_before_it_returns(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, memory = service_and_memory(sample_vault)
    synced: list[Path] = []
    monkeypatch.setattr(durability, "fsync_folder", synced.append)
    before = durability.DURABILITY.folder_syncs
    writes.touch(service.engine, TouchMemoryRequest(memory_id=memory.id or ""))  # no call runs it
    assert synced == [(sample_vault / memory.path).parent.resolve()]
    assert durability.DURABILITY.folder_syncs == before  # not through the thread


def test_a_journaled_move_in_a_call_fsyncs_its_new_folder_before_going_on(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move (here an archive) is a journaled two-step write: its new note must be durable
    before the old one goes, so it never leaves that fsync for later."""
    service = service_for(sample_vault)
    memory = next(m for m in service.engine.catalog.memories() if m.id and m.status == "active")
    synced: list[tuple[Path, int]] = []
    inner = durability.fsync_folder

    def watched(folder: Path) -> None:
        synced.append((folder, threading.get_ident()))
        inner(folder)

    monkeypatch.setattr(durability, "fsync_folder", watched)
    result = service.call("test.delete", False, lambda: service.delete(memory.id or ""))
    archive = (sample_vault / (result.archived_path or "")).parent.resolve()
    assert (archive, threading.get_ident()) in synced


def test_a_touch_begun_by_a_door_is_ready_to_finish_once_its_folder_is_fsynced(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the REST door waits for in its event loop instead of a thread of its own."""
    service, memory = service_and_memory(sample_vault)
    held = HeldFsync(monkeypatch)
    end = service.begin("test.touch", False, lambda: service.touch(memory.id or ""))
    assert held.started.wait(WAIT)
    woken: list[str] = []
    ready = threading.Event()

    def wake() -> None:
        woken.append(threading.current_thread().name)
        ready.set()

    end.when_ready(wake)
    assert end.waits and woken == []  # the folder's fsync is still to be made
    held.release.set()
    assert ready.wait(WAIT)
    assert woken == ["cgv-durability"] and not end.waits  # once, by the thread that fsynced
    assert end().use_count == memory.use_count + 1
    again: list[int] = []
    end.when_ready(lambda: again.append(1))
    assert again == [1]  # nothing left to wait for: at once


def test_a_pending_step_tells_each_callback_once_when_done(sample_vault: Path) -> None:
    step = durability.Pending()
    told: list[str] = []
    step.when_done(lambda: told.append("first"))
    step.when_done(lambda: told.append("second"))
    assert told == []
    step.set()
    step.set()
    assert told == ["first", "second"] and step.done
    step.when_done(lambda: told.append("late"))
    assert told == ["first", "second", "late"]
