"""`sync`: one memory across devices through a git remote.

Record pending reinforcements (a snapshot commit), fetch, merge with the rules of
`core/note_merge.py`, push. Memory notes both sides changed are merged here, in this process;
what git cannot see as a content merge is settled by the structural rules (README, "One memory
on several devices"):
- forgotten by gc on one device, used on the other: the memory is judged by its merged history
  (its score now, from the merged fields); at or above the forget threshold it is kept,
  otherwise the forget stands; either way the merge commit says which. A deletion that was not
  a gc (by hand) stands.
- saved under the same name on both (different ids): both kept, the other under `Name 2.md`.
- promoted or archived (moved) on one device and touched on the other: git follows the move and
  the fields merge at the new path, so the touch lands on the promoted or archived note.
A person's own uncommitted notes are never committed: sync refuses and names them.
The caller's step listener (progress.py `steps_to`) hears each step and, during a fetch or
push, git's transfer lines (`TransferLine`, a str with its numbers); the result names the
devices what came in was made on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.memory import memory_from_fields
from cortexgraph_vault.core.note import content_hash, parse_note
from cortexgraph_vault.core.note_merge import merge_versions
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import SyncError, VaultError
from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle
from cortexgraph_vault.handlers.sync import sync_ids, sync_record
from cortexgraph_vault.history import sync_git
from cortexgraph_vault.history.runner import GitRunner
from cortexgraph_vault.history.sync_git import Unmerged
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.history.vault_history import DEVICE_TRAILER
from cortexgraph_vault.models import SyncDecision, SyncResult
from cortexgraph_vault.progress import step_listener
from cortexgraph_vault.requests.vault import SyncVaultRequest
from cortexgraph_vault.vault.files import remove_if_present

Progress = Callable[[str], object]
PUSH_ATTEMPTS = 3
LISTED = 100


class _Merge:
    """What the settling of one merge did."""

    def __init__(self) -> None:
        self.decisions: list[SyncDecision] = []
        self.conflicted: list[str] = []
        self.unresolved: list[str] = []
        self.written: list[str] = []  # new files we made (removed again if the merge is undone)
        # Forgets that stood: the merged memory goes into the merge commit and is deleted by a
        # commit of its own, so a device that meets the forget later finds every use counted
        # in the version that commit deleted.
        self.forget_after: dict[str, str] = {}  # repo path -> memory id
        self.judged: set[str] = set()  # ids whose forget was settled with both sides' versions
        self.staging: sync_git.Staging | None = None
        self.blobs: dict[str, bytes] = {}
        self.base_commit: str | None = None
        self.say: Progress = lambda _: None
        self.sources: list[str] = []  # devices named in the commits brought in

    def stage(self, repo_path: str, data: bytes | None) -> None:
        assert self.staging is not None
        self.staging.settle(repo_path, data)


def sync(engine: VaultEngine, req: SyncVaultRequest) -> SyncResult:
    """One sync; its outcome (or why it failed) is kept for `last_sync` (handlers/sync/sync_record.py)."""
    try:
        result = _sync(engine, req.remote, step_listener())
    except VaultError as exc:
        sync_record.remember(engine, None, str(exc))
        raise
    sync_record.remember(engine, result)
    return result


def _sync(engine: VaultEngine, remote: str | None, progress: Progress | None) -> SyncResult:
    say = progress or (lambda _: None)
    history = engine.history
    if not history.available:
        raise SyncError(f"{history.why_unavailable()}; sync needs the vault in git")
    runner = history.runner
    sync_git.clear_left_lines(runner)  # of a sync killed in the middle of its merge
    branch = sync_git.current_branch(runner)
    remote = sync_git.choose_remote(runner, branch, remote)
    if sync_git.merge_in_progress(runner):
        raise SyncError(
            f"{runner.work_tree}: a merge or rebase is in progress; finish or abort "
            "it (git merge --abort) and sync again; nothing was changed"
        )
    foreign = sync_git.foreign_changes(runner, engine.layout.is_memory_path)
    if foreign:
        shown = ", ".join(foreign[:5]) + (
            f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        )
        raise SyncError(
            f"your own notes have uncommitted changes ({shown}); sync never commits "
            "them: commit or stash them and sync again; nothing was changed"
        )
    history.install_merge_driver(engine.memory_folders())  # a person's own `git pull` too
    set_upstream = not runner.run("config", "--get", f"branch.{branch}.remote").out.strip()
    received = sent = 0
    merge = _Merge()
    merge.say = say
    with engine.lock.held():
        recorded = lifecycle.snapshot(engine).paths
    if recorded:
        say(f"recorded {len(recorded)} memories used here")
    before = runner.head_or_none()
    for _ in range(PUSH_ATTEMPTS):
        say(f"fetching from {remote}")
        sync_git.fetch(runner, remote, say if progress is not None else None)
        upstream = sync_git.remote_ref(runner, remote, branch)
        if upstream is not None:
            with engine.lock.held():
                received += _bring_in(engine, runner, remote, upstream, merge)
            sent = sync_git.count(runner, f"{upstream}..HEAD")
        else:
            sent = sync_git.count(runner, "HEAD")
        if sent:
            say(f"sending {wording.count(sent, 'commit')} to {remote}")
        hear = say if progress is not None else None
        if sent == 0 or sync_git.push(runner, remote, branch, set_upstream=set_upstream, hear=hear):
            break
    else:
        raise SyncError(
            f"{remote!r} kept moving on while we pushed ({PUSH_ATTEMPTS} tries); "
            "what was merged here is committed; sync again"
        )
    engine.fresh()
    return _result(engine, runner, remote, branch, before, recorded, received, sent, merge)


def _bring_in(
    engine: VaultEngine, runner: GitRunner, remote: str, upstream: str, merge: _Merge
) -> int:
    incoming = sync_git.count(runner, f"HEAD..{upstream}")
    if incoming == 0:
        return 0
    merge.say(f"bringing in {wording.count(incoming, 'commit')} from {remote}")
    named = sync_git.devices_in(runner, f"HEAD..{upstream}", DEVICE_TRAILER)
    merge.sources += [n for n in named if n != engine.device_name and n not in merge.sources]
    if sync_git.count(runner, f"{upstream}..HEAD") == 0:
        sync_git.fast_forward(runner, upstream)
        return incoming
    base = sync_git.merge_base(runner, "HEAD", upstream)
    if base is None:
        raise SyncError(
            f"{remote!r} holds an unrelated history (no commit in common with this "
            "vault); sync will not join them; nothing was changed"
        )
    merge.base_commit = base
    entries = sync_git.start_merge(runner, upstream, engine.memory_folders())
    merge.staging = sync_git.Staging(runner)
    merge.blobs = runner.read_blobs(sha for e in entries for sha in e.stages.values())
    # Changed on both sides first, so that a memory moved on one side and used on the other
    # finds its moved file settled (and its id in the index) when its old path comes up.
    both = [e for e in entries if 2 in e.stages and 3 in e.stages]
    for entry in both + [e for e in entries if e not in both]:
        _settle(engine, runner, upstream, entry, merge)
    merge.staging.flush()
    if not merge.unresolved:
        sync_ids.fold_forgotten_versions(
            runner,
            base,
            ["HEAD", upstream],
            engine.memory_folders(),
            merge.decisions,
            merge.judged,
        )
        sync_ids.merge_duplicate_ids(
            runner,
            base,
            engine.memory_folders(),
            merge.decisions,
            merge.unresolved,
            engine.layout.folder_for_status,
        )
    if merge.unresolved:
        sync_git.abort_merge(runner)
        for rel in merge.written:
            remove_if_present(runner.work_tree / rel)
        raise SyncError(
            f"could not merge {', '.join(merge.unresolved)} with {remote!r}; the "
            "merge was undone and nothing was changed; merge them by hand "
            f"(git pull {remote})"
        )
    sync_git.commit_merge(
        runner,
        _message(remote, incoming, merge.decisions) + f"\n{DEVICE_TRAILER}: {engine.device_name}",
    )
    if merge.forget_after:
        _forget_what_stood(engine, runner, merge.forget_after)
    return incoming


def _forget_what_stood(engine: VaultEngine, runner: GitRunner, forget: dict[str, str]) -> None:
    paths = []
    for repo_path in sorted(forget):
        remove_if_present(runner.work_tree / repo_path)
        paths.append(runner.from_repo(repo_path) or repo_path)
    ids = [i for i in forget.values() if i]
    engine.history.commit_paths(
        paths,
        f"sync: the forget of {len(paths)} memories stands (faded on every device)\n\n"
        + trailers("gc", ids, "Forgotten"),
    )


def _settle(
    engine: VaultEngine, runner: GitRunner, upstream: str, entry: Unmerged, merge: _Merge
) -> None:
    rel = runner.from_repo(entry.repo_path)
    if rel is None or not engine.layout.is_memory_path(rel):
        merge.unresolved.append(entry.repo_path + " (not a memory note)")
        return
    base, ours, theirs = (merge.blobs.get(entry.stages.get(n, "")) for n in (1, 2, 3))
    if ours is not None and theirs is not None:
        if base is None and merge.base_commit is not None:
            # Added here on both sides: the same memory moved (promoted on both devices) has
            # its common version at its old path.
            memory_id = sync_ids.id_of(ours)
            if memory_id:
                base = sync_ids.version_at(
                    runner, merge.base_commit, memory_id, engine.memory_folders()
                )
        outcome = merge_versions(base, ours, theirs)
        if not outcome.clean:
            merge.unresolved.append(f"{rel} ({outcome.report})")
            return
        merge.stage(entry.repo_path, outcome.result)
        if outcome.other is not None:
            other = sync_git.free_path(runner, entry.repo_path, merge.written)
            merge.stage(other, outcome.other)
            merge.written.append(other)
            merge.decisions.append(
                SyncDecision(
                    path=rel,
                    rule="two-memories",
                    outcome=f"both kept (the smaller id at this name); the other "
                    f"is {runner.from_repo(other)}",
                )
            )
        elif outcome.report:
            merge.conflicted.append(rel)
            merge.decisions.append(
                SyncDecision(path=rel, rule="conflicted", outcome=outcome.report)
            )
        return
    _forgotten_vs_used(engine, runner, upstream, entry, rel, base, ours, theirs, merge)


def _forgotten_vs_used(
    engine: VaultEngine,
    runner: GitRunner,
    upstream: str,
    entry: Unmerged,
    rel: str,
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    merge: _Merge,
) -> None:
    assert merge.staging is not None
    merge.staging.flush()  # the index must show every id settled so far
    deleting_side, other_side = ("HEAD", upstream) if ours is None else (upstream, "HEAD")
    kept = theirs if ours is None else ours
    assert kept is not None
    memory_id = sync_ids.id_of(kept)
    elsewhere = sync_ids.ids_in_index(runner, engine.memory_folders()).get(memory_id or "", [])
    if any(path != entry.repo_path for path in elsewhere):
        # Moved or joined to another file on one side, used here: kept, and merged with that
        # file by the one-memory-one-file sweep.
        merge.stage(entry.repo_path, kept)
        return
    found = sync_git.deleting_commit(runner, deleting_side, other_side, entry.repo_path, memory_id)
    last, message = found if found is not None else (None, "")
    by_gc = "Cortexgraph-Operation: gc" in message
    if found is None and memory_id:  # moved on one side, forgotten (at its new path) there
        by_gc = sync_git.forgotten_by_gc(runner, deleting_side, other_side, memory_id)
    if not by_gc:
        # A deletion of this memory by a person stands. A removal by one of our own operations
        # (a move: promote, archive, consolidate) or one we cannot find the commit of (a merge
        # on another device) is no decision to forget it: the used version is kept.
        stands = found is not None and "Cortexgraph-Operation:" not in message
        merge.stage(entry.repo_path, None if stands else kept)
        merge.decisions.append(
            SyncDecision(
                path=rel,
                id=memory_id,
                rule="deleted-vs-used",
                outcome="deleted by hand on one device: the deletion stands"
                if stands
                else "kept: used here, and no device forgot it",
            )
        )
        return
    if memory_id:
        merge.judged.add(memory_id)
    forgotten = (
        sync_ids.forgotten_versions(
            runner, deleting_side, other_side, memory_id or "", engine.memory_folders()
        )
        if memory_id
        else []
    )
    if len(forgotten) > 1:  # forgotten on several devices, each with its own last uses
        last = sync_ids.combined_version(
            runner, forgotten, memory_id or "", engine.memory_folders()
        )
    deleted = last if last is not None else base or kept
    pair = (deleted, kept) if ours is None else (kept, deleted)
    outcome = merge_versions(base, *pair)
    text = (outcome.result if outcome.clean else kept).decode("utf-8", "replace")
    parsed = parse_note(text)
    now = engine.now()
    memory = memory_from_fields(
        path=rel,
        title=PurePosixPath(rel).stem,
        frontmatter=parsed.frontmatter,
        body=parsed.body,
        content_hash=content_hash(text),
        file_created=now,
        file_modified=now,
        folder_status=engine.layout.status_for_folder(rel),
    )
    score = engine.score(memory, now)
    # A memory promoted on the other device is kept for good: gc forgets only active ones.
    keep = score >= engine.rules.forget_threshold or memory.status != "active"
    merge.stage(entry.repo_path, text.encode("utf-8"))
    if not keep:
        merge.forget_after[entry.repo_path] = memory_id or ""
    outcome_words = (
        f"kept: used on another device, its merged score {score:.3f} is at or above the forget "
        f"threshold {engine.rules.forget_threshold:g}"
        if score >= engine.rules.forget_threshold
        else f"kept: {memory.status} on another device"
        if keep
        else f"forgotten: even with the other device's uses its score {score:.3f} is below the "
        f"forget threshold {engine.rules.forget_threshold:g}"
    )
    merge.decisions.append(
        SyncDecision(
            path=rel,
            id=memory_id,
            rule="forgotten-vs-used",
            outcome=outcome_words,
            score=round(score, 6),
        )
    )


def _message(remote: str, incoming: int, decisions: Sequence[SyncDecision]) -> str:
    lines = [f"sync: merge {wording.count(incoming, 'commit')} from {remote}", ""]
    lines += [f"- {d.path}: {d.outcome}" for d in decisions]
    judged = [(d.id, d.outcome) for d in decisions if d.rule == "forgotten-vs-used" and d.id]
    body = trailers("sync", [i for i, said in judged if said.startswith("kept")], key="Kept")
    body += "".join(
        f"\nCortexgraph-Forgotten: {i}" for i, said in judged if said.startswith("forgotten")
    )
    return "\n".join(lines) + ("\n\n" if decisions else "\n") + body


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _result(
    engine: VaultEngine,
    runner: GitRunner,
    remote: str,
    branch: str,
    before: str | None,
    recorded: list[str],
    received: int,
    sent: int,
    merge: _Merge,
) -> SyncResult:
    after = runner.head_or_none()
    merged: list[str] = []
    if before and after and before != after and received:
        spec = [runner.to_repo(f) for f in engine.memory_folders()]
        changed = runner.list_paths(
            "diff", "--name-only", "--no-renames", before, after, paths=spec
        )
        merged = sorted(p for p in (runner.from_repo(c) for c in changed) if p)
    up_to_date = received == 0 and sent == 0
    sources = merge.sources or ([remote] if received else [])
    if up_to_date:
        message = f"already in step with {remote}" + (
            f" (recorded {wording.count(len(recorded), 'memory')} here)" if recorded else ""
        )
    else:
        message = (
            f"{wording.count(len(merged), 'memory')} merged from {_names(sources or [remote])}"
        )
        if sent:
            message += f"; sent {wording.count(sent, 'commit')}"
        if merge.conflicted:
            message += f"; {len(merge.conflicted)} need a person (edited on both devices)"
    return SyncResult(
        remote=remote,
        branch=branch,
        recorded=len(recorded),
        received=received,
        sent=sent,
        merged_count=len(merged),
        merged=merged[:LISTED],
        conflicted=merge.conflicted,
        conflicts=len(merge.conflicted),
        device=engine.device_name,
        sources=sources,
        decisions=merge.decisions,
        commit=after,
        up_to_date=up_to_date,
        message=message,
    )
