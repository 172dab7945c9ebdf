"""Facts that change, end to end as a user lives them: a model over real MCP stdio servers and a
person's maintenance on the command line, over months of `--now`, in a real git vault; a
supersession undone by editing the note (the server's watcher sees it); and two devices each
recording one, then syncing."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.builders import a_vault, frontmatter_of
from tests.cli.in_process import run_main
from tests.conftest import git
from tests.integration.clones import Devices, a_memory, fields
from tests.integration.clones import git as git_run
from tests.mcp.mcp_session import cli_command
from tests.mcp.test_mcp_stdio import child_env

pytestmark = pytest.mark.anyio

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
PARIS = "I live in Paris, near the Canal Saint-Martin."
BERLIN = "I moved to Berlin (Kreuzberg) in early December."
NOISE = (
    "The go-live deadline for the Atlas migration is March 3.",
    "I practise Spanish on Duolingo most days.",
)


def at(day: float) -> str:
    return (START + timedelta(days=day)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Model:
    """One MCP session as a model holds it: calls a tool, fails on a tool error."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.session.call_tool(tool, arguments)
        assert not result.is_error, f"{tool}: {result.content}"
        assert result.structured_content is not None
        return result.structured_content

    async def search(self, query: str, **more: Any) -> list[dict[str, Any]]:
        found = await self.call("search_memory", query=query, top_k=5, **more)
        return list(found["results"])


@asynccontextmanager
async def model_on(vault: Path, day: float, errlog: Path) -> AsyncIterator[Model]:
    argv = [*cli_command(), "--vault", str(vault), "--now", at(day), "mcp"]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env())
    with errlog.open("a") as log:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield Model(session)


def maintain(vault: Path, day: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a person (or the scheduler) runs: promote the earned, forget the faded. The
    commands' answers are the matter, so they run in this process (tests/cli/in_process.py),
    each at its own `--now`: nothing here reads the tests' clock, which a second run with it
    moved could not change."""
    answers = []
    for command in (("promote", "--auto", "--yes"), ("gc", "--yes")):
        argv = ["--vault", str(vault), "--now", at(day), "--json", *command]
        code, out, err = run_main(argv, os.environ)
        assert code == 0, err
        answers.append(json.loads(out))
    return answers[0], answers[1]


async def test_paris_then_berlin_over_months(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", folders=["_stm"], git_init=True)
    log = tmp_path / "servers.log"
    async with model_on(vault, 0, log) as model:
        paris = (await model.call("save_memory", content=PARIS))["memory_id"]
        for text in NOISE:
            await model.call("save_memory", content=text)
    for day in (3, 8):  # the user's home comes up; the model answers from the memory
        async with model_on(vault, day, log) as model:
            hits = await model.search("where does the user live")
            assert paris in [h["id"] for h in hits]
            await model.call("observe_memory_usage", memory_ids=[paris])

    async with model_on(vault, 10, log) as model:
        saved = await model.call("save_memory", content=BERLIN, supersedes=[paris])
        berlin = saved["memory_id"]
        assert saved["superseded"] == [paris]
        assert saved["commit"]
    assert frontmatter_of(vault / saved["path"])["supersedes"]
    promoted, collected = maintain(vault, 10.5)
    assert paris not in promoted["promoted_ids"], "what is no longer true is never promoted"
    assert berlin in promoted["promoted_ids"], "the correction took over the slot's standing"
    assert collected["memory_ids"] == [paris] and collected["archived_count"] == 1

    for day in (40, 70, 100, 130):
        promoted, collected = maintain(vault, day)
        assert berlin not in collected["memory_ids"] and paris not in promoted["promoted_ids"]

    async with model_on(vault, 131, log) as model:
        hits = await model.search("where does the user live now?")
        assert hits and hits[0]["id"] == berlin
        assert paris not in [h["id"] for h in hits]
        assert hits[0]["supersedes"] == [h for h in hits[0]["supersedes"] if "Paris" in h] != []
        history = await model.search("where does the user live now?", status="all")
        ids = [h["id"] for h in history]
        assert ids.index(berlin) < ids.index(paris)
        assert "Berlin" in history[ids.index(paris)]["superseded_by"][0]
        past = await model.call("memory_history", memory_id=paris)
        assert [c["summary"].split(":")[0] for c in past["commits"]][:2] == ["gc", "save"]
    assert git(vault, "status", "--porcelain") == ""


async def test_removing_superseded_by_in_obsidian_undoes_it(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", folders=["_stm"], git_init=True)
    log = tmp_path / "servers.log"
    async with model_on(vault, 0, log) as model:
        old = await model.call("save_memory", content="My manager is Priya Natarajan.")
        new = await model.call("save_memory", content="Tom Becker became my new manager.")
        await model.call(
            "create_relation", from_memory_id=new["memory_id"], to_memory_id=old["memory_id"],
            relation_type="supersedes",
        )  # fmt: skip
        hits = await model.search("who is my manager")
        assert old["memory_id"] not in [h["id"] for h in hits]
        # The person disagrees and deletes the property in Obsidian's properties panel.
        note = vault / old["path"]
        kept = [ln for ln in note.read_text().splitlines() if not ln.startswith("superseded_by")]
        note.write_text("\n".join(kept) + "\n")
        for _ in range(100):  # the server's own watcher takes the edit in
            hits = await model.search("who is my manager")
            if old["memory_id"] in [h["id"] for h in hits]:
                break
            await anyio.sleep(0.1)
        found = next(h for h in hits if h["id"] == old["memory_id"])
        assert found["superseded_by"] == []


def test_two_devices_each_supersede_then_sync(tmp_path: Path) -> None:
    paris_id = "3f1c9a0e-0000-4000-8000-00000000aaaa"
    job_id = "3f1c9a0e-0000-4000-8000-00000000bbbb"
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    d = Devices(
        tmp_path,
        {"_stm/Paris.md": a_memory(paris_id, uses=4, body=PARIS + "\n"),
         "_stm/Acme.md": a_memory(job_id, uses=2, body="I work at Acme as a designer.\n")},
        now,
    )  # fmt: skip
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    on_laptop = d.service(laptop, timedelta(hours=1))
    on_desktop = d.service(desktop, timedelta(hours=2))
    berlin = on_laptop.save(BERLIN, supersedes=[paris_id])
    kreuzberg = on_desktop.save("We now live in Kreuzberg, Berlin.", supersedes=[paris_id])
    globex = on_desktop.save("I left Acme; I design at Globex now.", supersedes=[job_id])
    on_laptop.sync()
    on_desktop.sync()
    on_laptop.sync()
    for vault in (laptop, desktop):
        old = fields(vault / "_stm/Paris.md")
        assert sorted(old["superseded_by"]) == sorted(
            [f"[[{berlin.title}]]", f"[[{kreuzberg.title}]]"]
        ), "the list merges as a set"
        assert old["valid_until"] == now + timedelta(hours=1), "the earlier end stands"
        assert "merge_conflict" not in old
        assert fields(vault / "_stm/Acme.md")["superseded_by"] == [f"[[{globex.title}]]"]
        assert git_run(vault, "status", "--porcelain").stdout == ""
    found = d.service(laptop, timedelta(days=1)).search("where does the user live", top_k=5)
    ids = [h.id for h in found.results]
    assert paris_id not in ids and {berlin.memory_id, kreuzberg.memory_id} <= set(ids)
