"""How memories end their short-term life: forgotten by gc, or promoted into the vault."""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePosixPath

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.core import wording
from cortexgraph_vault.core.decay import age_days
from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.rules import promote_reason, should_forget
from cortexgraph_vault.engine import VaultEngine, new_id
from cortexgraph_vault.errors import GitError, InvalidArgument, VaultError
from cortexgraph_vault.handlers.browse.size_budget import answer_within
from cortexgraph_vault.handlers.lifecycle.undo import commit_or_undo, move_memory, undo_moves
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.index.heap_trim import give_back_freed_memory
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.models import (
    ForgetCandidate,
    GcResult,
    PromoteCandidate,
    PromoteResult,
    Skipped,
    SnapshotResult,
)
from cortexgraph_vault.requests.lifecycle import GcRequest, PromoteMemoryRequest
from cortexgraph_vault.vault import files
from cortexgraph_vault.vault.lock import vault_key
from cortexgraph_vault.vault.store import Written, set_fields

log = logging.getLogger(__name__)


def content_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def forget_paths(
    engine: VaultEngine,
    memories: Sequence[Memory],
    message: str,
    *,
    operation: str,
    also: Sequence[str] = (),
) -> str | None:
    """Delete memories with git recording them, all or nothing; `also`: paths the caller
    changed under the lock that the same commit records (gc's archived memories).

    First every note whose current text git has not seen is committed, so restore always
    finds the last version. Then the files go and one commit records it. If that commit
    fails, the files are put back exactly as they were.
    """
    engine.ensure_git()
    engine.git_state.refuse_change(operation)
    history = engine.history
    with engine.lock.held():
        engine.repair_interrupted()
        texts: dict[str, str] = {}
        ids: list[str] = []
        for m in memories:
            if not m.id:
                # Restore finds forgotten memories by id, so a hand-made note gets one first.
                mid = new_id()
                written = engine.store.update_fields(m.path, set_fields({"id": mid}))
                engine.catalog.record(written.path, written.data)
            text, _ = engine.store.read(m.path)
            texts[m.path] = text
            ids.append(str(parse_note(text).frontmatter.get("id")))
        # One status call for the folders beats one git process per forgotten memory.
        changed = set(history.changed_paths(sorted({p.rsplit("/", 1)[0] for p in texts})))
        unseen = [p for p in texts if p in changed]
        if unseen:
            history.commit_paths(
                unseen,
                f"{wording.gc_record_subject(operation, len(unseen))}\n\n"
                f"{trailers(operation + '-record', ids)}",
            )
        # The notes are renamed aside (hidden, beside them) until the commit is made: a rename
        # needs no free space, so even a full disk can put them back. A crash from here on is
        # finished or undone by the next holder of the lock, from the journal.
        asides = {p: _aside(engine, p) for p in texts}
        engine.journal.begin(
            {
                "kind": "forget",
                "message": message,
                "files": {p: {"sha": content_sha(t), "aside": asides[p]} for p, t in texts.items()},
            }
        )
        removed: list[str] = []
        progress = engine.progress("forgetting")
        try:
            for path, text in texts.items():
                engine.store.set_aside(path, asides[path], content_sha(text))
                removed.append(path)
                # Out of the index as it leaves its path, here rather than by the watcher: a
                # watcher taking in a thousand renames beside the gc would starve a read beside
                # them of the interpreter.
                engine.catalog.drop(path)
                progress(len(removed), len(texts))
            # one git commit of every deletion: a long step of its own on a big gc
            committing = engine.progress("committing")
            committing(0, len(removed))
            sha = history.commit_paths([*removed, *also], message)
            committing(len(removed), len(removed))
        except (GitError, OSError, VaultError) as exc:
            for path in removed:
                engine.store.put_back(asides[path], path)
                engine.catalog.reload(path)
            engine.journal.done()
            raise GitError(f"{exc}; nothing was forgotten: every memory is still in place") from exc
        left: list[str] = []
        for path in removed:
            try:
                engine.store.discard(asides[path])
            except OSError:
                left.append(asides[path])
        if left:  # committed; the journal stays, so the next holder of the lock removes them
            log.warning("%s: could not remove %s yet", engine.root, ", ".join(left))
        else:
            engine.journal.done()
        return sha


def _aside(engine: VaultEngine, rel: str) -> str:
    hidden = files.aside_path_for(engine.store.path(rel)).name
    return PurePosixPath(rel).with_name(hidden).as_posix()


