"""Small pieces the operations share: fresh memory from a parsed note, link names, trailers,
the checks and paging of reading requests."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from cortexgraph_vault.core.memory import Memory, memory_from_fields
from cortexgraph_vault.core.note import ParsedNote
from cortexgraph_vault.core.rules import default_use_days, use_days_after_use
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument, UnsafePath
from cortexgraph_vault.models import Pagination

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


def check_range(name: str, value: float | None, low: float, high: float) -> None:
    if value is not None and not low <= value <= high:
        raise InvalidArgument(f"{name}: must be from {low:g} to {high:g}, got {value}")


def wanted_statuses(
    status: str | Sequence[str] | None, *, known: Sequence[str], default: Sequence[str]
) -> set[str]:
    """The statuses a request asks for: one or several of `known`, "all" of them, or `default`."""
    if status is None:
        return set(default)
    wanted = {status} if isinstance(status, str) else set(status)
    if "all" in wanted:
        return set(known)
    bad = wanted - set(known)
    if bad:
        raise InvalidArgument(f"status: unknown {sorted(bad)}; use {', '.join(known)} or all")
    return wanted


def paginate(total: int, page: int | None, page_size: int) -> tuple[int, int, Pagination | None]:
    """Where page `page` of `total` items starts and ends, and what to say of it (None when
    no page was asked for: the first `page_size` items)."""
    if page is None:
        return 0, page_size, None
    if page < 1:
        raise InvalidArgument("page: must be 1 or more")
    pages = max(1, math.ceil(total / page_size))
    start = (page - 1) * page_size
    info = Pagination(
        page=page, page_size=page_size, total_count=total, total_pages=pages,
        has_more=page < pages, has_previous=page > 1,
    )  # fmt: skip
    return start, start + page_size, info


def vault_folder(engine: VaultEngine, name: str, folder: str | None) -> str | None:
    """A folder filter as a clean vault path (None or `/`: the whole vault). A path leaving
    the vault is refused, as every path argument is, rather than quietly matching nothing."""
    if folder is None or not folder.strip("/ "):
        return None
    try:
        return engine.safe_rel(folder.strip().rstrip("/"))
    except UnsafePath as exc:
        raise UnsafePath(f"{name}: {exc}") from None


def use_days_change(m: Memory, parsed: ParsedNote, now: datetime) -> dict[str, object]:
    """`use_days` after a use at `now`, written only when the note holds the field or the
    count differs from what its other fields imply, so most notes gain no new line."""
    days = use_days_after_use(m.decay, now)
    if "use_days" in parsed.frontmatter or days != default_use_days(
        m.created, now, m.use_count + 1
    ):
        return {"use_days": days}
    return {}
