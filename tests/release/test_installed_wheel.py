"""The built wheel in a clean venv, with the network out of reach: the MCP server started the
way Claude Desktop starts the bundle, and `serve --demo` answering /health."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from cortexgraph_vault.core.note import parse_note
from tests.release.conftest import IN_THE_CHECKOUT, Dist, Installed, offline

pytestmark = IN_THE_CHECKOUT

# Run inside the offline sandbox (no route out, so the test asks from within): start the
# demo, wait for its banner's URL, ask /health, stop it, print what /health said.
DEMO_CHECK = r"""
import json, re, signal, subprocess, sys, time, urllib.request

demo = subprocess.Popen(["cortexgraph-vault", "serve", "--demo", "--port", "0"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.monotonic() + 120
banner = ""
while time.monotonic() < deadline:
    line = demo.stdout.readline()
    if not line:
        break
    banner += line
    found = re.search(r"REST\s+(http://127\.0\.0\.1:\d+)/api/v1", banner)
    if found:
        with urllib.request.urlopen(found.group(1) + "/health", timeout=30) as answer:
            health = json.loads(answer.read())
        break
demo.send_signal(signal.SIGTERM)
out, err = demo.communicate(timeout=60)
print(json.dumps({"health": health if found else None, "banner": banner + out, "err": err,
                  "code": demo.returncode}))
"""


def substituted(value: str, bundle: Path, vault: Path) -> str:
    return value.replace("${__dirname}", str(bundle)).replace("${user_config.vault}", str(vault))


@pytest.mark.anyio
async def test_the_bundle_starts_the_installed_server_and_a_tool_answers(
    dist: Dist, installed: Installed, tmp_path: Path
) -> None:
    bundle = tmp_path / "bundle"
    with zipfile.ZipFile(dist.one("*.mcpb")) as z:
        z.extractall(bundle)
    config = json.loads((bundle / "manifest.json").read_text())["server"]["mcp_config"]
    vault = tmp_path / "My Vault"
    vault.mkdir()
    python3 = shutil.which(config["command"]) or sys.executable
    argv = offline([python3, *(substituted(a, bundle, vault) for a in config["args"])])
    params = StdioServerParameters(
        command=argv[0], args=argv[1:], env=installed.env(tmp_path / "home")
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        hello = await session.initialize()
        assert hello.server_info.name == "cortexgraph-vault"
        assert hello.server_info.version == dist.version
        listed = {t.name for t in (await session.list_tools()).tools}
        promised = {t["name"] for t in json.loads((bundle / "manifest.json").read_text())["tools"]}
        assert listed == promised
        saved = await session.call_tool(
            "save_memory", {"content": "Maya takes her coffee with oat milk", "tags": ["drinks"]}
        )
        assert not saved.is_error, saved.content
    notes = list((vault / "_stm").glob("*.md"))
    assert len(notes) == 1
    assert parse_note(notes[0].read_text()).frontmatter["tags"] == ["drinks"]
    assert installed.attempts() == ""


def test_the_installed_demo_serves_and_answers_health_offline(
    installed: Installed, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    run = subprocess.run(
        offline([str(installed.bin / "python"), "-c", DEMO_CHECK]),
        capture_output=True, text=True, env=installed.env(home), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["health"] is not None, seen["banner"] + seen["err"]
    assert seen["health"] == {"ok": True}
    assert seen["code"] == 0, seen["err"]
    assert (home / "data" / "demo-vault" / "_stm").is_dir()
    assert installed.attempts() == ""


def test_the_offline_guard_refuses_and_records_a_connection_out(
    installed: Installed, tmp_path: Path
) -> None:
    """The guard the two tests above rely on does see a connection to another host."""
    probe = "import socket; socket.socket().connect(('192.0.2.1', 80))"
    run = subprocess.run(
        offline([str(installed.bin / "python"), "-c", probe]),
        capture_output=True, text=True, env=installed.env(tmp_path / "home",
        CORTEXGRAPH_TEST_NETWORK_LOG=str(tmp_path / "log")), timeout=60,
    )  # fmt: skip
    assert run.returncode != 0
    assert "socket.connect '192.0.2.1'" in (tmp_path / "log").read_text()
