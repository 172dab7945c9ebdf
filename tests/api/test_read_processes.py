"""The daemon's read processes (api/read_processes.py): reads answered beside the daemon give
what the daemon itself would, see every change answered before them, and outlive a crash."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cortexgraph_vault.api.endpoints import ANSWERED_BY
from cortexgraph_vault.vault.sample import copy_sample_vault
from tests.api.daemon_process import Daemon, isolated_env, start_daemon
from tests.builders import a_vault
from tests.conftest import NOW

KESTREL = "6819a4b2-19b5-4061-9396-8a835b22a2c9"  # memories/Works at Kestrel Labs.md
NEOVIM = "15253715-83f6-4ba7-b082-486bc2576160"  # _stm/Uses Neovim.md
WAIT = 60.0


def a_daemon(base: Path, read_processes: int) -> Daemon:
    vault = a_vault(copy_sample_vault(base / "vault", NOW), git_init=True, message="sample")
    home = base / "home"
    env = isolated_env(home, CORTEXGRAPH_READ_PROCESSES=str(read_processes))
    return start_daemon(home, vault, env=env)


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    """A daemon of the test's own, for a test that ends it or its read processes for good."""
    d = a_daemon(tmp_path, 1)
    yield d
    d.stop()


# The tests of the module's daemon, kept on one worker so that it is started once.
ON_THE_SHARED_DAEMON = pytest.mark.xdist_group("read-processes-shared")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """One daemon for the tests that leave it serving with a read process: each checks only
    the memories it changes, counted from what it finds, and kills at most one read process
    (the daemon replaces three)."""
    d = a_daemon(tmp_path_factory.mktemp("read-processes"), 1)
    yield d
    d.stop()


