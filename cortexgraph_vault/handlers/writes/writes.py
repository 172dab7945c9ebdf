"""Saving and changing memories: save, touch, observe, update, delete, relate."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.control_chars import refuse_control_characters
from cortexgraph_vault.core.link_values import link_for, link_target, listed, points_to
from cortexgraph_vault.core.memory import SUPERSEDES, Memory
from cortexgraph_vault.core.note import REMOVE, ParsedNote, render_note
from cortexgraph_vault.core.note_merge import LAST_USED_ON
from cortexgraph_vault.core.replacement import Replacement
from cortexgraph_vault.core.rules import is_cross_domain
from cortexgraph_vault.core.secrets import redact
from cortexgraph_vault.core.tags import normalize_tag
from cortexgraph_vault.engine import VaultEngine, new_id
from cortexgraph_vault.errors import Conflict, InvalidArgument, NotFound
from cortexgraph_vault.handlers.browse.reads import relation_view
from cortexgraph_vault.handlers.lifecycle.undo import move_memory
from cortexgraph_vault.handlers.writes import supersession
from cortexgraph_vault.handlers.writes.note_fields import fresh_memory, id_changes, use_days_change
from cortexgraph_vault.handlers.writes.replacements import likely_replacements
from cortexgraph_vault.handlers.writes.secret_check import refuse_secrets
from cortexgraph_vault.handlers.writes.vocabulary import enrichment_for
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.models import (
    DeleteResult,
    LikelyReplacement,
    ObservedMemory,
    ObserveResult,
    RelationResult,
    SaveResult,
    TouchResult,
    UpdateResult,
)
from cortexgraph_vault.requests.memories import (
    CreateRelationRequest,
    DeleteMemoryRequest,
    ObserveMemoryUsageRequest,
    SaveMemoryRequest,
    TouchMemoryRequest,
    UpdateMemoryRequest,
)
from cortexgraph_vault.vault.layout import needs_alias, safe_title, title_from_content


def clean_tags(tags: Sequence[str] | None) -> list[str]:
    return list(dict.fromkeys(norm for tag in tags or () if (norm := normalize_tag(str(tag)))))


def clean_entities(entities: Sequence[str] | None) -> list[str]:
    """Spaces made single; one of each, whatever its case, as first written."""
    out: dict[str, str] = {}
    for e in entities or ():
        if text := " ".join(str(e).split()):
            out.setdefault(text.lower(), text)
    return list(out.values())


def check_content(content: str) -> str:
    if not isinstance(content, str) or not content.strip():
        raise InvalidArgument("content: a memory needs some text")
    if "\x00" in content:
        raise InvalidArgument("content: contains a NUL character")
    return content.strip() + "\n"


def save(engine: VaultEngine, req: SaveMemoryRequest) -> SaveResult:
    """`req.supersedes`: ids of memories this one replaces (handlers/writes/supersession.py), checked before
    anything is written and recorded in the save's commit."""
    body = check_content(req.content)
    refuse_control_characters(req.model_dump(include={"title", "tags", "entities", "source"}))
    refuse_secrets(
        req.model_dump(
            include={"content", "title", "source", "context", "tags", "entities", "meta"}
        ),
        force=req.force,
    )
    now = engine.now()
    memory_id = new_id()
    chosen_strength = round(req.strength, 4) if req.strength is not None else 1.0
    fields: dict[str, object] = {
        "id": memory_id,
        "created": now,
        "last_used": now,
        "use_count": 1,
        "strength": chosen_strength,
        "status": "active",
        "tags": clean_tags(req.tags),
        "entities": clean_entities(req.entities),
    }
    title = " ".join((req.title or "").split()) or derived_title(body)
    if needs_alias(title):
        # The file name cannot hold it as written; Obsidian and our index read aliases.
        fields["aliases"] = [title]
    given = req.model_dump(include={"source", "context", "meta"})
    fields.update({k: given[k] for k in ("source", "context", "meta") if given[k]})
    engine.fresh()
    olds = supersession.olds_of(engine, None, req.supersedes) if req.supersedes else []
    # Auto-enrichment from the (now current) vault; explicit entities and strength always win.
    given_entities, given_strength = req.entities is not None, req.strength is not None
    enriched = enrichment_for(engine, body) if not (given_entities and given_strength) else None
    if enriched is not None and not given_entities:
        fields["entities"] = clean_entities(enriched.entity_names)
        if enriched.links:
            fields["related"] = enriched.links
    if enriched is not None and not given_strength:
        chosen_strength = fields["strength"] = enriched.strength
    text = render_note(fields, body)
    # Named from the redacted text: a forced secret never names a file or a commit.
    written = engine.store.create(
        engine.layout.stm, redact(title), text, engine.catalog.name_in_use
    )
    note = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    assert note.memory is not None
    # What the save likely replaces, noticed from the vault as it was: one sure replacement
    # (core/replacement.py's strong verdict) is recorded with the save unless the caller named
    # its own or the setting says to ask; the others are listed for the model to confirm.
    named = {o.path for o in olds}
    noticed = likely_replacements(engine, body, besides={written.path, *named})
    sure = (
        [(r, path) for r, path in noticed if r.strong]
        if engine.config.auto_supersede and not olds
        else []
    )
    if sure:
        olds = supersession.olds_of(engine, None, [sure[0][0].key])
    why = {sure[0][1]: sure[0][0].why} if sure else {}
    may_supersede = [
        LikelyReplacement(
            memory_id=r.key if r.key != path else None,
            title=r.title,
            path=path,
            why=r.why,
            strong=r.strong,
        )
        for r, path in noticed
        if path not in why
    ]
    saved, paths, subject = note.memory, [written.path], f"save: {note.title}"
    replaced: list[str] = []
    if olds:
        done = supersession.record_supersession(engine, saved, olds)
        saved, paths = done.new, list(dict.fromkeys([written.path, *done.paths]))
        replaced = [o.id or "" for o in done.superseded]
        subject += f" (replaces {', '.join(o.title for o in done.superseded)})"
    # Recorded with the saves around it, once the call lets go of the change lock; the call
    # fills in `commit` then (ServiceCalls). A save outside such a call commits at once.
    ids = [memory_id, *replaced]
    ticket = engine.commit_soon(paths, subject, "save", ids)
    return SaveResult(
        success=True,
        memory_id=memory_id,
        id=memory_id,
        path=saved.path,
        title=saved.title,
        score=round(engine.score(saved, now), 6),
        message=f"Saved to {saved.path}" + _noticed(sure),
        calculated_strength=float(chosen_strength),
        enrichment_applied=enriched is not None,
        auto_entities=enriched.entity_names if enriched is not None and not given_entities else [],
        commit=ticket.sha,
        superseded=replaced,
        may_supersede=may_supersede,
        warning=(
            wording.commit_not_made(ticket.failure) if ticket.failure else engine.history_warning()
        ),
    )


