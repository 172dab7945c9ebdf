"""The past of memories, from git: history of one memory, a version, restore, the forgotten."""

from __future__ import annotations

from datetime import datetime

from cortexgraph_vault.core.memory import Memory, memory_from_fields
from cortexgraph_vault.core.note import REMOVE, minimal_update, parse_note
from cortexgraph_vault.core.times import format_time, parse_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import Ambiguous, GitError, InvalidArgument, NotFound
from cortexgraph_vault.handlers.browse.size_budget import answer_within, shrink_text
from cortexgraph_vault.handlers.lifecycle.undo import (
    commit_or_undo,
    move_memory,
    undo_create,
    undo_moves,
)
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.index.notes.records import aliases_of
from cortexgraph_vault.models import (
    CommitView,
    ForgottenList,
    ForgottenView,
    HistoryResult,
    RestoreResult,
    VersionResult,
)
from cortexgraph_vault.requests.memory_history import (
    ForgottenMemoriesRequest,
    MemoryHistoryRequest,
    MemoryVersionRequest,
    RestoreMemoryRequest,
)
from cortexgraph_vault.vault.layout import title_as_written


def _require_git(engine: VaultEngine) -> None:
    if not engine.history.available:
        raise GitError(engine.history.why_unavailable())


def _live_or_id(engine: VaultEngine, ref: str) -> tuple[str, str | None]:
    """(memory id, current path or None) for a live memory or a forgotten one."""
    try:
        m = engine.resolve(ref)
    except NotFound:
        m = None
    if m is not None:
        if not m.id:
            raise NotFound(f"{m.path}: has no id yet, so git cannot follow it; touch it once first")
        return m.id, m.path
    forgotten = engine.history.forgotten(limit=10_000)
    matches = [f for f in forgotten if f.id == ref]
    if not matches and len(ref) >= 4:
        low = ref.lower()
        matches = [f for f in forgotten if f.id.startswith(ref) or f.title.lower() == low]
    ids = sorted({f.id for f in matches})
    if len(ids) > 1:
        raise Ambiguous(f"{ref!r} matches {len(ids)} forgotten memories", ids)
    if ids:
        return ids[0], None
    raise NotFound(
        f"no memory, live or forgotten, matches {ref!r}; forgotten_memories lists the "
        "forgotten ones",
        operations=("forgotten_memories",),
    )


@answer_within("commits", say="notice")
def history(engine: VaultEngine, req: MemoryHistoryRequest) -> HistoryResult:
    _require_git(engine)
    memory_id, path = _live_or_id(engine, req.memory_id)
    commits = engine.history.memory_log(memory_id, path_hint=path, limit=req.limit)
    return HistoryResult(
        memory_id=memory_id,
        path=path,
        exists=path is not None,
        commits=[
            CommitView(
                sha=c.sha,
                short=c.short,
                time=format_time(c.time),
                author=c.author,
                summary=c.summary,
                change=c.change,
                path=c.paths[0] if c.paths else None,
            )
            for c in commits
        ],
    )


def version(engine: VaultEngine, req: MemoryVersionRequest) -> VersionResult:
    return version_at(engine, req.memory_id, req.commit)


def version_at(engine: VaultEngine, ref: str, commit: str) -> VersionResult:
    _require_git(engine)
    memory_id, _ = _live_or_id(engine, ref)
    for v in engine.history.memory_versions(memory_id, limit=500):
        if v.commit.sha.startswith(commit) or v.commit.short == commit:
            found = VersionResult(
                memory_id=memory_id, commit=v.commit.sha, path=v.path, text=v.text
            )
            return _text_within(engine, found)
    # A pure move is not a new version; its text is the file at that commit's new path.
    for c in engine.history.memory_log(memory_id, limit=500):
        if c.sha.startswith(commit) and c.change != "deleted" and c.paths:
            path = c.paths[-1]
            found = VersionResult(
                memory_id=memory_id,
                commit=c.sha,
                path=path,
                text=engine.history.text_at(c.sha, path),
            )
            return _text_within(engine, found)
    raise NotFound(f"memory {memory_id} has no version at commit {commit!r}; see its history")


def _text_within(engine: VaultEngine, found: VersionResult) -> VersionResult:
    """A version too long for the answer, cut; git has the whole of it."""

    def tail(kept: int, total: int) -> str:
        return f"…[{total - kept} more characters; `git show {found.commit}:{found.path}` in the vault]"

    return shrink_text(found, "text", engine.config.result_max_chars, tail)


def restored_fields(m: Memory, now: datetime) -> dict[str, object]:
    """A restored memory starts fresh (last_used now, so it does not fade straight back) but
    the restore is not a use: use_count stays and `use_days` keeps the days of real use it
    had, so a restore never makes a memory a promotion candidate."""
    return {"status": "active", "last_used": now, "use_days": m.use_days}


