"""`cortexgraph-vault mcp` as a real subprocess: an SDK client session, and a raw stream check."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import NOW_ISO
from tests.mcp.mcp_session import cli_command, vault_fingerprint

pytestmark = pytest.mark.anyio


def child_env() -> dict[str, str]:
    """The isolated config, cache and git identity the test process runs with."""
    keep = ("CORTEXGRAPH_", "GIT_", "PYTHONPATH", "HOME", "PATH")
    return {k: v for k, v in os.environ.items() if k.startswith(keep)}


def server_argv(vault: Path, *extra: str) -> list[str]:
    return [*cli_command(), *extra, "--vault", str(vault), "--now", NOW_ISO, "mcp"]


async def test_stdio_session_save_search_touch_gc_preview_history(
    git_vault: Path, tmp_path: Path
) -> None:
    argv = server_argv(git_vault)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env())
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            init = await session.initialize()
            assert init.server_info.name == "cortexgraph-vault"
            assert "save_memory" in (init.instructions or "")
            names = {t.name for t in (await session.list_tools()).tools}
            assert {"save_memory", "search_memory", "touch_memory", "gc", "memory_history"} <= names

            saved = await session.call_tool(
                "save_memory", {"content": "Maya's bike is a green Brompton.", "tags": ["bike"]}
            )
            assert not saved.is_error, saved.content
            memory_id = saved.structured_content["memory_id"]
            assert "green Brompton" in (git_vault / saved.structured_content["path"]).read_text()

            found = await session.call_tool("search_memory", {"query": "Brompton bike"})
            assert [r["id"] for r in found.structured_content["results"]] == [memory_id]

            touched = await session.call_tool("touch_memory", {"memory_id": memory_id})
            assert touched.structured_content["use_count"] == 2

            before = vault_fingerprint(git_vault)
            preview = await session.call_tool("gc", {"dry_run": True})
            assert preview.structured_content["dry_run"] is True
            assert (
                preview.structured_content["total_affected"]
                == len(preview.structured_content["candidates"])
                > 0
            )
            assert vault_fingerprint(git_vault) == before

            history = await session.call_tool("memory_history", {"memory_id": memory_id})
            commits = history.structured_content["commits"]
            assert commits and commits[-1]["summary"].startswith("save: ")

            status = await session.call_tool("vault_status", {})
            assert status.structured_content["watcher"]["running"] is True
            # A person writes a memory in Obsidian; the server's own watcher picks it up.
            (git_vault / "_stm" / "Locker code.md").write_text("Maya's gym locker code is 2718.\n")
            assert await eventually_found(session, "gym locker code", "_stm/Locker code.md")


async def eventually_found(session: ClientSession, query: str, path: str) -> bool:
    for _ in range(100):
        found = await session.call_tool("search_memory", {"query": query})
        if path in [r["path"] for r in found.structured_content["results"]]:
            return True
        await anyio.sleep(0.1)
    return False


class RawServer:
    """The server process spoken to in raw JSON-RPC lines, keeping every stdout line it writes."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=child_env(),
        )  # fmt: skip
        self.lines: list[bytes] = []
        self._queue: queue.Queue[bytes] = queue.Queue()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()
        self._next_id = 0

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self._queue.put(line)

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> dict:
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params or {}})
        while True:
            line = self._queue.get(timeout=60)
            self.lines.append(line)
            message = json.loads(line)
            if message.get("id") == self._next_id:
                return message

    def close(self) -> str:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        while not self._queue.empty():
            self.lines.append(self._queue.get())
        return b"".join(self._stderr).decode(errors="replace")


def broken_vault(root: Path) -> Path:
    (root / "_stm").mkdir(parents=True)
    (root / "_stm" / "Bad yaml.md").write_text(
        "---\ntags: [unclosed\nsource: chat: 2025\n---\nBody.\n"
    )
    (root / "_stm" / "Latin one.md").write_bytes(
        b"---\nuse_count: 2\n---\ncaf\xe9 au lait \xff\xfe\n"
    )
    (root / "_stm" / "Empty.md").write_bytes(b"")
    (root / "_stm" / "Fine.md").write_text(
        "---\nuse_count: 1\ntags: [coffee]\n---\nMaya likes flat whites.\n"
    )
    (root / "Notes").mkdir()
    (root / "Notes" / "Half frontmatter.md").write_text("---\ntitle: never closed\n\nText.\n")
    return root


def test_stdout_carries_only_json_rpc_over_a_vault_with_broken_notes(tmp_path: Path) -> None:
    vault = broken_vault(tmp_path / "vault")
    before = vault_fingerprint(vault)
    server = RawServer(server_argv(vault, "-v"))
    try:
        init = server.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "1"},
        })  # fmt: skip
        assert init["result"]["serverInfo"]["name"] == "cortexgraph-vault"
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert len(server.request("tools/list")["result"]["tools"]) >= 20
        search = server.request(
            "tools/call", {"name": "search_memory", "arguments": {"query": "flat whites"}}
        )
        assert [r["title"] for r in search["result"]["structuredContent"]["results"]] == ["Fine"]
        status = server.request("tools/call", {"name": "vault_status", "arguments": {}})
        unreadable = status["result"]["structuredContent"]["unparseable"]
        assert {u["path"] for u in unreadable} >= {
            "_stm/Bad yaml.md",
            "_stm/Latin one.md",
            "_stm/Empty.md",
        }
        assert status["result"]["structuredContent"]["watcher"]["running"] is True
        stats = server.request("resources/read", {"uri": "vault://stats"})
        problems = json.loads(stats["result"]["contents"][0]["text"])["problems"]
        assert {"_stm/Bad yaml.md", "_stm/Latin one.md"} <= {p["path"] for p in problems}
        touch = server.request(
            "tools/call", {"name": "touch_memory", "arguments": {"memory_id": "nowhere"}}
        )
        assert touch["result"]["isError"] is True
        bad = server.request("tools/call", {"name": "gc", "arguments": {"limit": "lots"}})
        assert bad["result"]["isError"] is True
        preview = server.request("tools/call", {"name": "gc", "arguments": {"dry_run": True}})
        assert preview["result"]["structuredContent"]["dry_run"] is True
    finally:
        stderr = server.close()
    assert server.lines, "the server wrote nothing"
    for line in server.lines:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0", line
    assert "touch_memory" in stderr, "logs should go to stderr"
    assert vault_fingerprint(vault) == before, "indexing and previews never write to the vault"


def test_a_missing_vault_is_a_clear_error_on_stderr_and_nothing_on_stdout(
    tmp_path: Path, cli
) -> None:
    result = cli("mcp", vault=tmp_path / "no such vault")
    assert result.code == 2
    assert result.out == ""
    assert "no such vault" in result.err and "does not exist" in result.err
