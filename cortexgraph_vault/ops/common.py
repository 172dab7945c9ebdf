"""Small pieces the operations share: fresh memory from a parsed note, link names, trailers."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from datetime import datetime

from cortexgraph_vault.core.memory import Memory, memory_from_fields
from cortexgraph_vault.core.note import ParsedNote
from cortexgraph_vault.engine import VaultEngine

_LINK = re.compile(r"^\s*!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]\s*$")


def fresh_memory(engine: VaultEngine, rel: str, parsed: ParsedNote, seen: Memory) -> Memory:
    """The memory as the file says *now* (inside a write), defaults from what we saw."""
    return memory_from_fields(
        path=rel,
        title=seen.title,
        frontmatter=parsed.frontmatter,
        body=parsed.body,
        content_hash=seen.content_hash,
        file_created=seen.created,
        file_modified=seen.last_used,
        folder_status=engine.layout.status_for_folder(rel),
    )


def link_target(value: str) -> str:
    """`[[Folder/Name#h|alias]]` → `Folder/Name`; plain text is returned stripped."""
    match = _LINK.match(value)
    return (match.group(1) if match else value).strip()


def link_for(memory: Memory) -> str:
    return f"[[{memory.title}]]"


def points_to(value: str, memory: Memory) -> bool:
    target = link_target(value).lower().removesuffix(".md")
    return target in (memory.title.lower(), memory.path.lower().removesuffix(".md")) or (
        memory.id is not None and target == memory.id.lower()
    )


def relation_id(from_id: str | None, to_id: str | None, kind: str, target: str) -> str:
    key = f"{from_id}|{to_id or target.lower()}|{kind}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def trailers(operation: str, ids: Iterable[str], key: str = "Memory") -> str:
    lines = [f"Cortexgraph-Operation: {operation}"]
    lines += [f"Cortexgraph-{key}: {i}" for i in ids]
    return "\n".join(lines)


def id_changes(memory: Memory, parsed: ParsedNote, new_id: str) -> dict[str, object]:
    """A memory gets an id the first time we write to it."""
    return {} if parsed.frontmatter.get("id") else {"id": memory.id or new_id}


def days(delta_seconds: float) -> float:
    return round(delta_seconds / 86400, 3)


def age_days(m: Memory, now: datetime) -> float:
    return days((now - m.created).total_seconds())
