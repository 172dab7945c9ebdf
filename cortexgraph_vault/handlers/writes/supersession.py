"""Recording that a memory replaces others: `supersedes` on the new note, `superseded_by` and
`valid_until` on each old one, written as minimal frontmatter edits in one git commit.

Whether a memory is superseded is read from its own note (`superseded_by`, core/memory.py):
a person who removes that property by hand undoes the supersession, and the catalogue sees it
as it sees any edit. The new memory takes over the standing of those it replaces
(core/supersession.py) and, when one of them was promoted, their place in the long-term folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from cortexgraph_vault.core.link_values import link_for, listed, points_to
from cortexgraph_vault.core.memory import SUPERSEDED_BY, SUPERSEDES, VALID_UNTIL, Memory
from cortexgraph_vault.core.note import ParsedNote
from cortexgraph_vault.core.supersession import standing_changes, taken_over
from cortexgraph_vault.engine import VaultEngine, new_id
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.lifecycle.undo import move_memory
from cortexgraph_vault.handlers.writes.note_fields import fresh_memory, id_changes
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.models import SupersededMemory, SupersedeResult
from cortexgraph_vault.models.limits import MAX_MEMORY_IDS
from cortexgraph_vault.requests.memories import SupersedeRequest

CURRENT = ("active", "promoted")


@dataclass
class Recorded:
    """What a supersession wrote: the new memory as it is now, the paths to commit, and the
    old memories it newly replaces (`superseded`) or had replaced already (`already`)."""

    new: Memory
    paths: list[str] = field(default_factory=list)
    superseded: list[Memory] = field(default_factory=list)
    already: list[Memory] = field(default_factory=list)
    promoted: bool = False


def olds_of(engine: VaultEngine, new_ref: str | None, old_refs: Sequence[str]) -> list[Memory]:
    """The memories `old_refs` name, checked before anything is written (a bad id changes
    nothing): each at most once, never the new memory itself."""
    if not old_refs:
        raise InvalidArgument("supersedes: give the ids of the memories it replaces")
    if len(old_refs) > MAX_MEMORY_IDS:
        raise InvalidArgument(f"supersedes: at most {MAX_MEMORY_IDS} memories")
    olds: dict[str, Memory] = {}
    for ref in old_refs:
        old = engine.resolve(ref)
        olds.setdefault(old.path, old)
    if new_ref is not None:
        new = engine.resolve(new_ref, statuses=CURRENT)
        check_pairs(new, list(olds.values()))
    return list(olds.values())


def check_pairs(new: Memory, olds: Sequence[Memory]) -> None:
    for old in olds:
        if old.path == new.path:
            raise InvalidArgument(f"{new.path}: a memory cannot supersede itself")
        if any(points_to(v, old) for v in new.superseded_by):
            raise InvalidArgument(
                f"{new.path}: was itself replaced by {old.path}; it cannot supersede it back "
                f"(remove `{SUPERSEDED_BY}` from {new.path} first)"
            )


def record_supersession(engine: VaultEngine, new: Memory, olds: Sequence[Memory]) -> Recorded:
    """Write the supersession of `olds` by `new` (no commit: the caller makes one of
    `Recorded.paths`). A pair already recorded on the new note takes no standing again."""
    check_pairs(new, olds)
    now = engine.now()
    done = Recorded(new)
    fresh_olds = [
        o for o in olds if not any(points_to(v, o) for v in new.relations.get(SUPERSEDES, ()))
    ]
    done.already = [o for o in olds if o not in fresh_olds]
    with engine.lock.held():
        # the olds as their files say now: their standing is what the new one takes
        current = [_reread(engine, o) for o in fresh_olds]

        def compute(parsed: ParsedNote) -> Mapping[str, object]:
            me = fresh_memory(engine, new.path, parsed, new)
            values = list(me.relations.get(SUPERSEDES, ()))
            links = [link_for(o) for o in current if not any(points_to(v, o) for v in values)]
            changes: dict[str, object] = {}
            if links:
                changes[SUPERSEDES] = [*values, *links]
            changes.update(
                standing_changes(me.decay, taken_over(me.decay, [o.decay for o in current]))
            )
            changes.update(id_changes(me, parsed, new_id))
            return changes

        if current:
            written = engine.store.update_fields(new.path, compute)
            note = engine.catalog.record(
                written.path, written.data, written.stamp.st, written.parsed
            )
            assert note.memory is not None
            done.new = note.memory
            done.paths.append(written.path)
        if done.new.status == "active" and any(o.status == "promoted" for o in current):
            # The slot was long-term: its correction is too.
            promoted = {"status": "promoted", "promoted_at": now}
            id_given = {} if done.new.id else {"id": new_id()}
            moved, old_path, note = move_memory(
                engine, done.new, engine.layout.ltm, {**promoted, **id_given}
            )
            assert note.memory is not None
            done.new, done.promoted = note.memory, True
            done.paths += [old_path, moved.path]
        link = link_for(done.new)
        for old in [*current, *done.already]:
            written = engine.store.update_fields(
                old.path, partial(_replaced_by, link, done.new, now)
            )
            if written.before != written.text:
                engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
                done.paths.append(written.path)
        done.superseded = current
    done.paths = list(dict.fromkeys(done.paths))
    return done


def _reread(engine: VaultEngine, m: Memory) -> Memory:
    note = engine.catalog.reload(m.path)
    return note.memory if note is not None and note.memory is not None else m


def _replaced_by(link: str, new: Memory, now: object, parsed: ParsedNote) -> Mapping[str, object]:
    current = parsed.frontmatter.get(SUPERSEDED_BY)
    values = listed(current.strip() and current) if isinstance(current, str) else listed(current)
    changes: dict[str, object] = {}
    if not any(points_to(str(v), new) for v in values):
        changes[SUPERSEDED_BY] = [*values, link]
    if not parsed.frontmatter.get(VALID_UNTIL):
        changes[VALID_UNTIL] = now
    if not parsed.frontmatter.get("id"):
        changes["id"] = new_id()
    return changes


def commit_message(done: Recorded) -> str:
    olds = ", ".join(o.title for o in done.superseded) or "nothing new"
    ids = [done.new.id or "", *(o.id or "" for o in done.superseded)]
    return f"supersede: {done.new.title} replaces {olds}\n\n{trailers('supersede', ids)}"


def result_of(done: Recorded, commit: str | None) -> SupersedeResult:
    def view(m: Memory) -> SupersededMemory:
        return SupersededMemory(memory_id=m.id, title=m.title, path=m.path)

    said = (
        [f"{done.new.title} supersedes {', '.join(o.title for o in done.superseded)}"]
        if done.superseded
        else []
    )
    if done.already:
        said.append(f"already recorded: {', '.join(o.title for o in done.already)}")
    if done.promoted:
        said.append(f"promoted to {done.new.path}, where the memory it replaces was")
    return SupersedeResult(
        memory_id=done.new.id or "",
        title=done.new.title,
        path=done.new.path,
        superseded=[view(o) for o in done.superseded],
        already=[view(o) for o in done.already],
        promoted=done.promoted,
        use_count=done.new.use_count,
        commit=commit,
        message="; ".join(said) or "nothing to record",
    )


def supersede(engine: VaultEngine, req: SupersedeRequest) -> SupersedeResult:
    """The new memory replaces the old ones: recorded in both notes (`supersedes`,
    `superseded_by`, `valid_until`), the new one taking over their standing; one commit. The
    same as `create_relation(new, old, "supersedes")` for each old one."""
    olds = olds_of(engine, req.new_id, req.old_ids)
    new = engine.resolve(req.new_id, statuses=CURRENT)
    done = record_supersession(engine, new, olds)
    commit = engine.commit(done.paths, commit_message(done)) if done.paths else None
    return result_of(done, commit)
