"""`serve --demo`: the README's run command on a fresh machine."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.vault.sample import authored_at, sample_vault_source
from tests.api.daemon_process import Daemon, isolated_env, launch, wait_ready
from tests.conftest import NOW, NOW_ISO, git

TYPESCRIPT = "_stm/Prefers TypeScript.md"


def desktop_config(banner: str) -> dict:
    start = banner.index("{")
    depth = 0
    for i, ch in enumerate(banner[start:], start):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return json.loads(banner[start : i + 1])
    raise AssertionError("no JSON block in the banner")


def start_demo(home: Path, *args: str) -> Daemon:
    return wait_ready(launch(home, "serve", "--demo", "--port", "0", *args))


def test_demo_prints_what_a_newcomer_needs_and_serves_the_sample(tmp_path: Path) -> None:
    home = tmp_path / "home"
    d = start_demo(home)
    try:
        vault = (home / "data" / "demo-vault").resolve()
        banner = d.out
        assert d.url in banner and f"{d.url}/mcp" in banner
        assert str(home / "config" / "token") in banner
        assert str(vault) in banner

        server = desktop_config(banner)["mcpServers"]["cortexgraph"]
        assert Path(server["command"]).is_absolute() and Path(server["command"]).exists()
        assert server["args"][-3:] == ["--vault", str(vault), "mcp"]
        claude_code = re.search(r"claude mcp add cortexgraph -- (.+)", banner)
        assert claude_code and str(vault) in claude_code.group(1)
        assert (
            f'claude mcp add --transport http cortexgraph {d.url}/mcp --header "Authorization: Bearer'
            in banner
        )
        assert "npm run install-plugin --" in banner and "obsidian-plugin" in banner
        # The same plugin install commands as the README's.
        readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
        steps = "npm ci && npm run build && npm run install-plugin --"
        assert steps in banner and f"cd obsidian-plugin && {steps}" in readme

        # The sample vault, as a git repository, its times moved to now.
        assert git(vault, "log", "--oneline").strip()
        source = (sample_vault_source() / TYPESCRIPT).read_text()
        authored = parse_time(parse_note(source).frontmatter["last_used"])
        ours = parse_time(parse_note((vault / TYPESCRIPT).read_text()).frontmatter["last_used"])
        assert authored and ours
        assert ours - authored == NOW - authored_at(sample_vault_source())
        listed = d.client().get("/api/v1/memories", params={"page_size": 200}).json()
        assert TYPESCRIPT in [m["path"] for m in listed["memories"]]
    finally:
        assert d.stop() == 0


@pytest.mark.anyio
async def test_the_printed_claude_desktop_command_starts_a_working_mcp_server(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    d = start_demo(home)
    server = desktop_config(d.out)["mcpServers"]["cortexgraph"]
    assert d.stop() == 0
    params = StdioServerParameters(
        command=server["command"], args=server["args"], env=isolated_env(home)
    )
    with (tmp_path / "stdio-err.txt").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            opened = await session.call_tool(
                "open_memories", {"memory_ids": ["Prefers TypeScript"]}
            )
    assert not opened.is_error
    assert opened.structured_content["memories"][0]["path"] == TYPESCRIPT


def test_demo_keeps_the_vault_between_runs_unless_fresh(tmp_path: Path) -> None:
    home = tmp_path / "home"
    d = start_demo(home)
    vault = home / "data" / "demo-vault"
    c = d.client()
    before = c.get("/api/v1/memories/Prefers TypeScript").json()["use_count"]
    c.post("/api/v1/memories/Prefers TypeScript/touch")
    assert d.stop() == 0

    again = start_demo(home)
    assert "kept from last time" in again.out
    assert (
        again.client().get("/api/v1/memories/Prefers TypeScript").json()["use_count"] == before + 1
    )
    fresh = launch(home, "serve", "--demo", "--fresh", "--port", "0")
    fresh.proc.wait(timeout=60)
    assert (
        fresh.proc.returncode == 5 and f"pid {again.proc.pid}" in fresh.err
    )  # never under a live daemon
    assert vault.is_dir()
    assert again.stop() == 0

    renewed = start_demo(home, "--fresh")
    assert "made just now" in renewed.out
    assert renewed.client().get("/api/v1/memories/Prefers TypeScript").json()["use_count"] == before
    assert renewed.stop() == 0


def test_fresh_without_demo_is_refused(tmp_path: Path, git_vault: Path) -> None:
    d = launch(tmp_path / "home", "serve", "--fresh", vault=git_vault)
    assert d.proc.wait(timeout=60) == 2
    assert "--fresh only applies with --demo" in d.err


def test_the_banner_says_how_to_run_the_cli_against_the_demo_vault(tmp_path: Path) -> None:
    """Started with a PATH that lacks the program (as after ./scripts/demo, which installs into
    .venv), the banner's lines make the bare `cortexgraph-vault` work on the demo vault."""
    home = tmp_path / "home"
    plain_path = "/usr/local/bin:/usr/bin:/bin"
    d = wait_ready(launch(home, "serve", "--demo", "--port", "0",
                          env=isolated_env(home, PATH=plain_path)))  # fmt: skip
    try:
        vault = (home / "data" / "demo-vault").resolve()
        block = d.out.split("Command line, in another terminal:\n", 1)[1].split("\n\n", 1)[0]
        lines = [line.strip() for line in block.splitlines()]
        assert lines[-1].startswith("cortexgraph-vault search typescript")
        assert f"export CORTEXGRAPH_VAULT={vault}" in lines
        assert lines[0].startswith("export PATH=")
        script = "\n".join([*lines[:-1], "cortexgraph-vault --json search typescript"])
        env = isolated_env(home, PATH=plain_path, CORTEXGRAPH_NOW=NOW_ISO,
                           CORTEXGRAPH_NO_DAEMON="1")  # fmt: skip
        ran = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                             timeout=120)  # fmt: skip
        assert ran.returncode == 0, ran.stderr
        assert TYPESCRIPT in [hit["path"] for hit in json.loads(ran.stdout)["results"]]
    finally:
        assert d.stop() == 0