def read_process_of(client: httpx.Client) -> int:
    """The pid of the read process, once it answers (it loads the index after the daemon)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        r = client.get("/api/v1/memories", params={"page_size": 1})
        assert r.status_code == 200, r.text
        if ANSWERED_BY in r.headers:
            return int(r.headers[ANSWERED_BY])
        time.sleep(0.05)
    raise AssertionError("no read process answered")


@ON_THE_SHARED_DAEMON
def test_a_read_sees_every_change_answered_before_it_on_any_connection(shared: Daemon) -> None:
    writer, reader = shared.client(), shared.client()
    read_process_of(reader)
    before = reader.get(f"/api/v1/memories/{NEOVIM}").json()["use_count"]
    for n in range(1, 31):
        assert writer.post(f"/api/v1/memories/{NEOVIM}/touch").status_code == 200
        r = reader.get(f"/api/v1/memories/{NEOVIM}")
        assert ANSWERED_BY in r.headers  # answered beside the daemon, not by it
        assert r.json()["use_count"] == before + n

    saved = writer.post("/api/v1/memories", json={"content": "Keeps bees on the allotment"})
    assert saved.status_code == 201, saved.text
    found = reader.get("/api/v1/search", params={"q": "bees allotment"})
    assert ANSWERED_BY in found.headers
    assert saved.json()["memory_id"] in found.text

    gone = writer.delete(f"/api/v1/memories/{saved.json()['memory_id']}", params={"mode": "remove"})
    assert gone.status_code == 200, gone.text
    after = reader.get(f"/api/v1/memories/{saved.json()['memory_id']}")
    assert after.status_code == 404, after.text


@ON_THE_SHARED_DAEMON
def test_an_edit_by_hand_reaches_the_read_process(shared: Daemon) -> None:
    assert shared.vault is not None
    client = shared.client()
    read_process_of(client)
    note = shared.vault / "_stm" / "Uses Neovim.md"
    note.write_text(note.read_text() + "\nAlso tried helix on a kayak trip.\n")
    deadline = time.monotonic() + WAIT
    while "kayak" not in client.get(f"/api/v1/memories/{NEOVIM}").text:
        assert time.monotonic() < deadline, "the edit never reached the read process"
        time.sleep(0.05)
    r = client.get("/api/v1/search", params={"q": "helix kayak"})
    assert ANSWERED_BY in r.headers and NEOVIM in r.text


READS = [  # path, query, the status expected
    ("/api/v1/memories", {"page_size": 7, "page": 2}, 200),
    ("/api/v1/memories", {"status": "promoted", "sort": "age"}, 200),
    ("/api/v1/memories", {"sort": "created"}, 422),
    ("/api/v1/memories", {"page_size": 0}, 422),
    (f"/api/v1/memories/{KESTREL}", {}, 200),
    ("/api/v1/memories/no-such-memory", {}, 404),
    ("/api/v1/memories/lookup", {"path": "memories/Works at Kestrel Labs.md"}, 200),
    ("/api/v1/memories/lookup", {"path": "../outside.md"}, 400),
    ("/api/v1/search", {"q": "editor preferences"}, 200),
    ("/api/v1/search", {"q": "kestrel", "limit": 2}, 200),
    ("/api/v1/related", {"path": "memories/Works at Kestrel Labs.md"}, 200),
    ("/api/v1/graph/neighbourhood", {"path": "memories/Works at Kestrel Labs.md"}, 200),
    ("/api/v1/notes/read", {"ref": "memories/Works at Kestrel Labs.md"}, 200),
    ("/api/v1/notes/read", {"ref": "nowhere.md"}, 404),
]


def test_answers_are_the_daemons_own(tmp_path: Path) -> None:
    """The same vault served with and without a read process: same status, headers that
    matter and bytes, errors included."""
    alone, beside = a_daemon(tmp_path / "alone", 0), a_daemon(tmp_path / "beside", 1)
    try:
        a, b = alone.client(), beside.client()
        read_process_of(b)
        for path, params, status in READS:
            ra, rb = a.get(path, params=params), b.get(path, params=params)
            assert ra.status_code == status, (path, ra.text)
            assert (rb.status_code, rb.content) == (ra.status_code, ra.content), path
            assert rb.headers.get("X-Result-Model") == ra.headers.get("X-Result-Model")
            assert ANSWERED_BY not in ra.headers
            # errors are raised again in the daemon and answered by its handlers
            assert (ANSWERED_BY in rb.headers) == (status == 200), path
    finally:
        alone.stop()
        beside.stop()


@ON_THE_SHARED_DAEMON
def test_a_read_process_that_dies_is_replaced_and_no_read_fails(shared: Daemon) -> None:
    client = shared.client()
    first = read_process_of(client)
    os.kill(first, signal.SIGKILL)
    # answered at once, by the daemon while no read process is ready
    for _ in range(20):
        r = client.get(f"/api/v1/memories/{KESTREL}")
        assert r.status_code == 200 and r.json()["id"] == KESTREL
    deadline = time.monotonic() + WAIT
    while (second := read_process_of(client)) == first:
        assert time.monotonic() < deadline, "no new read process"
    assert second != first
    assert client.get(f"/api/v1/memories/{KESTREL}").headers[ANSWERED_BY] == str(second)


def test_the_read_process_ends_with_the_daemon(daemon: Daemon) -> None:
    pid = read_process_of(daemon.client())
    assert daemon.stop() == 0
    assert not _alive(pid, wait=10)


def test_the_read_process_ends_when_the_daemon_is_killed(daemon: Daemon) -> None:
    pid = read_process_of(daemon.client())
    daemon.proc.kill()
    daemon.proc.wait()
    assert not _alive(pid, wait=10)


def _alive(pid: int, *, wait: float) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        if Path("/proc/self/stat").is_file():  # Linux: a zombie has ended too
            try:
                if ") Z" in Path(f"/proc/{pid}/stat").read_text():
                    return False  # its parent (killed too) never reaped it
            except (FileNotFoundError, ProcessLookupError):
                return False  # reaped between the two looks
        time.sleep(0.05)
    return True


def test_a_read_process_that_keeps_dying_leaves_the_reads_to_the_daemon(daemon: Daemon) -> None:
    client = daemon.client()
    seen: list[int] = []
    for _ in range(4):  # the first and its three replacements
        pid = read_process_of(client)
        assert pid not in seen
        seen.append(pid)
        os.kill(pid, signal.SIGKILL)
        assert not _alive(pid, wait=10)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:  # no fifth: every read is the daemon's, and answered
        r = client.get(f"/api/v1/memories/{KESTREL}")
        assert r.status_code == 200 and ANSWERED_BY not in r.headers
        time.sleep(0.1)
    assert "read process ended" in daemon.err
