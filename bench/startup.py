"""Start-up figures for `python -m bench`: whole processes, as a person or a client spawns them.

Each figure is the median of 5 spawns after one untimed spawn (so the OS file cache and the
index cache are warm): a bare `python -c pass` (the floor every spawn pays), the CLI's
`--version`, a `search` on the warm vault, and the stdio MCP server from spawn to its
`initialize` answer and to its first `search_memory` answer (and the size of its `tools/list`). `cold_stats` is one spawn of `stats`
on a vault without an index cache.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 5
INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "bench", "version": "1"}},
}  # fmt: skip


def cli_command() -> list[str]:
    script = Path(sys.executable).parent / "cortexgraph-vault"
    return (
        [str(script)] if script.exists() else [sys.executable, "-m", "cortexgraph_vault.cli.main"]
    )


def _spawn(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, check=False)
    took = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{argv} failed:\n{proc.stderr.decode(errors='replace')}")
    return took


def _initialize(argv: list[str], env: dict[str, str]) -> float:
    """Spawn → the `initialize` answer read; then the client leaves and the server exits."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    took = time.perf_counter() - started
    proc.stdin.close()
    proc.wait(timeout=300)
    if b'"result"' not in answer:
        raise SystemExit(f"the MCP server did not answer initialize: {answer!r}")
    return took


def _first_search(argv: list[str], env: dict[str, str], query: str) -> float:
    """Spawn → the answer to the first `search_memory` call, sent right after the handshake,
    as a client that spawns the server for a question does."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    proc.stdin.flush()
    if b'"result"' not in proc.stdout.readline():
        raise SystemExit("the MCP server did not answer initialize")
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "search_memory", "arguments": {"query": query, "top_k": 5}}}  # fmt: skip
    for message in ({"jsonrpc": "2.0", "method": "notifications/initialized"}, call):
        proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()
    while True:
        answer = proc.stdout.readline()
        if not answer:
            raise SystemExit("the MCP server closed before answering search_memory")
        if b'"id":2' in answer.replace(b" ", b""):
            break
    took = time.perf_counter() - started
    proc.stdin.close()
    proc.wait(timeout=300)
    if b'"isError":true' in answer.replace(b" ", b"") or b'"error"' in answer[:200]:
        raise SystemExit(f"the first search_memory failed: {answer[:400]!r}")
    return took


def first_search_s(argv: list[str], env: dict[str, str], query: str, runs: int = RUNS) -> float:
    """The median of `runs` spawns of `_first_search`, after one untimed."""
    _first_search(argv, env, query)
    return statistics.median(_first_search(argv, env, query) for _ in range(runs))


def tools_list_bytes(argv: list[str], env: dict[str, str]) -> int:
    """The size of the stdio server's `tools/list` answer as it goes over the wire."""
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    for message in (
        INITIALIZE,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ):
        proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()
    answer = b""
    while b'"id":2' not in answer.replace(b" ", b""):
        answer = proc.stdout.readline()
        if not answer:
            raise SystemExit("the MCP server closed before answering tools/list")
    proc.stdin.close()
    proc.wait(timeout=300)
    return len(answer.rstrip(b"\n"))


def cold_stats(vault: Path, env: dict[str, str], now: str, cache: Path) -> float:
    """`stats` as a whole process on a vault it has never indexed (an empty cache folder)."""
    shutil.rmtree(cache, ignore_errors=True)
    argv = [*cli_command(), "--vault", str(vault), "--now", now, "stats"]
    return _spawn(argv, {**env, "CORTEXGRAPH_CACHE_DIR": str(cache)})


def _median(measure, argv: list[str], env: dict[str, str], runs: int) -> float:  # type: ignore[no-untyped-def]
    measure(argv, env)  # untimed: warms the file cache and, for the vault, the index cache
    return statistics.median(measure(argv, env) for _ in range(runs))


def startup_figures(
    vault: Path, env: dict[str, str], query: str, memory: str, now: str, runs: int = RUNS
) -> dict[str, float]:
    cli = cli_command()
    on_vault = [*cli, "--vault", str(vault), "--now", now]
    return {
        "floor_s": _median(_spawn, [sys.executable, "-c", "pass"], env, runs),
        "version_s": _median(_spawn, [*cli, "--version"], env, runs),
        "search_cli_s": _median(_spawn, [*on_vault, "search", query], env, runs),
        "show_cli_s": _median(_spawn, [*on_vault, "show", memory], env, runs),
        "stats_cli_s": _median(_spawn, [*on_vault, "stats"], env, runs),
        "mcp_init_s": _median(_initialize, [*on_vault, "mcp"], env, runs),
        "mcp_first_search_s": first_search_s([*on_vault, "mcp"], env, query, runs),
        "tools_list_bytes": tools_list_bytes([*on_vault, "mcp"], env),
    }