def restore(engine: VaultEngine, req: RestoreMemoryRequest) -> RestoreResult:
    """Bring a forgotten or archived memory back into short-term memory, fresh but not used."""
    ref, commit = req.memory_id, req.commit
    now = engine.now()
    try:
        live = engine.resolve(ref)
    except NotFound:
        live = None
    if live is not None and commit is None:
        if live.status != "archived":
            raise InvalidArgument(f"{live.path}: is {live.status}, not forgotten or archived")
        changes = restored_fields(live, now)
        with engine.lock.held():  # through the commit, so an undo cannot clobber anyone
            written, old, _ = move_memory(engine, live, engine.layout.stm, changes)
            sha, unrecorded = commit_or_undo(
                engine,
                [old, written.path],
                f"restore: {live.title} from {engine.layout.archive}/\n\n{trailers('restore', [live.id or ''])}",
                lambda: undo_moves(engine, [(old, written)]),
                "nothing was restored: the memory is still in the archive",
            )
        return RestoreResult(
            memory_id=live.id or "",
            path=written.path,
            restored_from=old,
            commit=sha,
            message=f"restored {live.title} from the archive"
            + (f"; {unrecorded}" if unrecorded else ""),
        )
    _require_git(engine)
    memory_id, _ = _live_or_id(engine, ref)
    if live is not None:
        raise InvalidArgument(f"{live.path}: exists; restoring an old version over it is refused")
    if commit:
        found = version_at(engine, memory_id, commit)
        text, path, sha_from = found.text, found.path, found.commit
    else:
        last = engine.history.last_version_before_deletion(memory_id)
        if last is None:
            raise NotFound(f"memory {memory_id}: git has no version of it to restore")
        text, path, sha_from = last.text, last.path, last.commit.sha
    parsed = parse_note(text)
    title = path.rsplit("/", 1)[-1].removesuffix(".md")
    before = memory_from_fields(
        path=path,
        title=title,
        frontmatter=parsed.frontmatter,
        body=parsed.body,
        content_hash="",
        file_created=now,
        file_modified=now,
        folder_status="active",
    )
    changes = restored_fields(before, now)
    if parsed.frontmatter.get("promoted_at") is not None:
        changes["promoted_at"] = REMOVE
    new_text = minimal_update(text, changes)
    names = engine.fresh().name_in_use
    with engine.lock.held():
        written = engine.store.create(engine.layout.stm, title, new_text, names)
        engine.catalog.record(written.path, written.data)
        sha, unrecorded = commit_or_undo(
            engine,
            [written.path],
            f"restore: {title} from {sha_from[:10]}\n\n{trailers('restore', [memory_id])}",
            lambda: undo_create(engine, written),
            "nothing was restored: the memory stays in git only",
        )
    return RestoreResult(
        memory_id=memory_id,
        path=written.path,
        restored_from=sha_from,
        commit=sha,
        message=f"restored {title} from commit {sha_from[:10]}"
        + (f"; {unrecorded}" if unrecorded else ""),
    )


@answer_within("forgotten")
def forgotten(engine: VaultEngine, req: ForgottenMemoriesRequest) -> ForgottenList:
    """Memories restore_memory can bring back, newest first: those archived (still in the
    archive folder) and those deleted (in git only). Without git, the archived ones."""
    found = _archived(engine)
    note = ""
    if engine.history.available:
        for f in engine.history.forgotten(limit=req.limit):
            last = parse_note(f.last_text)
            body = last.body.strip()
            # the title the memory had, not its file name ("weekly 1:1 on ..." saved as
            # `weekly 1 1 on ....md`): what search and show call it
            title = title_as_written(f.title, aliases_of(last.frontmatter))
            found.append(
                ForgottenView(
                    id=f.id,
                    title=title,
                    path=f.path,
                    kind="deleted",
                    deleted_in=f.deleted_in.sha,
                    deleted_at=format_time(f.deleted_in.time),
                    preview=body[:200],
                )
            )
    else:
        note = f"; deleted memories are not listed: {engine.history.why_unavailable()}"
    found.sort(key=lambda f: f.deleted_at, reverse=True)
    shown = found[: req.limit]
    archived = sum(1 for f in shown if f.kind == "archived")
    message = (
        f"{len(shown)} forgotten ({archived} archived, {len(shown) - archived} deleted); "
        "restore_memory brings one back by id"
        if shown
        else "nothing forgotten or archived"
    )
    return ForgottenList(count=len(shown), forgotten=shown, message=message + note)


def _archived(engine: VaultEngine) -> list[ForgottenView]:
    catalog = engine.fresh()
    out = []
    for m in catalog.memories():
        if m.status != "archived":
            continue
        note = catalog.note(m.path)
        when = parse_time(note.frontmatter.get("archived_at")) if note is not None else None
        out.append(
            ForgottenView(
                id=m.id or m.path,
                title=m.title,
                path=m.path,
                kind="archived",
                deleted_in=None,
                deleted_at=format_time(when or m.last_used),
                preview=m.content[:200],
            )
        )
    return out
