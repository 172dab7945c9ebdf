"""Scenario 1 — many writers on one vault: the daemon (REST), two stdio MCP servers, the CLI and
a person appending lines, all on the same 50 memories at once.

Afterwards every note parses, every successful touch/observe is counted exactly once in
`use_count`, every line the person appended is there, and every process's index (REST list,
MCP open_memories in each server, a CLI `show` from the shared cache and one from no cache at
all) says what the files say.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.api.daemon_process import Daemon, start_daemon
from tests.conftest import scenario_size
from tests.mcp.mcp_session import cli_command
from tests.reliability.vault_audit import (
    child_env,
    cli_argv,
    memories_on_disk,
    memory_vault,
    temp_files,
    unreadable_notes,
)

pytestmark = pytest.mark.anyio

MEMORIES = 50
# Operations of all writers together (a count, not a time: a busy machine makes the run
# longer, never thinner): 400 in CI, 150 in a person's run (each writer still starts at least
# one), 6,000 with --soak. On a quiet machine 400 take about 6 s, 6,000 about 2 minutes.
OPERATIONS, SOAK_OPERATIONS = scenario_size(400, 150), 6_000
SETTLE_SECONDS = 30


class Tally:
    """Successful uses per memory id, per writer; every failure with its writer's name."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.uses: Counter[str] = Counter()
        self.ops: Counter[str] = Counter()
        self.saved: list[str] = []
        self.failures: list[str] = []

    def used(self, writer: str, ids: list[str]) -> None:
        self.uses.update(ids)
        self.ops[writer] += 1

    def done(self) -> bool:
        """Whether the writers have made their operations (a failed one counts too)."""
        return sum(self.ops.values()) + len(self.failures) >= self.budget

    def failed(self, writer: str, what: str) -> None:
        self.failures.append(f"{writer}: {what}"[:500])


async def rest_writer(name: str, daemon: Daemon, ids: list[str], tally: Tally,
                      rng: random.Random) -> None:  # fmt: skip
    headers = {"Authorization": f"Bearer {daemon.token}"}
    async with httpx.AsyncClient(base_url=daemon.url, headers=headers, timeout=60) as client:
        while not tally.done():
            pick, roll = rng.choice(ids), rng.random()
            if roll < 0.5:
                r = await client.post(f"/api/v1/memories/{pick}/touch", json={})
                if r.status_code == 200:
                    tally.used(name, [r.json()["memory_id"]])
            elif roll < 0.9:
                chosen = rng.sample(ids, 3)
                r = await client.post("/api/v1/observe", json={"memory_ids": chosen})
                if r.status_code == 200:
                    tally.used(name, [m["memory_id"] for m in r.json()["memories"]])
            else:
                r = await client.post("/api/v1/memories", json={"content": f"{name} saved {roll}"})
                if r.status_code == 201:
                    tally.saved.append(r.json()["memory_id"])
                    tally.ops[name] += 1
            if r.status_code >= 300:
                tally.failed(name, f"{r.status_code} {r.text}")


async def mcp_writer(name: str, session: ClientSession, ids: list[str], tally: Tally,
                     rng: random.Random) -> None:  # fmt: skip
    while not tally.done():
        pick, roll = rng.choice(ids), rng.random()
        if roll < 0.5:
            result = await session.call_tool("touch_memory", {"memory_id": pick})
        elif roll < 0.9:
            result = await session.call_tool(
                "observe_memory_usage", {"memory_ids": rng.sample(ids, 3), "context_tags": ["x"]}
            )
        else:
            result = await session.call_tool("save_memory", {"content": f"{name} saved {roll}"})
        out = result.structured_content
        if result.is_error or out is None:
            tally.failed(name, str(result.content))
        elif "memories" in out:  # observe
            tally.used(name, [m["memory_id"] for m in out["memories"]])
        elif "use_count" in out:  # touch
            tally.used(name, [out["memory_id"]])
        else:  # save: a new memory, not one of the 50
            tally.saved.append(out["memory_id"])
            tally.ops[name] += 1


