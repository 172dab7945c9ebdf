"""A one-call command freezes what the index's pauses build (it lives to the process's end)
instead of having the collector walk it; `main` called by a process that goes on does not."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.cli import main as cli_main
from cortexgraph_vault.index import gc_pause
from cortexgraph_vault.index.gc_pause import freeze_on_resume, gc_paused
from tests.conftest import NOW_ISO


@pytest.fixture
def unfrozen() -> Iterator[None]:
    before = gc.get_freeze_count()
    yield
    freeze_on_resume(False)
    if gc.get_freeze_count() > before:
        gc.unfreeze()  # this test process goes on: its objects are collectable again


def built_in_a_pause() -> int:
    """How many objects the permanent generation gained over a pause that built 5,000."""
    before = gc.get_freeze_count()
    with gc_paused():
        kept = [[i] for i in range(5000)]
    frozen = gc.get_freeze_count() - before
    assert len(kept) == 5000 and gc.isenabled()
    return frozen


def test_a_pause_freezes_what_it_built_only_when_told_to(unfrozen: None) -> None:
    assert built_in_a_pause() == 0
    freeze_on_resume(True)
    assert built_in_a_pause() >= 5000
    freeze_on_resume(False)
    assert built_in_a_pause() == 0


def test_nested_pauses_freeze_once_at_the_outermost_end(unfrozen: None) -> None:
    freeze_on_resume(True)
    before = gc.get_freeze_count()
    with gc_paused():
        with gc_paused():
            inner = [[i] for i in range(1000)]
        assert gc.get_freeze_count() == before and not gc.isenabled()
    assert gc.get_freeze_count() - before >= len(inner)


def test_main_freezes_during_a_command_only_when_the_process_exits_after_it(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    told: list[bool] = []
    monkeypatch.setattr(gc_pause, "freeze_on_resume", told.append)
    argv = ["--vault", str(sample_vault), "--now", NOW_ISO, "stats"]
    assert cli_main.main(argv) == 0
    assert told == []  # a test, a daemon: the process goes on
    assert cli_main.main(argv, exits=True) == 0
    assert told == [True, False]  # on for the command, off for what the exit does
    capsys.readouterr()


def test_settling_freezes_what_survived(unfrozen: None) -> None:
    """What the daemon's watcher does after many notes: their survivors frozen, so the
    collector's full walks (which stall every thread, /health's event loop too) skip them."""
    kept = [[i] for i in range(5000)]
    before = gc.get_freeze_count()
    gc_pause.settle()
    assert gc.get_freeze_count() - before >= len(kept)
