"""A read asked while a long gc runs answers before the gc ends (REST and the service).

The gc is held half-way through forgetting by its own progress report (the hook the CLI's bar
uses), so the test does not depend on timing: the reads must come back while the gc is still
held, and they see the vault either as before the gc or as after it for each memory, never an
error. Then the gc is let go and finishes as usual.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import httpx
import uvicorn

from cortexgraph_vault.api.app import build_app
from cortexgraph_vault.api.token import TokenSource
from cortexgraph_vault.config import load_config
from cortexgraph_vault.progress import Progress
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text
from tests.conftest import NOW, NOW_ISO

FADED = 120
HOLD_SECONDS = 60  # the gc is let go by the test long before; this only bounds a failure


def faded_vault(root: Path) -> Path:
    old = NOW - timedelta(days=300)
    notes = {
        f"_stm/Faded walnut memory {i:03d}.md": memory_text(
            f"faded-{i:03d}", f"Once knew walnut fact {i}.\n", created=old
        )
        for i in range(FADED)
    }
    notes["_stm/Fresh walnut memory.md"] = memory_text(
        "fresh-walnut", "The walnut tree is by the gate.\n", use_count=3
    )
    return a_vault(root, notes, git_init=True, message="memories")


class HeldGc:
    """A progress factory that stops the gc half-way through forgetting until released."""

    def __init__(self) -> None:
        self.midway = threading.Event()
        self.release = threading.Event()

    def __call__(self, label: str) -> Progress:
        def report(done: int, total: int) -> None:
            if label == "forgetting" and done == total // 2 and not self.midway.is_set():
                self.midway.set()
                self.release.wait(HOLD_SECONDS)

        return report


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(service: MemoryService) -> Iterator[httpx.Client]:
    """The daemon's app (watcher included) under a real uvicorn on 127.0.0.1."""
    port, token = free_port(), TokenSource()
    app = build_app(service, port=port, token=token)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    headers = {"Authorization": f"Bearer {token.current()}"}
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=30) as c:
            yield c
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_reads_answer_while_a_gc_is_held_half_way(tmp_path: Path) -> None:
    service = MemoryService(
        load_config({"vault": str(faded_vault(tmp_path / "v")), "now": NOW_ISO})
    )
    held = HeldGc()
    service.engine.report_progress(held)
    with serving(service) as client:
        gc_answer: list[httpx.Response] = []
        gc_thread = threading.Thread(
            target=lambda: gc_answer.append(
                client.post("/api/v1/gc", json={"dry_run": False}, timeout=HOLD_SECONDS * 2)
            )
        )
        gc_thread.start()
        try:
            assert held.midway.wait(30), "the gc never reached half-way"
            # over REST, while the gc is held
            found = client.get("/api/v1/search", params={"q": "walnut gate"}, timeout=15)
            listed = client.get("/api/v1/memories", params={"page_size": 200}, timeout=15)
            one = client.get("/api/v1/memories/fresh-walnut", timeout=15)
            # through the service, as a door calls it (its lock for a read, then the read)
            with service.call_lock(True):
                by_service = service.search("walnut gate")
                service_list = service.list_memories(page_size=200)
            assert gc_thread.is_alive() and not gc_answer, "the gc ended before the reads"
        finally:
            held.release.set()
            gc_thread.join(HOLD_SECONDS)
        assert found.status_code == 200, found.text
        assert found.json()["results"][0]["id"] == "fresh-walnut"
        assert by_service.results[0].id == "fresh-walnut"
        assert one.status_code == 200 and one.json()["id"] == "fresh-walnut"
        assert listed.status_code == 200, listed.text
        # each memory is there as before the gc or gone as after it: the fresh one always
        listed_ids = {m["id"] for m in listed.json()["memories"]}
        assert "fresh-walnut" in listed_ids
        assert listed_ids <= {"fresh-walnut"} | {f"faded-{i:03d}" for i in range(FADED)}
        assert "fresh-walnut" in {m.id for m in service_list.memories}

        assert gc_answer and gc_answer[0].status_code == 200, gc_answer
        assert gc_answer[0].json()["removed_count"] == FADED
        after = client.get("/api/v1/memories", params={"page_size": 200}).json()
        assert [m["id"] for m in after["memories"]] == ["fresh-walnut"]
    assert sorted(p.name for p in (tmp_path / "v" / "_stm").iterdir()) == ["Fresh walnut memory.md"]