def _left_alone(note: IndexedNote, skip: set[str]) -> Skipped | None:
    """Why gc leaves a note alone: open in an editor, or not read cleanly (gc writes to the
    note first, an id; a note with a problem is the person's to fix, left exactly as it is)."""
    if note.path in skip:
        return Skipped(path=note.path, reason="open in an editor; left alone")
    if note.problems:
        return Skipped(path=note.path, reason=f"{note.problems[0]}; left alone")
    return None


def gc_candidates(
    engine: VaultEngine, skip_paths: Iterable[str], limit: int | None = None
) -> tuple[list[tuple[Memory, float]], list[tuple[Memory, float]], list[Skipped]]:
    """What gc takes, chosen from each note's hot fields (`memory_state`: only the memories
    returned are decoded): the faded short-term memories, lowest score first (ties by path),
    the first `limit` of them; the memories replaced by newer ones (`superseded_by`),
    short-term or promoted, by path: done, so gc archives them whatever their score (out of
    search and review, still in the vault, the chain of links resolves, and in its history);
    and the notes left alone, the faded ones' first."""
    now = engine.now()
    skip = {engine.safe_rel(p) for p in skip_paths}
    faded: list[tuple[float, str, IndexedNote]] = []
    replaced: list[tuple[float, str, IndexedNote]] = []
    skipped: tuple[list[Skipped], list[Skipped]] = ([], [])
    for note in engine.fresh().notes():
        state = note.memory_state
        if state is None:
            continue
        if state.superseded:  # done, not faded
            if state.status not in ("active", "promoted"):
                continue
            found = replaced
        elif state.status == "active" and engine.layout.folder_of(note.path) == "stm":
            found = faded
        else:
            continue
        s = engine.score_of(state.decay, now)
        if found is faded and not should_forget(s, engine.rules):
            continue
        left = _left_alone(note, skip)
        if left is not None:
            skipped[found is replaced].append(left)
        else:
            found.append((s, note.path, note))
    faded.sort(key=lambda entry: (entry[0], entry[1]))
    replaced.sort(key=lambda entry: entry[1])

    def decoded(chosen: list[tuple[float, str, IndexedNote]]) -> list[tuple[Memory, float]]:
        return [(m, s) for s, _, note in chosen if (m := note.memory_unkept()) is not None]

    return decoded(faded[:limit]), decoded(replaced), [*skipped[0], *skipped[1]]


def _move_all(
    engine: VaultEngine,
    memories: Sequence[Memory],
    folder: str,
    changes: Callable[[Memory], dict[str, object]],
    step: str,
) -> list[tuple[str, Written]]:
    """Move memories into `folder` with `changes` set, all or none (the caller holds the lock
    and commits)."""
    moves: list[tuple[str, Written]] = []
    progress = engine.progress(step)
    try:
        for done, m in enumerate(memories, 1):
            progress(done, len(memories))
            written, old, _ = move_memory(engine, m, folder, changes(m))
            moves.append((old, written))
    except (VaultError, OSError):
        undo_moves(engine, moves)
        raise
    return moves


