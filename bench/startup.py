"""Start-up figures for `python -m bench`: whole processes, as a person or a client spawns them.

Each figure is the median of 5 spawns after one untimed spawn (so the OS file cache and the
index cache are warm): a bare `python -c pass` (the floor every spawn pays), the CLI's
`--version`, a `search` on the warm vault, and the stdio MCP server from spawn to its
`initialize` answer.
"""

from __future__ import annotations

import json
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


def _median(measure, argv: list[str], env: dict[str, str], runs: int) -> float:  # type: ignore[no-untyped-def]
    measure(argv, env)  # untimed: warms the file cache and, for the vault, the index cache
    return statistics.median(measure(argv, env) for _ in range(runs))


def startup_figures(
    vault: Path, env: dict[str, str], query: str, now: str, runs: int = RUNS
) -> dict[str, float]:
    cli = cli_command()
    on_vault = [*cli, "--vault", str(vault), "--now", now]
    return {
        "floor_s": _median(_spawn, [sys.executable, "-c", "pass"], env, runs),
        "version_s": _median(_spawn, [*cli, "--version"], env, runs),
        "search_cli_s": _median(_spawn, [*on_vault, "search", query], env, runs),
        "mcp_init_s": _median(_initialize, [*on_vault, "mcp"], env, runs),
    }