def _noticed(sure: Sequence[tuple[Replacement, str]]) -> str:
    if not sure:
        return ""
    return (
        f"; noticed it replaces “{sure[0][0].title}” ({sure[0][0].why}) and recorded it "
        "(undo: delete `superseded_by` in that note's properties, or restore it from "
        "history)"
    )


def _reinforce(engine: VaultEngine, ref: str, changes_for: Any, now: Any) -> tuple[Memory, ...]:
    """Apply a use's field changes computed from the note as on disk; returns before/after."""
    seen = engine.resolve(ref, statuses=("active", "promoted"))
    captured: dict[str, Memory] = {}

    def compute(parsed: ParsedNote) -> Mapping[str, object]:
        fresh = fresh_memory(engine, seen.path, parsed, seen)
        captured["fresh"] = fresh
        use_days = use_days_change(fresh, parsed, now)
        return {
            **changes_for(fresh),
            **use_days,
            **id_changes(fresh, parsed, new_id),
            LAST_USED_ON: engine.device_mark(),
        }

    written = engine.store.update_fields(seen.path, compute)
    note = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    assert note.memory is not None
    return seen, captured["fresh"], note.memory


def touch(engine: VaultEngine, req: TouchMemoryRequest) -> TouchResult:
    now = engine.now()

    def changes(m: Memory) -> dict[str, object]:
        out: dict[str, object] = {"use_count": m.use_count + 1, "last_used": now}
        if req.boost_strength:
            out["strength"] = round(min(2.0, m.strength + 0.1), 4)
        return out

    _, before, after = _reinforce(engine, req.memory_id, changes, now)
    return TouchResult(
        memory_id=after.id or "",
        id=after.id or "",
        path=after.path,
        old_score=round(engine.score(before, now), 6),
        new_score=round(engine.score(after, now), 6),
        use_count=after.use_count,
        strength=after.strength,
    )


