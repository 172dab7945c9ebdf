"""Builders the import tests share: a service over a vault, the fixtures, vault snapshots."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW_ISO

FIXTURES = Path(__file__).parent / "fixtures"
CORTEXGRAPH = FIXTURES / "cortexgraph"
MEMORY_JSON = FIXTURES / "memory_json" / "memory.json"


def service(vault: Path, now: str = NOW_ISO, **settings: Any) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": now, **settings}))


def empty_git_vault(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "-C", str(path), "init", "-q", "-b", "main"], check=True)
    return path


def snapshot(vault: Path) -> dict[str, bytes]:
    """Every file of the vault (git's folder aside) with its exact bytes."""
    return {
        p.relative_to(vault).as_posix(): p.read_bytes()
        for p in sorted(vault.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(vault).parts
    }


def commits(vault: Path) -> int:
    out = subprocess.run(
        ["git", "-C", str(vault), "rev-list", "--count", "HEAD"], capture_output=True, text=True
    )
    return int(out.stdout.strip()) if out.returncode == 0 else 0


def copy_store(dest: Path) -> Path:
    """A copy of the CortexGraph fixture a test may append to."""
    shutil.copytree(CORTEXGRAPH, dest)
    return dest


def append(path: Path, *records: dict[str, Any]) -> None:
    """New lines at the end (after the fixture's truncated line, which stays a bad line)."""
    if not path.read_bytes().endswith(b"\n"):
        with path.open("a", encoding="utf-8") as fh:
            fh.write("\n")
    with path.open("a", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")


def fixture_records() -> dict[str, dict[str, Any]]:
    """The fixture's surviving memories, read with the plainest code: last line wins."""
    alive: dict[str, dict[str, Any]] = {}
    for line in (CORTEXGRAPH / "memories.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if obj.get("_deleted"):
            alive.pop(obj["id"], None)
        elif obj.get("content", "").strip():
            alive[obj["id"]] = obj
    return alive
