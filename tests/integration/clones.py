"""Builders for multi-device tests: a bare remote and clones of one vault, each with its service."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault

MEMORY = """\
---
id: {id}
created: 2026-11-20T10:00:00Z
last_used: 2026-11-30T10:00:00Z
use_count: {uses}
strength: 1.0
status: active
tags: [drinks]
# kept by hand
mood: calm
---
{body}"""


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=check, timeout=120
    )


def a_memory(memory_id: str, *, uses: int = 5, body: str = "I prefer green tea.\n") -> str:
    return MEMORY.format(id=memory_id, uses=uses, body=body)


def service(vault: Path, now: datetime, **settings: object) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), **settings}), clock=lambda: now)


def seed_vault(root: Path, notes: dict[str, str]) -> Path:
    return a_vault(root, {**notes, "Home.md": "# Home\nMy own note.\n"})


class Devices:
    """A bare remote and named clones of a vault seeded with `notes`, each initialised by
    `cortexgraph-vault init` (which installs the merge driver)."""

    def __init__(self, tmp: Path, notes: dict[str, str], now: datetime) -> None:
        self.tmp = tmp
        self.now = now
        origin = seed_vault(tmp / "origin", notes)
        git(origin, "init", "-q", "-b", "main")
        service(origin, now).init_git()
        self.remote = tmp / "remote.git"
        git(tmp, "clone", "-q", "--bare", str(origin), str(self.remote))

    def clone(self, name: str) -> Path:
        path = self.tmp / name
        git(self.tmp, "clone", "-q", str(self.remote), str(path))
        service(path, self.now).init_git()
        return path

    def service(self, vault: Path, later: timedelta = timedelta(0)) -> MemoryService:
        return service(vault, self.now + later)


def fields(path: Path) -> dict[str, object]:
    parsed = parse_note(path.read_text(encoding="utf-8"))
    assert parsed.problem is None, f"{path}: {parsed.problem}"
    return parsed.frontmatter
