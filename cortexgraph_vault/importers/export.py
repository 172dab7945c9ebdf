"""Exports: back to CortexGraph's JSONL (so a person can go back), or one JSON file.

Both only read the vault. Files are written atomically and never over an existing file unless
asked (the folder a person exports to may hold their CortexGraph store).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.relation_ids import relation_id
from cortexgraph_vault.core.rules import review_priority
from cortexgraph_vault.core.times import format_time, parse_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.importers.cortexgraph import (
    MEMORIES_FILE,
    RELATIONS_FILE,
    CortexGraphRelation,
    json_safe,
    memory_record,
)
from cortexgraph_vault.importers.records import is_number, relation_meta_entry
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.models.maintenance import ExportResult, SourceProblem
from cortexgraph_vault.progress import Progress
from cortexgraph_vault.vault.files import atomic_write

JSON_FORMAT = "cortexgraph-vault-export"
NO_ID = (
    "no id yet (a hand-written note); not exported. Any change through cortexgraph-vault "
    "(touch, update) gives it one"
)


@dataclass(frozen=True)
class Link:
    """A typed link from one memory, as found in its frontmatter."""

    from_memory: Memory
    kind: str
    target: str  # as written
    to_path: str | None
    to_memory: Memory | None
    meta: Mapping[str, Any]


def _memory_notes(catalog: VaultCatalog) -> list[IndexedNote]:
    notes = [(n, n.memory) for n in catalog.notes() if n.memory is not None]
    notes.sort(key=lambda nm: (nm[1].created, nm[1].id or "", nm[0].path))
    return [n for n, _ in notes]


def _links(catalog: VaultCatalog, note: IndexedNote) -> list[Link]:
    """The property links of a memory note, resolved as Obsidian resolves them."""
    assert note.memory is not None
    out: list[Link] = []
    for edge in catalog.graph.outgoing(note.path):
        prop = edge.link.property
        if edge.link.kind != "property" or not prop:
            continue
        target = catalog.note(edge.target) if edge.target else None
        companion = note.frontmatter.get(f"{prop}_meta")
        entries = companion if isinstance(companion, Mapping) else {}
        raw = entries.get(edge.link.target)
        if raw is None:
            low = edge.link.target.lower()
            raw = next((v for k, v in entries.items() if str(k).lower() == low), None)
        out.append(
            Link(
                note.memory,
                prop,
                edge.link.target,
                edge.target,
                target.memory if target is not None else None,
                relation_meta_entry(raw),
            )
        )
    return out


def _refuse_existing(paths: list[Path], force: bool, why: str) -> None:
    found = [p for p in paths if p.exists()]
    if found and not force:
        raise InvalidArgument(
            f"{found[0]}: already exists{why}; nothing was written. "
            "Export somewhere new, or pass --force to replace it"
        )


def _relation(link: Link) -> CortexGraphRelation:
    src, dst, meta = link.from_memory, link.to_memory, link.meta
    assert dst is not None
    kind = str(meta.get("type") or link.kind)
    created = parse_time(meta.get("created")) or max(src.created, dst.created)
    strength, rid, metadata = meta.get("strength"), meta.get("id"), meta.get("metadata")
    return {
        "id": str(rid) if rid else relation_id(src.id, dst.id, kind, link.target),
        "from_memory_id": src.id or "",
        "to_memory_id": dst.id or "",
        "relation_type": kind,
        "strength": float(strength) if is_number(strength) else 1.0,
        "created_at": int(created.timestamp()),
        "metadata": json_safe(dict(metadata) if isinstance(metadata, Mapping) else {}),
    }


def export_cortexgraph(
    engine: VaultEngine,
    folder: str | Path,
    *,
    force: bool = False,
    progress: Progress | None = None,
) -> ExportResult:
    """Every memory with an id, and every typed link between two of them, as CortexGraph JSONL."""
    out = Path(folder).expanduser()
    if out.exists() and not out.is_dir():
        raise InvalidArgument(f"{out}: is a file; give a folder to export into")
    files = [out / MEMORIES_FILE, out / RELATIONS_FILE]
    _refuse_existing(files, force, " (it may be someone's CortexGraph store)")
    now = engine.now()
    catalog = engine.fresh()
    memories: list[str] = []
    relations: list[str] = []
    skipped: list[SourceProblem] = []
    to_notes = 0
    with catalog.lock:
        notes = _memory_notes(catalog)
        for done, note in enumerate(notes, start=1):
            m = note.memory
            assert m is not None
            if not m.id:
                skipped.append(SourceProblem(file=note.path, line=0, reason=NO_ID))
                continue
            score = engine.score(m, now)
            priority = review_priority(score, engine.rules) if m.status == "active" else 0.0
            record = memory_record(m, note.frontmatter, round(priority, 4))
            memories.append(json.dumps(record, ensure_ascii=False))
            seen: set[str] = set()
            for link in _links(catalog, note):
                if link.to_memory is None or not link.to_memory.id or link.to_memory.path == m.path:
                    to_notes += link.to_memory is None
                    continue
                rel = _relation(link)
                if rel["id"] not in seen:
                    seen.add(rel["id"])
                    relations.append(json.dumps(rel, ensure_ascii=False))
            if progress is not None:
                progress(done, len(notes))
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(files[0], "".join(line + "\n" for line in memories).encode())
    atomic_write(files[1], "".join(line + "\n" for line in relations).encode())
    message = wording.exported(len(memories), len(relations), str(out))
    if to_notes:
        message += wording.links_outside_memories(to_notes)
    if skipped:
        message += wording.memories_without_id(len(skipped))
    return ExportResult(
        format="cortexgraph",
        path=str(out),
        files=[str(f) for f in files],
        memories=len(memories),
        relations=len(relations),
        skipped=skipped,
        message=message,
    )


def export_json(
    engine: VaultEngine, file: str | Path, *, force: bool = False, progress: Progress | None = None
) -> ExportResult:
    """Every memory (with its frontmatter as written) and every typed link, in one JSON file."""
    out = Path(file).expanduser()
    if out.is_dir():
        raise InvalidArgument(f"{out}: is a folder; give a file name to export to")
    _refuse_existing([out], force, "")
    now = engine.now()
    catalog = engine.fresh()
    memories: list[dict[str, object]] = []
    relations: list[dict[str, object]] = []
    with catalog.lock:
        notes = _memory_notes(catalog)
        for done, note in enumerate(notes, start=1):
            m = note.memory
            assert m is not None
            view = engine.view(m, now=now).model_dump(exclude={"relations", "problems"})
            memories.append({**view, "frontmatter": json_safe(note.frontmatter)})
            for link in _links(catalog, note):
                meta = link.meta
                relations.append(
                    {
                        "from_memory_id": m.id,
                        "from_path": m.path,
                        "relation_type": str(meta.get("type") or link.kind),
                        "target": link.target,
                        "to_path": link.to_path,
                        "to_memory_id": link.to_memory.id if link.to_memory else None,
                        "meta": json_safe(dict(meta)),
                    }
                )
            if progress is not None:
                progress(done, len(notes))
    document = {
        "format": JSON_FORMAT,
        "version": 1,
        "exported_at": format_time(now),
        "vault": str(engine.root),
        "memories": memories,
        "relations": relations,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, ensure_ascii=False, indent=2, default=_default)
    atomic_write(out, (text + "\n").encode())
    return ExportResult(
        format="json",
        path=str(out),
        files=[str(out)],
        memories=len(memories),
        relations=len(relations),
        message=wording.exported(len(memories), len(relations), str(out), "link"),
    )


def _default(value: object) -> str:
    if isinstance(value, datetime):
        return format_time(value)
    return str(value)
