"""Clients at once through one daemon: no use is lost."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator

import pytest

from cortexgraph_vault.core.note import parse_note
from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import Daemon, start_daemon

# Every test here asks for the module's daemon: on one worker, it is started once.
pytestmark = pytest.mark.xdist_group("daemon-concurrency")
TOUCHES = 200
PATH = "_stm/Half marathon goal.md"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """One daemon for the module: each test counts from the use count it finds and checks
    only its own saves, so what the others did before it changes nothing it asserts."""
    base = tmp_path_factory.mktemp("concurrency")
    d = start_daemon(base / "home", git_sample_vault(base / "vault"))
    yield d
    d.stop()


def test_two_clients_touching_one_memory_200_times_each_add_exactly_400(daemon: Daemon) -> None:
    assert daemon.vault is not None
    before = parse_note((daemon.vault / PATH).read_text()).frontmatter["use_count"]
    memory_id = parse_note((daemon.vault / PATH).read_text()).frontmatter["id"]
    failures: list[str] = []
    start = threading.Barrier(2)

    def client_run() -> None:
        client = daemon.client()
        start.wait()
        for _ in range(TOUCHES):
            r = client.post(f"/api/v1/memories/{memory_id}/touch", json={})
            if r.status_code != 200:
                failures.append(r.text)

    threads = [threading.Thread(target=client_run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]
    on_disk = parse_note((daemon.vault / PATH).read_text()).frontmatter["use_count"]
    assert on_disk == before + 2 * TOUCHES
    assert daemon.client().get(f"/api/v1/memories/{memory_id}").json()["use_count"] == on_disk


def test_touches_among_many_reads_are_each_answered_and_counted(daemon: Daemon) -> None:
    """Reads beside changes: the touches all land once, and every read is answered."""
    assert daemon.vault is not None
    before = parse_note((daemon.vault / PATH).read_text()).frontmatter["use_count"]
    memory_id = parse_note((daemon.vault / PATH).read_text()).frontmatter["id"]
    failures: list[str] = []
    reads = [0]
    touching = threading.Event()
    touching.set()

    def reader() -> None:
        client = daemon.client()
        while touching.is_set():
            for url in ("/api/v1/search?q=marathon", "/api/v1/memories?page=1"):
                r = client.get(url)
                if r.status_code != 200:
                    failures.append(r.text)
                reads[0] += 1

    def toucher() -> None:
        client = daemon.client()
        for _ in range(50):
            r = client.post(f"/api/v1/memories/{memory_id}/touch", json={})
            if r.status_code != 200:
                failures.append(r.text)

    readers = [threading.Thread(target=reader) for _ in range(8)]
    touchers = [threading.Thread(target=toucher) for _ in range(2)]
    for t in readers + touchers:
        t.start()
    for t in touchers:
        t.join()
    touching.clear()
    for t in readers:
        t.join()
    assert not failures, failures[:3]
    assert reads[0] > 0
    on_disk = parse_note((daemon.vault / PATH).read_text()).frontmatter["use_count"]
    assert on_disk == before + 100
    assert daemon.client().get(f"/api/v1/memories/{memory_id}").json()["use_count"] == on_disk


def test_saves_at_once_through_the_daemon_each_answer_with_a_commit_holding_their_file(
    daemon: Daemon,
) -> None:
    assert daemon.vault is not None
    results: list[dict[str, object]] = []

    def saver(n: int) -> None:
        client = daemon.client()
        for i in range(4):
            r = client.post("/api/v1/memories", json={"content": f"Parallel save {n} {i} kiwi"})
            results.append(r.json() if r.status_code == 201 else {"error": r.text})

    threads = [threading.Thread(target=saver, args=(n,)) for n in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 20
    for result in results:
        assert isinstance(result.get("commit"), str), result
        shown = subprocess.run(
            ["git", "-C", str(daemon.vault), "show", "--name-only", "--format=", str(result["commit"])],
            check=True, capture_output=True, text=True,
        ).stdout.splitlines()  # fmt: skip
        assert result["path"] in shown


def test_a_save_through_the_operations_route_answers_with_its_commit(daemon: Daemon) -> None:
    """The CLI's way in (`POST /api/v1/operations/{name}`) waits for the group commit too."""
    assert daemon.vault is not None
    r = daemon.client().post(
        "/api/v1/operations/save_memory", json={"content": "Saved through the operations route"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    shown = subprocess.run(
        ["git", "-C", str(daemon.vault), "show", "--name-only", "--format=", body["commit"]],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    assert body["path"] in shown
