"""Builders for the intelligence tests: a vault of notes with titles, aliases and tags."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.builders import memory_text, write_note
from tests.conftest import NOW, NOW_ISO

NOTES = {
    "Projects/Project Atlas.md": "---\naliases: [Atlas]\ntags: [project, work]\n---\n# Project Atlas\n",
    "Projects/Ledger Migration.md": "---\ntags: [project]\n---\nMove billing off the old ledger.\n",
    "Reading/Designing Data-Intensive Applications.md": "---\naliases:\n  - DDIA\n---\nKleppmann.\n",
    "People/Priya Raman.md": "---\naliases: Priya\ntags: [person]\n---\nSRE.\n",
    "Homelab.md": "Proxmox box under the stairs.\n",
    "Go.md": "Notes on the Go language.\n",
    "Rest.md": "Notes on resting well.\n",
    "Key.md": "Where the spare key is.\n",
    "Work/Standup.md": "Work standup.\n",
    "Personal/Standup.md": "Family standup.\n",
    "Areas/Running.md": "---\ntags: [health, running]\n---\nTraining log.\n",
}


def write_notes(root: Path, notes: dict[str, str] = NOTES) -> Path:
    for rel, text in notes.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "_stm").mkdir(exist_ok=True)
    return root


def memory_note(root: Path, name: str, body: str, *, tags: list[str], last_used: datetime,
                use_count: int = 1, memory_id: str | None = None) -> Path:  # fmt: skip
    text = memory_text(memory_id or name.lower().replace(" ", "-"), f"{body}\n",
                       created=last_used - timedelta(days=1), last_used=last_used,
                       use_count=use_count, tags=tags)  # fmt: skip
    return write_note(root, f"_stm/{name}.md", text)


def service_for(vault: Path, now: str = NOW_ISO, **settings: object) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": now, **settings}))


__all__ = ["NOTES", "NOW", "memory_note", "service_for", "write_notes"]