async def cli_writer(vault: Path, home: Path, ids: list[str], tally: Tally,
                     rng: random.Random) -> None:  # fmt: skip
    env = child_env(home)
    while not tally.done():
        pick = rng.choice(ids)
        if rng.random() < 0.6:
            args = ["--json", "touch", pick]
        else:
            args = ["--json", "observe", *rng.sample(ids, 2)]
        done = await anyio.run_process(cli_argv(vault, *args), env=env, check=False)
        if done.returncode != 0:
            tally.failed("cli", done.stderr.decode()[-400:])
            continue
        out = json.loads(done.stdout)
        tally.used("cli", [m["memory_id"] for m in out["memories"]] if "memories" in out
                   else [out["memory_id"]])  # fmt: skip


async def person(
    vault: Path, paths: list[str], tally: Tally, rng: random.Random
) -> list[tuple[str, str]]:
    """Appends a line at the end of a note, as an editor's append does, a few times a second,
    until the writers are done."""
    written: list[tuple[str, str]] = []
    n = 0
    while not tally.done():
        rel = rng.choice(paths)
        line = f"A line the person typed, number {n}.\n"
        fd = os.open(vault / rel, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
        written.append((rel, line))
        n += 1
        await anyio.sleep(rng.uniform(0.01, 0.05))
    return written


def disk_views(vault: Path) -> dict[str, tuple[int, str]]:
    from cortexgraph_vault.core.note import parse_note

    out = {}
    for mid, found in memories_on_disk(vault).items():
        path, fm = found[0]
        body = parse_note((vault / path).read_text(encoding="utf-8")).body.strip()
        out[mid] = (int(fm["use_count"]), body)
    return out


def views(memories: list[dict]) -> dict[str, tuple[int, str]]:
    return {m["id"]: (m["use_count"], m["content"]) for m in memories}


async def rest_views(daemon: Daemon) -> dict[str, tuple[int, str]]:
    headers = {"Authorization": f"Bearer {daemon.token}"}
    found: list[dict] = []
    async with httpx.AsyncClient(base_url=daemon.url, headers=headers, timeout=60) as client:
        page = 1
        while True:
            r = await client.get(
                "/api/v1/memories", params={"status": "all", "page_size": 200, "page": page}
            )
            assert r.status_code == 200, r.text
            found += r.json()["memories"]
            if not r.json()["pagination"]["has_more"]:
                return views(found)
            page += 1


async def mcp_views(session: ClientSession, ids: list[str]) -> dict[str, tuple[int, str]]:
    found: list[dict] = []
    for start in range(0, len(ids), 100):
        cursor = None
        while True:  # an answer over the size budget continues at its next_cursor
            args = {"memory_ids": ids[start : start + 100], "include_relations": False}
            result = await session.call_tool("open_memories", {**args, "cursor": cursor})
            assert not result.is_error, result.content
            found += result.structured_content["memories"]
            cursor = result.structured_content.get("next_cursor")  # left out when none
            if cursor is None:
                break
    return views(found)


def cli_views(vault: Path, home: Path, ids: list[str]) -> dict[str, tuple[int, str]]:
    found: list[dict] = []
    for start in range(0, len(ids), 100):
        more: list[str] = []
        while True:  # an answer over the size budget continues at its --cursor
            done = subprocess.run(
                cli_argv(vault, "--json", "show", *ids[start : start + 100], *more),
                env=child_env(home), capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            answer = json.loads(done.stdout)
            found += answer["memories"]
            if answer["next_cursor"] is None:
                break
            more = ["--cursor", answer["next_cursor"]]
    return views(found)


async def test_daemon_two_mcp_servers_cli_and_a_person_lose_nothing(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    vault, home = tmp_path / "vault", tmp_path / "home"
    id_paths = memory_vault(vault, MEMORIES)
    ids = sorted(id_paths)
    before = {mid: count for mid, (count, _) in disk_views(vault).items()}
    tally, rng = Tally(SOAK_OPERATIONS if soak else OPERATIONS), random.Random(20261201)
    daemon = start_daemon(home, vault)  # same home: one user, one lock, one cache
    try:
        async with AsyncExitStack() as stack:
            sessions = []
            for n in range(2):
                argv = [
                    *cli_command(),
                    "--vault",
                    str(vault),
                    "--now",
                    "2026-12-01T12:00:00Z",
                    "mcp",
                ]
                params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env(home))
                errlog = stack.enter_context((tmp_path / f"mcp{n}.log").open("w"))
                read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                sessions.append(session)
            started = time.monotonic()
            lines: list[tuple[str, str]] = []

            async def person_task() -> None:
                lines.extend(await person(vault, list(id_paths.values()), tally, rng))

            async with anyio.create_task_group() as tg:
                for n in range(3):
                    tg.start_soon(rest_writer, f"rest{n}", daemon, ids, tally, random.Random(n))
                for n, session in enumerate(sessions):
                    tg.start_soon(mcp_writer, f"mcp{n}", session, ids, tally, random.Random(10 + n))
                tg.start_soon(cli_writer, vault, home, ids, tally, random.Random(20))
                tg.start_soon(person_task)
            seconds = round(time.monotonic() - started, 1)

            assert not tally.failures, tally.failures[:5]
            assert unreadable_notes(vault) == []
            assert temp_files(vault) == []
            on_disk = disk_views(vault)
            wrong = {
                mid: (on_disk[mid][0], before[mid] + tally.uses[mid])
                for mid in ids
                if on_disk[mid][0] != before[mid] + tally.uses[mid]
            }
            assert not wrong, f"use_count on disk vs counted (id: (disk, expected)): {wrong}"
            missing_lines = [
                (rel, line) for rel, line in lines
                if line not in (vault / rel).read_text(encoding="utf-8")
            ]  # fmt: skip
            assert not missing_lines, missing_lines[:5]
            assert set(tally.saved) <= set(on_disk)

            # Every index agrees with the files once the watchers have seen the last append.
            all_ids = sorted(on_disk)
            deadline = time.monotonic() + SETTLE_SECONDS
            while True:
                seen = {
                    "rest": await rest_views(daemon),
                    "mcp0": await mcp_views(sessions[0], all_ids),
                    "mcp1": await mcp_views(sessions[1], all_ids),
                }
                if all(v == on_disk for v in seen.values()) or time.monotonic() > deadline:
                    break
                await anyio.sleep(0.5)
        seen["cli (shared cache)"] = cli_views(vault, home, all_ids)
        seen["cli (no cache)"] = cli_views(vault, tmp_path / "fresh-home", all_ids)
        for who, view in seen.items():
            differ = sorted(mid for mid in on_disk if view.get(mid) != on_disk[mid])
            assert not differ and set(view) == set(on_disk), f"{who} disagrees on {differ[:5]}"
    finally:
        assert daemon.stop() == 0, daemon.err[-3000:]
    assert "Traceback" not in daemon.err, daemon.err[-3000:]
    figures.update(
        seconds=seconds, writers="daemon(3 REST clients)+2 stdio MCP+CLI+person",
        operations=sum(tally.ops.values()), uses_counted=sum(tally.uses.values()),
        saves=len(tally.saved), person_lines=len(lines), per_writer=dict(tally.ops),
        failures=len(tally.failures), lost_uses=0, lost_lines=0,
    )  # fmt: skip


def test_a_persons_append_right_after_our_write_is_not_taken_for_its_echo(tmp_path: Path) -> None:
    """The race the many-writers run found: a person appends between our rename and our
    recording of the write; the index must hold their line, and so must every later reload."""
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    vault = tmp_path / "vault"
    rel = memory_vault(vault, 1, with_git=False)["00000000-0000-4000-8000-000000000000"]
    engine = MemoryService(load_config({"vault": str(vault), "now": "2026-12-01T12:00:00Z"})).engine
    written = engine.store.update_fields(rel, lambda parsed: {"use_count": 2})
    with (vault / rel).open("a", encoding="utf-8") as note:
        note.write("The person's line, typed at that very moment.\n")
    recorded = engine.catalog.record(written.path, written.data)
    assert "typed at that very moment" in recorded.body
    assert "typed at that very moment" in engine.catalog.reload(rel).body  # type: ignore[union-attr]
    assert recorded.memory is not None and recorded.memory.use_count == 2
