"""A REST change waits for what it left for after its lock (a save's group commit, a folder's
fsync) in the event loop (`api/endpoints.py` `until_ready`): no thread is held meanwhile, other
changes go on, each save answers with the commit that holds its file, and a call whose client
left is still finished (committed and timed) once its wait ends."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path

import httpx
import pytest

from cortexgraph_vault.api.endpoints import until_ready
from cortexgraph_vault.service import CallEnd
from cortexgraph_vault.vault.durability import Pending
from tests.api.asgi_client import asgi_client
from tests.engine.test_group_commits import HeldCommits, files_in
from tests.mcp.mcp_session import service_for

pytestmark = pytest.mark.anyio
WAIT = 60.0  # bounds a failure only
SAVES = 70  # more than anyio's default threads (40), each waiting for the one commit


async def test_saves_waiting_for_one_commit_let_a_touch_through_and_each_answers_with_it(
    git_vault: Path,
) -> None:
    service = service_for(git_vault)
    held = HeldCommits(service)
    memory = next(m for m in service.engine.catalog.memories() if m.id)

    async def save(rest: httpx.AsyncClient, n: int) -> httpx.Response:
        return await rest.post("/api/v1/memories", json={"content": f"Saved while git works {n}"})

    async with asgi_client(service, 8765) as rest:
        first = asyncio.create_task(save(rest, 0))
        assert await asyncio.to_thread(held.first_started.wait, WAIT)
        others = [asyncio.create_task(save(rest, n)) for n in range(1, SAVES)]
        touched = await rest.post(f"/api/v1/memories/{memory.id}/touch", json={})
        assert touched.status_code == 200, touched.text
        assert touched.json()["use_count"] == memory.use_count + 1
        assert not first.done()  # git still holds the first save's commit
        held.release.set()
        answers = await asyncio.wait_for(asyncio.gather(first, *others), WAIT)
    for answer in answers:
        assert answer.status_code == 201, answer.text
        body = answer.json()
        assert body["commit"] is not None, body
        assert body["path"] in files_in(git_vault, body["commit"])


async def test_a_call_whose_client_left_while_it_waited_is_finished_when_the_wait_ends() -> None:
    step = Pending()
    finished: list[str] = []
    end: CallEnd[str] = CallEnd("unfinished", lambda: finished.append("done") or "done", [step])
    waiting = asyncio.create_task(until_ready(end))
    await asyncio.sleep(0)  # it is waiting now
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    assert finished == []
    told = asyncio.Event()
    loop = asyncio.get_running_loop()
    threading.Thread(target=lambda: (step.set(), loop.call_soon_threadsafe(told.set))).start()
    await asyncio.wait_for(told.wait(), WAIT)
    await asyncio.sleep(0)  # the loop runs what the step's thread handed it
    assert finished == ["done"]


async def test_a_call_with_nothing_left_to_wait_for_is_ready_at_once() -> None:
    step = Pending()
    step.set()
    end: CallEnd[str] = CallEnd("unfinished", lambda: "done", [step])
    await asyncio.wait_for(until_ready(end), WAIT)
    assert end() == "done"
