"""What a write reads back from a memory note and the fields it adds: the memory as the file
says now, its id on first write, `use_days` after a use."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from cortexgraph_vault.core.memory import Memory, memory_from_fields
from cortexgraph_vault.core.note import ParsedNote
from cortexgraph_vault.core.rules import default_use_days, use_days_after_use
from cortexgraph_vault.engine import VaultEngine


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


def id_changes(memory: Memory, parsed: ParsedNote, new_id: Callable[[], str]) -> dict[str, object]:
    """A memory gets an id the first time we write to it (`new_id` is called only then: a
    fresh id is a getrandom system call on the change's turn)."""
    return {} if parsed.frontmatter.get("id") else {"id": memory.id or new_id()}


def use_days_change(m: Memory, parsed: ParsedNote, now: datetime) -> dict[str, object]:
    """`use_days` after a use at `now`, written only when the note holds the field or the
    count differs from what its other fields imply, so most notes gain no new line."""
    days = use_days_after_use(m.decay, now)
    if "use_days" in parsed.frontmatter or days != default_use_days(
        m.created, now, m.use_count + 1
    ):
        return {"use_days": days}
    return {}
