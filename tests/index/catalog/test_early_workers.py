"""A cold start's parse workers start while the walk goes on, as soon as it has found enough
notes; the index is the one a parse in this process makes, and no worker outlives a walk
that fails or finds too few notes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.index.catalog import parallel_parse
from cortexgraph_vault.index.catalog import vault_catalog as catalog_module
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.vault.layout import VaultLayout
from tests.index.index_helpers import fresh_signature, signature


def many_notes(vault: Path, count: int) -> None:
    for i in range(count):
        note = vault / "Many" / f"N{i}.md"
        note.parent.mkdir(exist_ok=True)
        note.write_text(f"---\ntags: [t{i}]\n---\nnote {i} about [[Home]] and lighthouses\n")


class Spied:
    """The walk's progress when workers start, and every worker process started."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, fail_after: int | None = None) -> None:
        self.walked = 0
        self.walked_at_start: list[int] = []
        self.procs: list[subprocess.Popen[bytes]] = []
        real_walk, real_init = catalog_module.walk_vault, parallel_parse.ParseWorkers.__init__
        spied = self

        def walk(root: Path, start: str = "") -> Iterator[tuple[str, os.stat_result | None]]:
            for item in real_walk(root, start):
                spied.walked += 1
                if fail_after is not None and spied.walked > fail_after:
                    raise OSError("the disk went away")
                yield item

        def init(workers: parallel_parse.ParseWorkers, count: int) -> None:
            spied.walked_at_start.append(spied.walked)
            real_init(workers, count)
            spied.procs += workers.procs

        monkeypatch.setattr(catalog_module, "walk_vault", walk)
        monkeypatch.setattr(parallel_parse.ParseWorkers, "__init__", init)
        monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", 10)
        monkeypatch.setattr(parallel_parse, "worker_count", lambda: 2)


def test_workers_start_during_a_cold_walk_and_parse_the_same_index(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_notes(link_vault, 40)
    serial = fresh_signature(link_vault)
    spied = Spied(monkeypatch)
    catalog = VaultCatalog(VaultLayout(link_vault))
    catalog.refresh()
    assert len(spied.walked_at_start) == 1
    assert 10 <= spied.walked_at_start[0] < spied.walked  # before the walk ended
    assert signature(catalog) == serial
    assert all(proc.poll() == 0 for proc in spied.procs)  # each did its share and exited


def test_a_warm_walk_starts_no_worker_early(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_notes(link_vault, 40)
    catalog = VaultCatalog(VaultLayout(link_vault))
    catalog.refresh()
    spied = Spied(monkeypatch)
    for i in range(3):
        (link_vault / "Many" / f"N{i}.md").write_text(f"note {i}, edited\n")
    assert sorted(catalog.refresh().changed) == [f"Many/N{i}.md" for i in range(3)]
    assert spied.procs == []


def test_a_cold_walk_that_fails_leaves_no_worker_behind(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_notes(link_vault, 40)
    spied = Spied(monkeypatch, fail_after=30)
    catalog = VaultCatalog(VaultLayout(link_vault))
    with pytest.raises(OSError, match="the disk went away"):
        catalog.refresh()
    assert len(spied.procs) == 2
    for proc in spied.procs:
        assert proc.wait(timeout=10) != 0  # stopped, not left waiting for a job


def test_workers_started_for_notes_that_need_no_parse_are_stopped(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = len(list(link_vault.rglob("*.md")))
    spied = Spied(monkeypatch)
    # a file named like a note, but not in UTF-8: walked, counted, never parsed
    bad = os.fsencode(link_vault) + b"/caf\xe9.md"
    with open(bad, "wb") as fh:
        fh.write(b"not readable by name\n")
    monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", notes + 1)  # reached by the walk only
    catalog = VaultCatalog(VaultLayout(link_vault))
    catalog.refresh()
    assert spied.walked_at_start and len(spied.procs) == 2
    for proc in spied.procs:
        assert proc.wait(timeout=10) != 0
    assert len(catalog) == notes and catalog.parsed == notes


@pytest.mark.parametrize("notes", [40, 3000], ids=["job-in-the-pipe", "job-beyond-the-pipe"])
def test_workers_that_die_leave_the_parse_to_this_process(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch, notes: int
) -> None:
    many_notes(link_vault, notes)
    serial = fresh_signature(link_vault)
    Spied(monkeypatch)
    false = "/bin/false" if os.path.exists("/bin/false") else "/usr/bin/false"
    monkeypatch.setattr(sys, "executable", false)  # a worker exits before reading its job
    catalog = VaultCatalog(VaultLayout(link_vault))
    catalog.refresh()
    assert signature(catalog) == serial
