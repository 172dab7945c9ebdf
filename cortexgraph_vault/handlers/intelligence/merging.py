"""Merging a cluster on disk: one new memory, the originals archived and linked, all or nothing.

The merged note goes into the short-term folder with `consolidated_from` links to the
originals; each original moves into the archive folder with status archived and a
`consolidated_into` link back, keeping its own name, so links that pointed to it still
resolve and Obsidian shows the lineage both ways. If any step fails, every file is put back
exactly as it was.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from cortexgraph_vault.core.link_values import link_target, listed, points_to
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.merge import Merged, MergeSource, merge
from cortexgraph_vault.core.note import parse_note, render_note
from cortexgraph_vault.core.relation_types import RELATION_TYPES
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine, new_id
from cortexgraph_vault.errors import NoteFormatError, Stale, VaultError
from cortexgraph_vault.handlers.intelligence.shown_clusters import member_key, pinned_hash
from cortexgraph_vault.handlers.writes.note_fields import fresh_memory
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.models import MergePreview
from cortexgraph_vault.vault.layout import unique_name
from cortexgraph_vault.vault.store import set_fields

MERGED_SUFFIX = " (merged)"
INHERITED = tuple(k for k in RELATION_TYPES if k != "consolidated_from")


@dataclass(frozen=True)
class MergeOutcome:
    memory_id: str
    path: str
    title: str
    archived: dict[str, str]  # old path → archive path
    touched: list[str]  # every path changed, for the commit


def merged_title(members: Sequence[Memory]) -> str:
    """The oldest member's title, marked as merged (its own name stays with the original)."""
    oldest = min(members, key=lambda m: (m.created, m.path))
    return oldest.title.removesuffix(MERGED_SUFFIX) + MERGED_SUFFIX


def merge_of(members: Sequence[Memory], cohesion: float) -> Merged:
    sources = [
        MergeSource(m.content, m.tags, m.entities, m.created, m.last_used, m.use_count, m.strength)
        for m in members
    ]
    return merge(sources, cohesion)


def preview_of(members: Sequence[Memory], cohesion: float) -> MergePreview:
    merged = merge_of(members, cohesion)
    return MergePreview(
        title=merged_title(members),
        content=merged.content,
        tags=list(merged.tags),
        entities=list(merged.entities),
        created=format_time(merged.created),
        last_used=format_time(merged.last_used),
        use_count=merged.use_count,
        strength=merged.strength,
        cohesion=round(cohesion, 4),
        source_ids=[member_key(m) for m in members],
        kept_texts_of=[member_key(members[i]) for i in merged.kept],
    )


def current_members(
    engine: VaultEngine, members: Sequence[Memory], pinned: Mapping[str, str] | None
) -> list[Memory]:
    """The members as their files say now; Stale naming each one that changed since pinned."""
    fresh: list[Memory] = []
    changed: list[str] = []
    for m in members:
        text, _ = engine.store.read(m.path)
        parsed = parse_note(text)
        if parsed.problem:
            raise NoteFormatError(f"{m.path}: {parsed.problem}; left untouched")
        now = fresh_memory(engine, m.path, parsed, m)
        expected = (pinned or {}).get(member_key(m))
        if expected is not None and pinned_hash(now) != expected:
            changed.append(f"{m.title} ({member_key(m)}) was edited (text, tags or entities)")
        if now.status != "active":
            changed.append(f"{m.title} ({member_key(m)}) is now {now.status}")
        fresh.append(now)
    if changed:
        raise Stale("; ".join(changed) + "; nothing was merged")
    return fresh


def _inherited_relations(members: Sequence[Memory], texts: Mapping[str, str]) -> dict[str, object]:
    """Relations of the originals that point outside the cluster, carried to the merged note."""
    fields: dict[str, object] = {}
    frontmatters = [parse_note(texts[m.path]).frontmatter for m in members]
    for kind in INHERITED:
        values: list[str] = []
        for fm in frontmatters:
            given = (v.strip() for v in listed(fm.get(kind)) if isinstance(v, str))
            for value in filter(None, given):
                if any(points_to(value, other) for other in members):
                    continue
                if link_target(value).lower() not in {link_target(v).lower() for v in values}:
                    values.append(value)
        if values:
            fields[kind] = values
    return fields


