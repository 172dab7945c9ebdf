"""`cortexgraph-vault search X`, whole process, alone and through the daemon serving the vault.

    python -m bench.cli_daemon [--notes 10000] [--runs 5]

Alone, the CLI imports the service and the index and loads the index cache; through the daemon
it imports the CLI, the result models and http.client, and the daemon answers from its warm
index. Median of `runs` spawns each, after one untimed spawn (file cache, index cache).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.startup import _median, _spawn, cli_command
from bench.vaultgen import generate_vault

BANNER = re.compile(r"REST\s+http://127\.0\.0\.1:(\d+)/api/v1")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cgv-bench-") as tmp:
        work = Path(tmp)
        vault = work / "vault"
        generate_vault(vault, args.notes)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEXGRAPH_")}
        env.update(
            CORTEXGRAPH_CONFIG_DIR=str(work / "config"),
            CORTEXGRAPH_CACHE_DIR=str(work / "cache"),
            CORTEXGRAPH_DATA_DIR=str(work / "data"),
        )
        search = [*cli_command(), "--vault", str(vault), "search", "garden"]
        alone = _median(_spawn, search, {**env, "CORTEXGRAPH_NO_DAEMON": "1"}, args.runs)
        out = work / "daemon.out"
        with out.open("wb") as sink:
            daemon = subprocess.Popen(
                [*cli_command(), "--vault", str(vault), "serve", "--port", "0"],
                stdout=sink, stderr=subprocess.DEVNULL, env=env,
            )  # fmt: skip
        try:
            deadline = time.monotonic() + 600
            while not BANNER.search(out.read_text(errors="replace")):
                if daemon.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the daemon did not start")
                time.sleep(0.1)
            through = _median(_spawn, search, env, args.runs)
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=60)
    print(f"search, whole process, {args.notes} notes (median of {args.runs})")
    print(f"  alone:              {alone * 1000:7.0f} ms")
    print(f"  through the daemon: {through * 1000:7.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