def observe(engine: VaultEngine, req: ObserveMemoryUsageRequest) -> ObserveResult:
    return reinforce_uses(engine, req.memory_ids, req.context_tags)


def reinforce_uses(
    engine: VaultEngine, refs: Sequence[str], context_tags: Sequence[str] | None
) -> ObserveResult:
    """A use of each memory `refs` name, in a conversation about `context_tags` (a use
    outside a memory's own tags strengthens it); unknown ones in not_found."""
    now = engine.now()
    context = set(clean_tags(context_tags))
    observed: list[ObservedMemory] = []
    not_found: list[str] = []

    def changes(m: Memory) -> dict[str, object]:
        out: dict[str, object] = {
            "use_count": m.use_count + 1,
            "last_used": now,
            "review_count": m.review_count + 1,
            "last_review_at": now,
        }
        if is_cross_domain(set(m.tags), context, engine.rules):
            out["strength"] = round(min(2.0, m.strength + 0.05), 4)
            out["cross_domain_count"] = m.cross_domain_count + 1
        return out

    for ref in dict.fromkeys(refs):
        try:
            _, before, after = _reinforce(engine, ref, changes, now)
        except NotFound:  # one bad id must not stop the others
            not_found.append(ref)
            continue
        observed.append(
            ObservedMemory(
                memory_id=after.id or "",
                path=after.path,
                use_count=after.use_count,
                review_count=after.review_count,
                strength=after.strength,
                cross_domain=after.cross_domain_count > before.cross_domain_count,
            )
        )
    return ObserveResult(reinforced=len(observed), memories=observed, not_found=not_found)


def derived_title(body: str) -> str:
    """The title a save gives a memory of this text when none is given."""
    return title_from_content(redact(body))


def title_was_derived(m: Memory) -> bool:
    """Whether `m`'s title is the one its text gave it (a person's title, or a file they
    renamed, is theirs): the derived title itself, or with the number a taken name got."""
    derived = derived_title(m.body)
    if m.title == derived:
        return True
    return re.fullmatch(re.escape(safe_title(derived)) + r" \d+", m.title) is not None