def _merged_fields(
    merged: Merged,
    members: Sequence[Memory],
    texts: Mapping[str, str],
    archived_titles: Sequence[str],
    now: datetime,
) -> dict[str, object]:
    return {
        "id": new_id(),
        "created": merged.created,
        "last_used": merged.last_used,
        "use_count": merged.use_count,
        "strength": merged.strength,
        "status": "active",
        "tags": list(merged.tags),
        "entities": list(merged.entities),
        "source": "consolidation",
        "consolidated_at": now,
        "consolidated_from": [f"[[{t}]]" for t in archived_titles],
        **_inherited_relations(members, texts),
    }


def apply_merge(
    engine: VaultEngine,
    members: Sequence[Memory],
    cohesion: float,
    *,
    pinned: Mapping[str, str] | None = None,
) -> MergeOutcome:
    """Write the merge; the caller commits `touched` (one commit per apply or per stage)."""
    layout, store, catalog = engine.layout, engine.store, engine.catalog
    now = engine.now()
    with engine.lock.held():
        fresh = current_members(engine, members, pinned)
        texts = {m.path: store.read(m.path)[0] for m in fresh}
        merged = merge_of(fresh, cohesion)
        stm = store.path(layout.stm + "/x.md").parent
        name = unique_name(
            merged_title(fresh),
            lambda n: catalog.name_in_use(n) or os.path.lexists(stm / n),
        )
        title = name[:-3]
        moved: list[tuple[str, str]] = []
        created: str | None = None
        try:
            for m in fresh:
                changes: dict[str, object] = {
                    "status": "archived",
                    "archived_at": now,
                    "consolidated_into": [f"[[{title}]]"],
                }
                if not m.id:
                    changes["id"] = new_id()
                archived, old = store.move(
                    m.path,
                    layout.archive,
                    changes,
                    title=m.title,
                    in_use=partial(_name_or_merged, catalog, name, m.path),
                )
                moved.append((old, archived.path))
                as_moved = fresh_memory(engine, archived.path, parse_note(archived.text), m)
                if pinned_hash(as_moved) != pinned_hash(m):
                    raise Stale(f"{m.path}: edited while it was being merged; nothing was merged")
            archived_titles = [new.rsplit("/", 1)[-1][:-3] for _, new in moved]
            fields = _merged_fields(merged, fresh, texts, archived_titles, now)
            written = store.create(
                layout.stm, title, render_note(fields, merged.content + "\n"), catalog.name_in_use
            )
            created = written.path
            if written.path.rsplit("/", 1)[-1] != name:
                # A file took the name meanwhile: point the originals at the real one.
                actual = written.path.rsplit("/", 1)[-1][:-3]
                for _, new in moved:
                    store.update_fields(new, set_fields({"consolidated_into": [f"[[{actual}]]"]}))
        except (VaultError, OSError):
            _roll_back(engine, moved, texts, created)
            raise
        for old, new in moved:
            catalog.drop(old)
            catalog.reload(new)
        note = catalog.record(written.path, written.data)
    return MergeOutcome(
        memory_id=str(fields["id"]),
        path=written.path,
        title=note.title,
        archived=dict(moved),
        touched=[written.path, *(p for pair in moved for p in pair)],
    )


def _name_or_merged(catalog: VaultCatalog, merged: str, moving: str, name: str) -> bool:
    """Names an archived original may not take: any note's but its own, and the merged note's
    (written after the originals move, so not in the catalogue yet)."""
    return name.lower() == merged.lower() or catalog.name_in_use(name, besides=moving)


def _roll_back(
    engine: VaultEngine, moved: list[tuple[str, str]], texts: Mapping[str, str], created: str | None
) -> None:
    store = engine.store
    for old, new in reversed(moved):
        store.write_back(old, texts[old])
        if store.exists(new):
            store.delete(new)
        engine.catalog.drop(new)
        engine.catalog.reload(old)
    if created is not None and store.exists(created):
        store.delete(created)
        engine.catalog.drop(created)
