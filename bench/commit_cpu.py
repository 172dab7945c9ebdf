"""Git's CPU per commit of a save, and a save's wall time with its commit, in process.

Saves one memory at a time through `MemoryService.save` (each a commit of its own, as a lone
save is) on a git vault, and sums the CPU of the git processes it started
(`RUSAGE_CHILDREN`), per git command too. `--vault` copies an existing git vault (never
changed); else one is generated.

    python -m bench.commit_cpu [--notes 10000 | --vault PATH] [--saves 30]  # --notes 0: sample
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.org",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.org",
}


def _children_cpu_ms() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (used.ru_utime + used.ru_stime) * 1000


def _vault(work: Path, notes: int, source: Path | None) -> Path:
    vault = work / "vault"
    if source is not None:
        shutil.copytree(source, vault, symlinks=True)
        return vault
    if notes <= 0:
        from bench.daemon_load import sample_vault

        return sample_vault(vault)
    from bench.vaultgen import generate_vault

    vault.mkdir()
    generate_vault(vault, notes)
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-qm", "generated")):
        subprocess.run(["git", "-C", str(vault), *args], check=True, env={**os.environ, **GIT_ENV})
    return vault


def measure(notes: int, source: Path | None, saves: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="cgv-commitcpu-"))
    try:
        os.environ.update(GIT_ENV)
        for name in ("CONFIG", "CACHE", "DATA"):
            os.environ[f"CORTEXGRAPH_{name}_DIR"] = str(work / "home" / name.lower())
        vault = _vault(work, notes, source)
        from cortexgraph_vault.config import load_config
        from cortexgraph_vault.history.runner import GitRunner
        from cortexgraph_vault.service import MemoryService

        per_command: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        run = GitRunner.run

        def counted(self: GitRunner, *args: str, **kwargs: Any) -> Any:
            before = _children_cpu_ms()
            try:
                return run(self, *args, **kwargs)
            finally:
                figure = per_command[args[0]]
                figure[0] += 1
                figure[1] += _children_cpu_ms() - before

        GitRunner.run = counted  # type: ignore[method-assign]
        service = MemoryService(load_config({"vault": str(vault)}))
        service.save("warm up: the first commit reads the config", tags=["bench"])
        from cortexgraph_vault.index.cache.index_cache import wait_for_writes

        wait_for_writes(service.engine.index_cache.path)  # the first index cache is written
        per_command.clear()
        walls = []
        before = _children_cpu_ms()
        for i in range(saves):
            started = time.perf_counter()
            service.save(f"Bench commit {i}: prefers tea at {i} o'clock.", tags=["bench"])
            walls.append((time.perf_counter() - started) * 1000)
        cpu = (_children_cpu_ms() - before) / saves
        GitRunner.run = run  # type: ignore[method-assign]
        wait_for_writes(service.engine.index_cache.path)  # before its folder is removed
        return {
            "notes": notes if source is None else str(source),
            "git_cpu_ms_per_commit": round(cpu, 1),
            "save_wall_p50_ms": round(statistics.median(walls), 1),
            "per_command_ms": {
                name: {"runs": count / saves, "cpu": round(ms / saves, 2)}
                for name, (count, ms) in per_command.items()
            },
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--notes", type=int, default=10_000, help="0: the sample vault")
    p.add_argument("--vault", type=Path, help="a git vault to copy instead of generating one")
    p.add_argument("--saves", type=int, default=30)
    args = p.parse_args(argv)
    print(json.dumps(measure(args.notes, args.vault, args.saves), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