def update(engine: VaultEngine, req: UpdateMemoryRequest) -> UpdateResult:
    """New content renames a memory whose title came from its old content (file name, title
    and alias follow; the id, and so its history, stays); a title a person chose stays."""
    content = req.content
    if content is not None:
        check_content(content)
    refuse_control_characters(req.model_dump(include={"tags", "entities"}))
    refuse_secrets(req.model_dump(include={"content", "tags", "entities"}), force=req.force)
    seen = engine.resolve(req.memory_id, statuses=("active", "promoted"))
    olds = supersession.olds_of(engine, None, req.supersedes) if req.supersedes else []
    supersession.check_pairs(seen, olds)
    changes: dict[str, object] = {}
    if req.tags is not None:
        changes["tags"] = clean_tags(req.tags)
    if req.entities is not None:
        changes["entities"] = clean_entities(req.entities)
    if req.strength is not None:
        changes["strength"] = round(req.strength, 4)
    if content is None and not changes and not olds:
        raise InvalidArgument(
            "nothing to update: give content, tags, entities, strength or supersedes",
            params=("content", "tags", "entities", "strength", "supersedes"),
        )
    if not seen.id:
        changes["id"] = new_id()
    paths: list[str] = []
    with engine.lock.held():
        if content is not None:
            body = check_content(content)
            written = engine.store.replace_body(
                seen.path, body, changes, expected_sha256=req.expected_hash
            )
        else:
            written = engine.store.update_fields(
                seen.path, lambda _p: changes, expected_sha256=req.expected_hash
            )
        note = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
        assert note.memory is not None
        current, paths = note.memory, [written.path]
        renamed_from = None
        if content is not None and title_was_derived(seen):
            title = derived_title(current.body)
            if title != derived_title(seen.body):
                current, moved = _renamed(engine, current, title)
                paths += moved
                renamed_from = seen.title
        replaced: list[str] = []
        if olds:
            done = supersession.record_supersession(engine, current, olds)
            current, paths = done.new, [*paths, *done.paths]
            replaced = [o.id or "" for o in done.superseded]
    changed = [
        *(["content"] if content is not None else []),
        *(["title"] if renamed_from is not None else []),
        *[k for k in changes if k != "id"],
        *(["supersedes"] if replaced else []),
    ]
    subject = f"update: {current.title} ({', '.join(changed) or 'nothing new'})"
    if renamed_from is not None:
        subject += f"\n\nRenamed from {renamed_from}"
    commit = engine.commit(
        list(dict.fromkeys(paths)),
        f"{subject}\n\n{trailers('update', [current.id or '', *replaced])}",
    )
    return UpdateResult(
        memory_id=current.id or "",
        path=current.path,
        content_hash=current.content_hash,
        changed=changed,
        commit=commit,
        superseded=replaced,
    )


def _renamed(engine: VaultEngine, m: Memory, title: str) -> tuple[Memory, list[str]]:
    """`m` under a new title in its folder; an alias holding its old title now holds the new
    one (or goes, when the file name can hold the title), and typed relations of other
    memories that named it by its old title name it by the new one. The paths it wrote."""
    note = engine.catalog.note(m.path)
    aliases = list(note.aliases) if note is not None else []
    kept = [a for a in aliases if a != m.title]
    if needs_alias(title):
        kept = [title, *kept]
    changes: dict[str, object] = {}
    if kept != aliases:
        changes["aliases"] = kept if kept else REMOVE
    written, old, note = move_memory(engine, m, m.path.rsplit("/", 1)[0], changes, title)
    assert note.memory is not None
    renamed = note.memory
    paths = [old, written.path, *_relinked(engine, m, renamed)]
    return renamed, paths


def _relinked(engine: VaultEngine, before: Memory, after: Memory) -> list[str]:
    """Typed relations (frontmatter link properties) naming `before` by its title, made to
    name `after`: a supersession chain and other relations survive the rename. Links in a
    note's text are the person's, left as they are."""
    from cortexgraph_vault.handlers.graph.relation_index import relation_index

    old_key = before.title.lower()
    touched: list[str] = []
    by_memory: dict[str, set[str]] = {}
    for rel in relation_index(engine).pointing_at(before):
        if link_target(rel.value).lower().removesuffix(".md") == old_key:
            by_memory.setdefault(rel.from_memory.path, set()).add(rel.kind)
    new_link = link_for(after)
    for path, kinds in by_memory.items():

        def compute(parsed: ParsedNote, kinds: set[str] = kinds) -> Mapping[str, object]:
            out: dict[str, object] = {}
            for kind in kinds:
                value = parsed.frontmatter.get(kind)
                values = [value] if isinstance(value, str) else listed(value)
                renamed = [
                    new_link if link_target(str(v)).lower().removesuffix(".md") == old_key else v
                    for v in values
                ]
                if renamed != values:
                    out[kind] = renamed
            return out

        written = engine.store.update_fields(path, compute)
        if written.before != written.text:
            engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
            touched.append(written.path)
    return touched


