"""The MCP Inspector's headless CLI lists the tools and calls save_memory and search_memory
against `cortexgraph-vault mcp` — a client we did not write, as CI runs it.

Needs `npm ci --prefix tools/inspector`; without it the test is skipped locally and FAILS in CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cortexgraph_vault.core.note import parse_note
from tests.conftest import NOW_ISO
from tests.mcp.mcp_session import cli_command, vault_fingerprint

INSPECTOR = Path(__file__).resolve().parents[2] / "tools" / "inspector"
INSTALL = "npm ci --prefix tools/inspector"


@pytest.fixture
def inspector() -> Path:
    launcher = INSPECTOR / "node_modules" / ".bin" / "mcp-inspector"
    if not launcher.exists() or shutil.which("npx") is None:
        reason = f"the MCP Inspector is not installed; run `{INSTALL}` (needs node and npm)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return INSPECTOR


def run_inspector(inspector: Path, vault: Path, *method: str) -> dict:
    # The vault and clock go by environment: the Inspector keeps flags after the target for itself.
    env = {**os.environ, "CORTEXGRAPH_VAULT": str(vault), "CORTEXGRAPH_NOW": NOW_ISO}
    argv = [
        "npx",
        "--prefix",
        str(inspector),
        "mcp-inspector",
        "--cli",
        *cli_command(),
        "mcp",
        *method,
    ]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_inspector_lists_tools_and_saves_and_searches(inspector: Path, git_vault: Path) -> None:
    listed = run_inspector(inspector, git_vault, "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert {"save_memory", "search_memory", "open_memories", "gc", "memory_history"} <= set(tools)
    assert tools["gc"]["annotations"]["destructiveHint"] is True
    assert tools["search_memory"]["annotations"]["readOnlyHint"] is True

    saved = run_inspector(
        inspector, git_vault, "--method", "tools/call", "--tool-name", "save_memory",
        "--tool-arg", "content=Maya keeps her passport in the blue folder.",
        "--tool-arg", 'tags=["travel", "Documents"]',
    )  # fmt: skip
    assert saved.get("isError") is not True, saved
    memory = saved["structuredContent"]
    note = parse_note((git_vault / memory["path"]).read_text())
    assert "blue folder" in note.body and note.frontmatter["tags"] == ["travel", "documents"]

    before = vault_fingerprint(git_vault)
    found = run_inspector(
        inspector, git_vault, "--method", "tools/call", "--tool-name", "search_memory",
        "--tool-arg", "query=passport", "--tool-arg", "top_k=3",
    )  # fmt: skip
    assert found.get("isError") is not True, found
    assert [r["id"] for r in found["structuredContent"]["results"]] == [memory["id"]]
    assert vault_fingerprint(git_vault) == before
