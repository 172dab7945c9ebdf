"""What the MCP door costs: stdio start-up, and tool calls in-process and over real stdio.

    python bench/bench_mcp.py [--notes 1000] [--calls 100]

Prints, for a generated vault: the time from spawning `cortexgraph-vault mcp` to its tools list,
and p50/p95 of search_memory, touch_memory and save_memory called directly on the service,
through the SDK's in-memory client, and through the stdio subprocess (git commits off, so the
figures are the door's and the index's, not git's).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from bench.vaultgen import generate_vault
from cortexgraph_vault.config import load_config
from cortexgraph_vault.engine.call_timing import percentile
from cortexgraph_vault.mcp import build_server
from cortexgraph_vault.service import MemoryService

SETTINGS = {"git_commit_writes": "false"}


def row(name: str, runs: list[float]) -> str:
    ordered = sorted(runs)
    return f"{name:<34} {percentile(ordered, 50):>9.2f} {percentile(ordered, 95):>9.2f}"


async def timed(call: Callable[[], Awaitable[object]], count: int) -> list[float]:
    runs = []
    for _ in range(count):
        start = time.perf_counter()
        await call()
        runs.append((time.perf_counter() - start) * 1000)
    return runs


def workload(vocabulary: tuple[str, ...], ids: list[str], seed: int = 3):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    counter = iter(range(10**9))

    def search() -> dict[str, object]:
        return {"query": " ".join(rng.sample(vocabulary[:300], 2))}

    def touch() -> dict[str, object]:
        return {"memory_id": rng.choice(ids)}

    def save() -> dict[str, object]:
        return {"content": f"bench memory {next(counter)}: " + " ".join(rng.sample(vocabulary, 8))}

    return {"search_memory": search, "touch_memory": touch, "save_memory": save}


async def measure(vault: Path, vocabulary: tuple[str, ...], calls: int) -> list[str]:
    service = MemoryService(load_config({"vault": str(vault), **SETTINGS}))
    service.engine.start_watcher()  # as in `mcp` and the daemon: no stat walk per call
    ids = [m.id for m in service.engine.catalog.memories() if m.id and m.status == "active"]
    lines = []
    direct = {
        "search_memory": lambda a: service.search(a["query"]),
        "touch_memory": lambda a: service.touch(a["memory_id"]),
        "save_memory": lambda a: service.save(a["content"]),
    }
    args = workload(vocabulary, ids)
    for name, call in direct.items():

        async def run(call=call, name=name) -> object:  # type: ignore[no-untyped-def]
            return call(args[name]())

        lines.append(row(f"service.{name} (direct)", await timed(run, calls)))

    async with Client(build_server(service)) as client:
        for name in direct:

            async def run(name=name) -> object:  # type: ignore[no-untyped-def]
                return await client.call_tool(name, args[name]())

            lines.append(row(f"{name} (in-memory client)", await timed(run, calls)))

    service.engine.stop_watcher()
    env = dict(os.environ)
    env.update({"CORTEXGRAPH_VAULT": str(vault), "CORTEXGRAPH_GIT_COMMIT_WRITES": "false"})
    script = Path(sys.executable).parent / "cortexgraph-vault"
    params = StdioServerParameters(command=str(script), args=["mcp"], env=env)
    start = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.list_tools()
            lines.insert(
                0,
                f"{'stdio start → tools listed (ms)':<34} {(time.perf_counter() - start) * 1000:>9.0f}",
            )
            for name in direct:

                async def run(name=name) -> object:  # type: ignore[no-untyped-def]
                    return await session.call_tool(name, args[name]())

                lines.append(row(f"{name} (stdio)", await timed(run, calls)))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=100)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("CORTEXGRAPH_CACHE_DIR", str(Path(tmp) / "cache"))
        os.environ.setdefault("CORTEXGRAPH_CONFIG_DIR", str(Path(tmp) / "config"))
        vault = generate_vault(Path(tmp) / "vault", options.notes)
        lines = anyio.run(measure, vault.root, vault.vocabulary, options.calls)
    print(f"MCP door, {options.notes} notes, {options.calls} calls each")
    print(f"{'':<34} {'p50 ms':>9} {'p95 ms':>9}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