def delete(engine: VaultEngine, req: DeleteMemoryRequest) -> DeleteResult:
    mode, expected_hash = req.mode, req.expected_hash
    seen = engine.resolve(req.memory_id, statuses=("active", "promoted", "archived"))
    memory_id = seen.id or new_id()
    if expected_hash is not None and expected_hash != seen.content_hash:
        text, stamp = engine.store.read(seen.path)
        raise Conflict(seen.path, expected_hash, stamp.sha256, text)
    if mode == "archive":
        if seen.status == "archived":
            raise InvalidArgument(f"{seen.path}: already archived; use mode 'remove' to delete it")
        archived = {"status": "archived", "id": memory_id, "archived_at": engine.now()}
        written, old, _ = move_memory(engine, seen, engine.layout.archive, archived)
        commit = engine.commit(
            [old, written.path],
            f"archive: {seen.title}\n\n{trailers('archive', [memory_id])}",
        )
        return DeleteResult(
            memory_id=memory_id, mode=mode, path=old, archived_path=written.path, commit=commit
        )
    from cortexgraph_vault.handlers.lifecycle.gc_and_promotion import forget_paths

    commit = forget_paths(engine, [seen], f"delete: {seen.title}", operation="delete")
    return DeleteResult(memory_id=memory_id, mode=mode, path=seen.path, commit=commit)


def relate(
    engine: VaultEngine, req: CreateRelationRequest, *, record: bool = True
) -> RelationResult:
    """`record` False leaves the commit to the caller (consolidation commits once per run)."""
    relation_type, strength = req.relation_type, req.strength
    refuse_control_characters(
        req.model_dump(include={"from_memory_id", "to_memory_id", "metadata"})
    )
    refuse_secrets(req.model_dump(include={"metadata"}), force=req.force)
    source = engine.resolve(req.from_memory_id)
    target = engine.resolve(req.to_memory_id)
    if source.path == target.path:
        raise InvalidArgument("a memory cannot be related to itself")
    if relation_type == SUPERSEDES:
        return _supersede_relation(engine, source, target, record=record)
    meta = {str(k): str(v) for k, v in (req.metadata or {}).items()}
    existing = [v for v in source.relations.get(relation_type, ()) if points_to(v, target)]
    if existing:
        view = relation_view(source.id, target.id, relation_type, link_target(existing[0]))
        return RelationResult(created=False, relation=view)
    link = link_for(target)

    def compute(parsed: ParsedNote) -> Mapping[str, object]:
        current = parsed.frontmatter.get(relation_type)
        values = [current] if isinstance(current, str) else listed(current)
        changes: dict[str, object] = {relation_type: [*values, link]}
        if strength != 1.0 or meta:
            companion = f"{relation_type}_meta"
            old = parsed.frontmatter.get(companion)
            entry = "; ".join([f"strength={strength:g}", *(f"{k}={v}" for k, v in meta.items())])
            changes[companion] = {**(old if isinstance(old, dict) else {}), target.title: entry}
        changes.update(id_changes(source, parsed, new_id))
        return changes

    written = engine.store.update_fields(source.path, compute)
    note = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    source_id = note.memory.id if note.memory else source.id
    message = (
        f"relate: {source.title} {relation_type} {target.title}\n\n"
        f"{trailers('relate', [source_id or '', target.id or ''])}"
    )
    commit = engine.commit([written.path], message) if record else None
    view = relation_view(
        source_id, target.id, relation_type, target.title, strength=strength, metadata=meta
    )
    return RelationResult(created=True, relation=view, commit=commit)


def _supersede_relation(
    engine: VaultEngine, source: Memory, target: Memory, *, record: bool
) -> RelationResult:
    """`supersedes` is a supersession (handlers/writes/supersession.py): both notes say it, and the
    newer memory takes over the older one's standing."""
    if source.status not in supersession.CURRENT:
        raise InvalidArgument(
            f"{source.path}: is {source.status}; only a current memory supersedes"
        )
    done = supersession.record_supersession(engine, source, [target])
    commit = (
        engine.commit(done.paths, supersession.commit_message(done))
        if record and done.paths
        else None
    )
    view = relation_view(done.new.id, target.id, SUPERSEDES, target.title)
    return RelationResult(created=bool(done.superseded), relation=view, commit=commit)
