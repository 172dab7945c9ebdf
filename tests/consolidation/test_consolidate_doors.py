"""The doors: the real CLI in a subprocess, and the MCP tools through the SDK's client."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import NOW
from tests.consolidation.builders import a_memory, commit_all, commits, days, frontmatter
from tests.mcp.mcp_session import assert_matches_schema, connected, service_for, text_of


@pytest.fixture
def cli(cli_in_process):  # type: ignore[no-untyped-def]
    """This module's tests are about what the commands answer: the CLI's main in this process
    (tests/cli/test_main.py and others start the program for real)."""
    return cli_in_process


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "vault"
    a_memory(
        v,
        "Linear for issues",
        "The team uses Linear for issue tracking, not Jira.",
        memory_id="lin-1",
        created=NOW - days(9),
        use_count=2,
    )
    a_memory(
        v,
        "Issue tracker",
        "Our team uses Linear for issue tracking, not Jira.",
        memory_id="lin-2",
        created=NOW - days(4),
        use_count=3,
    )
    a_memory(v, "Piranesi", "Maya reads before bed and is currently reading Piranesi.",
             memory_id="book")  # fmt: skip
    commit_all(v)
    return v


def test_cli_cluster_then_consolidate_one_cluster(cli, vault: Path) -> None:  # type: ignore[no-untyped-def]
    listed = cli("--json", "cluster", vault=vault)
    assert listed.code == 0, listed.err
    [cluster] = listed.json()["clusters"]
    assert sorted(cluster["memory_ids"]) == ["lin-1", "lin-2"]
    human = cli("cluster", vault=vault)
    assert cluster["id"] in human.out and "merge" in human.out
    preview = cli("consolidate", "--cluster-id", cluster["id"], vault=vault)
    assert preview.code == 0 and "previewed" in preview.out and "uses 5" in preview.out
    done = cli(
        "--json", "consolidate", "--cluster-id", cluster["id"], "--mode", "apply", vault=vault
    )
    assert done.code == 0, done.err
    merged = done.json()["results"][0]
    assert frontmatter(vault / merged["new_path"])["use_count"] == 5
    stale = cli("consolidate", "--cluster-id", cluster["id"], "--mode", "apply", vault=vault)
    assert stale.code == 3 and "is stale" in stale.err and "is now archived" in stale.err


def test_cli_dry_run_then_apply_the_reviewed_plan(cli, vault: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = tmp_path / "review" / "plan.json"
    dry = cli("consolidate", "--dry-run", "--plan-out", str(plan), vault=vault)
    assert dry.code == 0, dry.err
    assert "SemanticMerge (merge): 1 item" in dry.out and "nothing was changed" in dry.out
    assert plan.is_file() and plan.with_suffix(".txt").is_file()
    before = commits(vault)
    applied = cli("--json", "consolidate", "--apply", str(plan), vault=vault)
    assert applied.code == 0, applied.err
    outcomes = {o["stage"]: o["outcome"] for o in applied.json()["outcomes"]}
    assert outcomes["merge"] == "applied"
    assert len(commits(vault)) == len(before) + 1


def test_cli_errors_are_one_clear_line(cli, vault: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    missing = cli("consolidate", "--apply", str(tmp_path / "nope.json"), vault=vault)
    assert missing.code == 2 and "nope.json: no such plan file" in missing.err
    sched = cli("consolidate", "--scheduled", vault=vault)
    assert sched.code == 2 and "--interval-hours" in sched.err
    mixed = cli("consolidate", "--apply", "x.json", "--dry-run", vault=vault)
    assert mixed.code == 2 and "--apply FILE applies that plan as it stands" in mixed.err
    agent = cli("consolidate", "--agent", "gardener", "--dry-run", vault=vault)
    assert agent.code == 2 and "not a pipeline stage" in agent.err


@pytest.mark.anyio
async def test_mcp_cluster_id_works_in_the_next_consolidate_call(vault: Path) -> None:
    async with connected(service_for(vault)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        listed = assert_matches_schema(
            tools["cluster_memories"], await client.call_tool("cluster_memories", {})
        )
        [cluster] = listed["clusters"]
        result = await client.call_tool(
            "consolidate_memories", {"cluster_id": cluster["id"], "mode": "apply"}
        )
        done = assert_matches_schema(tools["consolidate_memories"], result)
        assert done["merged_count"] == 1
        again = await client.call_tool(
            "consolidate_memories", {"cluster_id": cluster["id"], "mode": "apply"}
        )
        assert again.is_error and again.structured_content is not None
        assert again.structured_content["error"] == "stale"
        assert "is stale" in text_of(again) and "Linear for issues" in text_of(again)
    assert not (vault / "_stm" / "Issue tracker.md").exists()
    assert json.loads(json.dumps(done))["results"][0]["archived"]
