"""Builders for consolidation tests: memory notes with chosen fields, a service, git helpers."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.note import parse_note, render_note
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW, git


def days(n: float) -> timedelta:
    return timedelta(days=n)


def a_memory(
    vault: Path,
    title: str,
    body: str,
    *,
    memory_id: str | None = None,
    created: datetime | None = None,
    last_used: datetime | None = None,
    use_count: int = 1,
    strength: float = 1.0,
    tags: Sequence[str] = (),
    entities: Sequence[str] = (),
    related: Sequence[str] = (),
    folder: str = "_stm",
    status: str = "active",
) -> str:
    """Write a memory note; returns its id."""
    mid = memory_id or str(uuid.uuid4())
    created = created or NOW - days(2)
    fields: dict[str, object] = {
        "id": mid,
        "created": created,
        "last_used": last_used or created,
        "use_count": use_count,
        "strength": strength,
        "status": status,
        "tags": list(tags),
        "entities": list(entities),
    }
    if related:
        fields["related"] = list(related)
    path = vault / folder / f"{title}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_note(fields, body.strip() + "\n"), encoding="utf-8")
    return mid


def service_for(vault: Path, now: datetime = NOW, **settings: object) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), **settings}), clock=lambda: now)


def frontmatter(path: Path) -> dict:  # type: ignore[type-arg]
    return parse_note(path.read_text(encoding="utf-8")).frontmatter


def body(path: Path) -> str:
    return parse_note(path.read_text(encoding="utf-8")).body


def commit_all(vault: Path, message: str = "setup") -> None:
    if not (vault / ".git").exists():
        git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", message)


def commits(vault: Path) -> list[str]:
    return git(vault, "log", "--format=%H").split()


def message_of(vault: Path, rev: str = "HEAD") -> str:
    return git(vault, "log", "-1", "--format=%B", rev)


def changed_in(vault: Path, rev: str = "HEAD") -> list[str]:
    """Paths a commit touched (renames shown as their two sides)."""
    out = git(vault, "show", "--no-renames", "--name-only", "--format=", rev)
    return sorted(p for p in out.splitlines() if p)
