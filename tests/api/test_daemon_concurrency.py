"""Clients at once through one daemon: no use is lost."""

from __future__ import annotations

import threading

from cortexgraph_vault.core.note import parse_note
from tests.api.daemon_process import Daemon

TOUCHES = 200
PATH = "_stm/Half marathon goal.md"


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