@answer_within("candidates", "memory_ids", "skipped")
def gc(engine: VaultEngine, req: GcRequest) -> GcResult:
    dry_run, archive_instead, skip_paths = req.dry_run, req.archive_instead, req.skip_paths or ()
    now = engine.now()
    found, done, skipped = gc_candidates(engine, skip_paths, req.limit)
    replaced_by = {m.path: [link_target(v) for v in m.superseded_by] for m, _ in done}
    both = [*done, *found]
    candidates = [
        ForgetCandidate(
            id=m.id,
            title=m.title,
            path=m.path,
            score=round(s, 6),
            use_count=m.use_count,
            age_days=age_days(m.created, now),
            superseded_by=replaced_by.get(m.path, []),
        )
        for m, s in both
    ]
    ids = [m.id or "" for m, _ in both]
    freed = round(sum(s for _, s in both), 6)
    verb = "archive" if archive_instead else "forget"

    def answer(
        message: str, removed: int = 0, archived: int = 0, commit: str | None = None
    ) -> GcResult:
        return GcResult(
            dry_run=dry_run,
            removed_count=removed,
            archived_count=archived,
            freed_score_sum=freed,
            memory_ids=ids,
            total_affected=len(both),
            candidates=candidates,
            skipped=skipped,
            commit=commit,
            message=message,
        )

    if dry_run or not both:
        parts = [wording.gc_preview(len(found), verb) if dry_run else "nothing to forget"]
        if dry_run and done:
            parts.append(wording.gc_superseded_preview(len(done)))
        return answer("; ".join(parts))
    engine.git_state.refuse_change("gc")
    forgotten = [] if archive_instead else found
    archived = both if archive_instead else done
    lines = [f"- {m.title} ({m.id or 'no id'}) score {s:.4f}" for m, s in found]
    lines += [
        f"- {m.title} ({m.id or 'no id'}) superseded by {', '.join(replaced_by[m.path])}"
        for m, _ in done
    ]
    subject = (
        wording.gc_archive_subject(len(archived))
        if not forgotten
        else wording.gc_forget_subject(len(forgotten))
        + (f", archive {wording.count(len(done), 'superseded memory')}" if done else "")
    )
    message = subject + "\n\n" + "\n".join(lines)
    with engine.lock.held():
        moves = _move_all(
            engine,
            [m for m, _ in archived],
            engine.layout.archive,
            lambda m: {
                "status": "archived",
                "archived_at": now,
                **({} if m.id else {"id": new_id()}),
            },
            "archiving",
        )
        moved = [p for old, written in moves for p in (old, written.path)]
        if not forgotten:
            key = "Archived"
            commit, unrecorded = commit_or_undo(
                engine,
                moved,
                message + "\n\n" + trailers("gc", ids, key),
                lambda: undo_moves(engine, moves),
                "nothing was archived: every memory is back where it was",
            )
            said = wording.gc_archived(len(archived), engine.layout.archive)
            return answer(
                said + (f"; {unrecorded}" if unrecorded else ""), 0, len(archived), commit
            )
        try:
            commit = forget_paths(
                engine,
                [m for m, _ in forgotten],
                message + "\n\n" + trailers("gc", ids, "Forgotten"),
                operation="gc",
                also=moved,
            )
        except (GitError, VaultError, OSError):
            undo_moves(engine, moves)
            raise
    give_back_freed_memory()  # the texts, postings and parses of every memory forgotten
    said = wording.gc_forgot(len(forgotten))
    if done:
        said += "; " + wording.gc_archived(len(done), engine.layout.archive)
    return answer(said, len(forgotten), len(done), commit)


@answer_within("candidates", "promoted_ids", "moved")
def promote(
    engine: VaultEngine, req: PromoteMemoryRequest, *, record: bool = True
) -> PromoteResult:
    """`record` False leaves the commit to the caller (consolidation commits once per stage)."""
    memory_id, auto_detect, dry_run, force = req.memory_id, req.auto_detect, req.dry_run, req.force
    now = engine.now()
    chosen: list[tuple[Memory, float, str]] = []
    if memory_id:
        m = engine.resolve(memory_id)
        if m.status != "active":
            raise InvalidArgument(
                f"{m.path}: already {m.status}; only active memories are promoted"
            )
        if m.superseded and not force:
            raise InvalidArgument(
                f"{m.path}: superseded by {', '.join(m.superseded_by)}; what is no longer true "
                "is not promoted (pass force to promote it anyway)",
                params=("force",),
            )
        s = engine.score(m, now)
        reason = promote_reason(m.decay, s, now, engine.rules)
        if reason is None and not force:
            raise InvalidArgument(
                f"{m.path}: not a promotion candidate (score {s:.3f}, used {wording.count(m.use_count, 'time')}); "
                "pass force to promote it anyway",
                params=("force",),
            )
        chosen.append((m, s, reason or "forced"))
    elif auto_detect:
        for m in engine.fresh().memories():
            if m.status != "active" or engine.layout.folder_of(m.path) != "stm" or m.superseded:
                continue
            s = engine.score(m, now)
            reason = promote_reason(m.decay, s, now, engine.rules)
            if reason:
                chosen.append((m, s, reason))
        chosen.sort(key=lambda c: (-c[1], c[0].path))
    else:
        raise InvalidArgument("give a memory_id, or auto_detect to find candidates")
    candidates = [
        PromoteCandidate(
            id=m.id,
            title=m.title,
            path=m.path,
            preview=m.content[:200],
            reason=reason,
            score=round(s, 6),
            use_count=m.use_count,
            age_days=age_days(m.created, now),
        )
        for m, s, reason in chosen
    ]
    if dry_run or not chosen:
        return PromoteResult(
            dry_run=dry_run,
            candidates_found=len(chosen),
            promoted_count=0,
            promoted_ids=[],
            candidates=candidates,
            message=wording.promote_preview(len(chosen), engine.layout.ltm)
            if dry_run
            else "no memory qualifies for promotion",
        )
    engine.git_state.refuse_change("promote")
    ids = [m.id or new_id() for m, _, _ in chosen]
    new_ids = dict(zip([m.path for m, _, _ in chosen], ids, strict=True))
    with engine.lock.held():  # held through the commit, so an undo cannot clobber anyone
        moves = _move_all(
            engine,
            [m for m, _, _ in chosen],
            engine.layout.ltm,
            lambda m: {"status": "promoted", "promoted_at": now, "id": new_ids[m.path]},
            "promoting",
        )
        moved = {old: written.path for old, written in moves}
        lines = "\n".join(f"- {m.title} ({m.id}): {reason}" for m, _, reason in chosen)
        paths = [p for pair in moved.items() for p in pair]
        message = f"{wording.promote_subject(len(moved), engine.layout.ltm)}\n\n{lines}\n\n"
        message += trailers("promote", ids, "Promoted")
        commit, unrecorded = (
            commit_or_undo(
                engine,
                paths,
                message,
                lambda: undo_moves(engine, moves),
                "nothing was promoted: every memory is back where it was",
            )
            if record
            else (None, "")
        )
    return PromoteResult(
        dry_run=False,
        candidates_found=len(chosen),
        promoted_count=len(moved),
        promoted_ids=ids,
        candidates=candidates,
        moved=moved,
        commit=commit,
        message=wording.promoted(len(moved), engine.layout.ltm)
        + (f"; {unrecorded}" if unrecorded else ""),
    )


