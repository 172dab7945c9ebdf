"""Consolidation tests' memory notes (on the shared `tests.builders`) and git helpers."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

from tests.builders import a_vault, memory_text, service_for, write_note
from tests.builders import body_of as body
from tests.builders import frontmatter_of as frontmatter
from tests.conftest import NOW, git

__all__ = ["body", "frontmatter", "service_for"]  # shared builders, re-exported for these tests


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
    more: dict[str, object] = {"related": list(related)} if related else {}
    text = memory_text(
        mid, body.strip() + "\n", created=created or NOW - days(2), last_used=last_used,
        use_count=use_count, strength=strength, status=status, tags=tags, entities=entities,
        **more,
    )  # fmt: skip
    write_note(vault, f"{folder}/{title}.md", text)
    return mid


def commit_all(vault: Path, message: str = "setup") -> None:
    if not (vault / ".git").exists():
        a_vault(vault, git_init=True, message=message)
        return
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
