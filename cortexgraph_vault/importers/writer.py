"""Writing an import plan into the vault: new notes, careful updates, one git commit.

The whole import holds the vault lock, so file names planned for new notes stay free and
relations can name their targets before those exist. Each file is written atomically; an
existing note is changed only through the store (compare-before-replace, smallest edit).

A memory already in the vault (matched by id) is never duplicated. From CortexGraph, the
newer copy wins: the source replaces the vault's fields only when it records a later use
(or when told to overwrite). From memory.json, a re-import only adds what is missing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.note import REMOVE, parse_note, render_note
from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.importers.memory_json import observation_items
from cortexgraph_vault.importers.records import (
    MANAGED_OPTIONAL,
    ImportPlan,
    NoteDraft,
    link,
    problem,
    relation_meta_entry,
    same_value,
)
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.models.maintenance import ImportItem, ImportResult, SourceProblem
from cortexgraph_vault.progress import Progress
from cortexgraph_vault.vault.files import make_folder, write_new_unsynced
from cortexgraph_vault.vault.layout import among, unique_name
from cortexgraph_vault.vault.store import set_fields

# From this many new notes one walk of the vault indexes them faster than one at a time.
INDEX_BY_WALK = 200
LABELS = {"cortexgraph": "CortexGraph", "memory-json": "the MCP memory server"}


@dataclass
class _Step:
    draft: NoteDraft
    action: str  # create | update | unchanged | kept | skipped
    path: str | None = None
    note: IndexedNote | None = None
    changes: dict[str, object] = field(default_factory=dict)
    body: str | None = None  # a new body, when it changes
    folder: str | None = None  # a new folder, when the status moves the note
    reason: str | None = None


def _activity(m: Memory) -> datetime:
    return max(t for t in (m.last_used, m.promoted_at, m.last_review_at) if t is not None)


def _as_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, list) else []


# a relation type's companion `*_meta` property: by link target, that link's entry
RelationMetas = dict[str, dict[str, object]]


def _meta_differs(new: dict[str, object], old: object) -> bool:
    """Does a relation's companion entry say something else? Its id and time are bookkeeping
    (an export makes them up for links that never had them), so only a value the vault
    already holds, or the strength, metadata or type, can differ."""
    old_entry = relation_meta_entry(old)
    keys = {"strength", "metadata", "type"} | (old_entry.keys() & new.keys())
    defaults: dict[str, object] = {"strength": 1.0, "metadata": {}}
    return any(
        not same_value(new.get(k, defaults.get(k)), old_entry.get(k, defaults.get(k))) for k in keys
    )


class _Importer:
    def __init__(self, engine: VaultEngine, plan: ImportPlan, overwrite: bool) -> None:
        self.engine = engine
        self.plan = plan
        self.overwrite = overwrite
        self.catalog = engine.fresh()
        self.layout = engine.layout
        self.titles: dict[str, str] = {}
        self.problems = list(plan.problems)
        self.relations = 0
        self.folders: dict[str, Path] = {}
        self.taken = {name_key(n.path.rsplit("/", 1)[-1]) for n in self.catalog.notes()}
        for folder in {self.layout.stm, self.layout.ltm, self.layout.archive}:
            base = self.engine.root / folder
            if base.is_dir():
                self.taken |= {name_key(name) for name in os.listdir(base)}

    # planning ----------------------------------------------------------------------------
    def steps(self) -> list[_Step]:
        existing: dict[str, IndexedNote] = {}
        for d in self.plan.drafts:
            m = self.catalog.memory_by_id(d.id)
            note = self.catalog.note(m.path) if m else None
            if note is not None:
                existing[d.id] = note
                # links name the file, as Obsidian resolves them (a title kept in `aliases`
                # because the file name cannot hold it, "9:30", would leave them unresolved)
                self.titles[d.id] = note.path.rsplit("/", 1)[-1][:-3]
        planned: dict[str, str] = {}
        for d in self.plan.drafts:
            if d.id not in existing:
                name = unique_name(d.title, among(self.taken))
                self.taken.add(name_key(name))
                self.titles[d.id] = name[:-3]
                planned[d.id] = f"{self.layout.folder_for_status(d.status)}/{name}"
        steps = []
        for d in self.plan.drafts:
            links, metas = self._relation_values(d)
            note = existing.get(d.id)
            if note is None:
                fields = {**d.fields, **links, **{f"{k}_meta": v for k, v in metas.items()}}
                steps.append(_Step(d, "create", planned[d.id], changes=fields, body=d.body))
            else:
                steps.append(self._compare(d, note, links, metas))
        return steps

    def _relation_values(
        self, d: NoteDraft
    ) -> tuple[dict[str, list[str]], dict[str, RelationMetas]]:
        links: dict[str, list[str]] = {}
        metas: dict[str, RelationMetas] = {}
        for r in d.relations:
            title = self.titles.get(r.target_id)
            if title is None:
                m = self.catalog.memory_by_id(r.target_id)
                title = m.title if m else r.fallback_title
            if title is None:
                self.problems.append(
                    problem(
                        self._relations_file(),
                        r.line,
                        f"relation from {d.id} to {r.target_id}: the target memory is neither in the "
                        "import nor in the vault (deleted?); skipped",
                    )
                )
                continue
            values = links.setdefault(r.kind, [])
            if link(title) not in values:
                values.append(link(title))
            if r.meta:
                metas.setdefault(r.kind, {})[title] = dict(r.meta)
            self.relations += 1
        return links, metas

    def _relations_file(self) -> str:
        return "relations.jsonl" if self.plan.source == "cortexgraph" else self.plan.drafts[0].file

    def _compare(
        self,
        d: NoteDraft,
        note: IndexedNote,
        links: dict[str, list[str]],
        metas: dict[str, RelationMetas],
    ) -> _Step:
        fm = note.frontmatter
        changes: dict[str, object] = {}
        body: str | None = None
        folder: str | None = None
        if d.additive:
            for key in ("tags", "entities"):
                have = _as_list(fm.get(key))
                missing = [
                    v
                    for v in _as_list(d.fields.get(key))
                    if v.lower() not in {h.lower() for h in have}
                ]
                if missing:
                    changes[key] = have + missing
            new_items = [
                o for o in d.observations if observation_items([o]).strip() not in note.body
            ]
            if new_items:
                body = note.body.rstrip("\r\n") + "\n" + observation_items(new_items)
        else:
            for key, value in d.fields.items():
                if key not in d.creation_only and not same_value(value, fm.get(key)):
                    changes[key] = value
            changes.update({k: REMOVE for k in MANAGED_OPTIONAL if k not in d.fields and k in fm})
            if note.body.strip() != d.body.strip():
                body = d.body
            if note.kind != {"active": "stm", "promoted": "ltm", "archived": "archive"}[d.status]:
                folder = self.layout.folder_for_status(d.status)
        for kind, wanted in links.items():
            have = _as_list(fm.get(kind))
            names = {link_target(h).lower() for h in have}
            missing = [w for w in wanted if link_target(w).lower() not in names]
            if missing:
                changes[kind] = have + missing
        for kind, entries in metas.items():
            old = fm.get(f"{kind}_meta")
            old = dict(old) if isinstance(old, dict) else {}
            if any(_meta_differs(v, old.get(t)) for t, v in entries.items()):
                changes[f"{kind}_meta"] = {**old, **entries}
        step = _Step(d, "update", note.path, note, changes, body, folder)
        if not changes and body is None and folder is None:
            step.action = "unchanged"
        elif not d.additive and not self.overwrite and note.memory is not None:
            source_time = d.activity
            if source_time is None or _activity(note.memory) >= source_time:
                step.action = "kept"
                step.reason = (
                    "differs from the vault's copy, which is as recent or newer; left as it is "
                    "(import with --overwrite to replace it)"
                )
        if note.problems and step.action == "update":
            step.action, step.reason = "skipped", f"{note.path}: {note.problems[0]}; left untouched"
        return step

    # writing -------------------------------------------------------------------------------
    def create(self, step: _Step) -> tuple[str, bytes]:
        """Write a new note under a name nobody holds; indexed later, with the others.
        Its path (`step.path`, changed when the planned name was taken meanwhile) and bytes."""
        assert step.path is not None and step.body is not None
        folder, name = step.path.rsplit("/", 1)
        base = self._folder(folder)
        data = render_note(step.changes, step.body).encode("utf-8")
        for _ in range(8):
            if write_new_unsynced(base / name, data):
                step.path = f"{folder}/{name}"
                return step.path, data
            # A file with that name appeared meanwhile (not one of ours): take the next name.
            self.taken.add(name_key(name))
            name = unique_name(step.draft.title, among(self.taken))
            self.taken.add(name_key(name))
        raise VaultError(f"{folder}: could not find a free file name for {step.draft.title!r}")

    def _folder(self, folder: str) -> Path:
        if folder not in self.folders:
            # Checked once per folder: the names inside come from unique_name (no separators).
            base = self.engine.store.path(f"{folder}/x.md").parent
            make_folder(base)
            self.folders[folder] = base
        return self.folders[folder]

    def index_created(self, written: list[tuple[str, bytes]]) -> None:
        if len(written) >= INDEX_BY_WALK:
            self.catalog.refresh()  # parses many files at once (in parallel when worth it)
        else:
            for rel, data in written:
                self.catalog.record(rel, data)

    def update(self, step: _Step) -> list[str]:
        store = self.engine.store
        assert step.path is not None
        rel = step.path
        if step.body is not None:
            written = store.replace_body(rel, step.body, step.changes, expected_sha256=None)
        else:
            written = store.update_fields(rel, lambda _parsed: step.changes)
        self.catalog.record(written.path, written.data)
        if step.folder is None:
            return [rel]
        title = rel.rsplit("/", 1)[-1][:-3]
        moved, old = store.move(
            rel,
            step.folder,
            {},
            title=title,
            in_use=partial(self.catalog.name_in_use, besides=rel),
        )
        self.catalog.drop(old)
        self.catalog.record(moved.path, moved.data)
        step.path = moved.path
        return [old, moved.path]

    def relink(self, renamed: dict[str, str], steps: list[_Step]) -> list[str]:
        """A planned name was taken meanwhile: point the links at the name the note got."""
        touched = []
        for step in steps:
            if step.action not in ("create", "update") or step.path is None:
                continue
            text, _ = self.engine.store.read(step.path)
            fm = parse_note(text).frontmatter
            changes: dict[str, object] = {}
            for key, value in fm.items():
                if isinstance(value, list) and any(link(o) in value for o in renamed):
                    changes[key] = [
                        link(renamed[str(v)[2:-2]]) if str(v)[2:-2] in renamed else v for v in value
                    ]
                elif key.endswith("_meta") and isinstance(value, dict) and renamed.keys() & value:
                    changes[key] = {renamed.get(str(k), k): v for k, v in value.items()}
            if changes:
                written = self.engine.store.update_fields(step.path, set_fields(changes))
                self.catalog.record(written.path, written.data)
                touched.append(step.path)
        return touched


def apply_plan(
    engine: VaultEngine,
    plan: ImportPlan,
    *,
    dry_run: bool = False,
    overwrite: bool = False,
    progress: Progress | None = None,
) -> ImportResult:
    with engine.lock.held():
        importer = _Importer(engine, plan, overwrite)
        steps = importer.steps()
        paths: list[str] = []
        if not dry_run:
            paths = _write(engine, importer, steps, progress)
        result = _result(plan, steps, importer, dry_run)
        if paths:
            ids = [s.draft.id for s in steps if s.action in ("create", "update")]
            label = LABELS[plan.source]
            result.commit = engine.commit(
                list(dict.fromkeys(paths)),
                f"{wording.import_subject(len(ids), label)}\n\n"
                f"{result.created} created, {result.updated} updated, from {plan.path}\n\n"
                f"{trailers('import', ids)}",
            )
    return result


def _write(
    engine: VaultEngine, importer: _Importer, steps: list[_Step], progress: Progress | None
) -> list[str]:
    creates = [s for s in steps if s.action == "create"]
    updates = [s for s in steps if s.action == "update"]
    total, done = len(creates) + len(updates), 0
    paths: list[str] = []
    written: list[tuple[str, bytes]] = []
    renamed: dict[str, str] = {}
    for step in creates:
        planned = step.path
        try:
            path, data = importer.create(step)
        except (VaultError, OSError) as exc:
            step.action, step.reason = "skipped", f"{planned}: {exc}"
        else:
            written.append((path, data))
            paths.append(path)
            if path != planned:
                renamed[importer.titles[step.draft.id]] = path.rsplit("/", 1)[-1][:-3]
        done += 1
        if progress is not None:
            progress(done, total)
    if written:
        # New files are made durable together: one sync instead of two fsyncs per note.
        # Until then a crash loses only new notes, and importing again writes them again.
        os.sync()
        importer.index_created(written)
    for step in updates:
        try:
            paths += importer.update(step)
        except VaultError as exc:
            step.action, step.reason = "skipped", str(exc)
        done += 1
        if progress is not None:
            progress(done, total)
    if renamed:
        paths += importer.relink(renamed, steps)
    return paths


def _result(
    plan: ImportPlan, steps: list[_Step], importer: _Importer, dry_run: bool
) -> ImportResult:
    counts = {
        a: sum(1 for s in steps if s.action == a)
        for a in ("create", "update", "unchanged", "kept", "skipped")
    }
    items = [
        ImportItem(
            id=s.draft.id,
            title=importer.titles.get(s.draft.id, s.draft.title),
            action={"create": "created", "update": "updated"}.get(s.action, s.action),
            path=s.path,
            status=s.draft.status,
            line=s.draft.line,
            reason=s.reason,
            moved_from=s.note.path if s.folder and s.note else None,
        )
        for s in steps
    ]
    label = LABELS[plan.source]
    message = wording.import_summary(counts, dry_run, label, str(plan.path))
    if importer.problems:
        message += wording.source_lines_skipped(len(importer.problems))
    return ImportResult(
        source=plan.source,
        path=plan.path,
        dry_run=dry_run,
        created=counts["create"],
        updated=counts["update"],
        unchanged=counts["unchanged"],
        kept=counts["kept"],
        skipped=counts["skipped"],
        relations=importer.relations,
        lines=plan.lines,
        superseded=plan.superseded,
        tombstones=plan.tombstones,
        problems=_listed(importer.problems),
        warnings=_listed(plan.warnings),
        items=items,
        message=message,
    )


def _listed(problems: list[SourceProblem]) -> list[SourceProblem]:
    return sorted(problems, key=lambda p: (p.file, p.line))