def snapshot(engine: VaultEngine) -> SnapshotResult:
    """Commit the frontmatter changes of touches and observes gathered since the last one;
    the commits held while git was busy first, each under its own subject."""
    engine.ensure_git()
    engine.git_state.refuse_change("a snapshot")
    engine.commit_held()
    folders = [engine.layout.stm, engine.layout.ltm, engine.layout.archive]
    paths = engine.history.changed_paths(folders)
    if not paths:
        return SnapshotResult(
            commit=None, paths=[], message="nothing changed since the last snapshot"
        )
    sha = engine.history.commit_paths(
        paths, f"{wording.snapshot_subject(len(paths))}\n\n{trailers('snapshot', [])}"
    )
    return SnapshotResult(commit=sha, paths=paths, message=wording.snapshot_recorded(len(paths)))


# When the next snapshot of gathered touches is due, known without a system call. Every touch
# asks (`maybe_snapshot`): a stat of the stamp file every process on the vault shares, of the
# vault's `.git`, and the vault's real path for the stamp's name, eight system calls on the
# change's turn, each a hand-over of the interpreter to a reader thread. The stamp's mtime only
# ever moves forward (any process touches it when it snapshots), so once it was read, no
# snapshot is due before that mtime plus the interval: until then the answer is known here.
_due: dict[Path, float] = {}  # stamp file → wall-clock time before which none is due
_due_lock = threading.Lock()


def stamp_file(root: Path) -> Path:
    """The stamp of the last snapshot of the vault at `root` (outside the vault)."""
    return _stamp_file(str(user_cache_dir()), str(root))


@functools.lru_cache(maxsize=64)
def _stamp_file(cache_dir: str, root: str) -> Path:
    return Path(cache_dir) / "snapshots" / f"{vault_key(Path(root))}.stamp"


def not_due_yet(stamp: Path) -> bool:
    """True when a look at `stamp` made earlier says no snapshot can be due now."""
    with _due_lock:
        return time.time() < _due.get(stamp, 0.0)


def looked(stamp: Path, last: float, interval: float) -> None:
    """`stamp` was read (or touched) with mtime `last`: none is due before last + interval."""
    with _due_lock:
        _due[stamp] = max(_due.get(stamp, 0.0), last + interval)


def maybe_snapshot(engine: VaultEngine) -> SnapshotResult | None:
    """Gather reinforcements into a snapshot commit once per `git_commit_interval`.

    The time of the last snapshot is kept in a stamp file outside the vault, shared by every
    process on this vault (CLI calls, the daemon, stdio MCP servers). Wall-clock time, not
    the overridable clock: a `--now` preview must not trigger or postpone real commits.
    """
    cfg = engine.config
    if not cfg.git_auto_commit:
        return None
    stamp = stamp_file(engine.root)
    if not_due_yet(stamp) or not engine.history.available:
        return None
    try:
        last = stamp.stat().st_mtime
    except FileNotFoundError:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
        looked(stamp, time.time(), cfg.git_commit_interval)
        return None
    if time.time() - last < cfg.git_commit_interval:
        looked(stamp, last, cfg.git_commit_interval)
        return None
    stamp.touch()
    try:
        return snapshot(engine)
    except VaultError as exc:  # a busy git must not fail the touch that triggered this
        log.warning("snapshot skipped: %s", exc)
        return None
