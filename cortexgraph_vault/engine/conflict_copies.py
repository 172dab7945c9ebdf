"""Conflict copies made by file-sync services, merged back into their memory.

When Syncthing, Dropbox, Nextcloud or iCloud cannot reconcile two devices' edits of a note, they
keep the second as a copy beside it (core/conflict_names.py). For a memory note that would be a
second memory with the same id. We merge the copy into the original by the rules of
core/note_merge.py, record both paths in one commit and remove the copy.

The base of the merge: in a git vault, the newest committed version of the original that both
versions descend from (its use_count and last_used no greater than either's) and that is
neither of them (a service makes a copy only when both devices changed the file) — usually the
last version both devices had — or a merge commit's version, which both sides held once they
synced, even when one of them is still exactly it. Outside git, or when no such version is found, the two-way rule of
note_merge applies. A copy that cannot be merged (not a memory note, broken frontmatter, binary,
text changed on both sides that even a conflict-marked merge cannot hold) is left in place and
reported; the catalogue reports it too (two notes with one id).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from cortexgraph_vault.core.conflict_names import conflict_copy
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.note_merge import grew_by_use, merge_versions
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.vault.files import ChangedUnderUs, atomic_write, remove_file

log = logging.getLogger("cortexgraph_vault")
BASE_SEARCH_COMMITS = 20


def merge_copies(engine: VaultEngine, paths: Iterable[str]) -> None:
    """Merge each conflict copy of a memory among `paths` (the engine's choice) into its
    original; one that cannot be merged is left in place, and why is logged."""
    for rel in paths:
        found = conflict_copy(rel)
        if found is None or not engine.store.exists(found.original):
            continue
        try:
            why = _merge_one(engine, rel, found.original, needs_same_id=found.needs_same_id)
        except (VaultError, OSError) as exc:
            why = f"could not merge ({exc})"
        if why is not None:
            log.warning("%s: conflict copy of %s left in place: %s", rel, found.original, why)


def _merge_one(engine: VaultEngine, rel: str, original: str, *, needs_same_id: bool) -> str | None:
    """Why the copy was left in place; None when it was merged, or is no copy after all."""
    store = engine.store
    with engine.lock.held():
        copy_text, copy_stamp = store.read(rel)
        text, stamp = store.read(original)
        ours, theirs = parse_note(text).frontmatter, parse_note(copy_text).frontmatter
        same_id = ours.get("id") not in (None, "") and str(ours.get("id")) == str(theirs.get("id"))
        if needs_same_id and not same_id:
            return None  # `Title 2.md` of another memory: a name of our own, not a copy
        base = _base(engine, original, ours, theirs, {text, copy_text})
        outcome = merge_versions(
            base,
            text.encode("utf-8", "surrogateescape"),
            copy_text.encode("utf-8", "surrogateescape"),
        )
        if not outcome.clean or outcome.other is not None:
            return outcome.report or "not the same memory"
        try:
            atomic_write(
                store.path(original),
                outcome.result,
                expected=stamp,
                on_late=store.late_keeper(original),
            )
        except ChangedUnderUs:
            return "the original changed meanwhile; next time"
        if store.read(rel)[1].sha256 != copy_stamp.sha256:
            return "the copy changed meanwhile; next time"
        remove_file(store.path(rel))
    engine.catalog.reload(original)
    engine.catalog.reload(rel)
    how = "against the last common committed version" if base else "two-way (no common version)"
    memory_id = str(ours.get("id") or theirs.get("id") or "")
    message = (
        f"merge conflict copy {rel} into {original}\n\nMerged field by field {how}"
        + (f"; {outcome.report}" if outcome.report else "")
        + ".\n\n"
        + trailers("merge-copy", [memory_id] if memory_id else [])
    )
    engine.commit([original, rel], message)
    return None


def _base(
    engine: VaultEngine,
    original: str,
    ours: dict[str, object],
    theirs: dict[str, object],
    versions: set[str],
) -> bytes | None:
    """The newest committed version of `original` both versions grew from. A merge commit's
    version was held by both sides of that merge once synced: it is the base even when one
    version is still exactly it (a copy of the merged note made on another device). Any other
    commit equal to one version is this device's snapshot of its own uses, not the base: a
    file-sync service makes a copy only when both devices changed the file."""
    if not engine.history.available:
        return None
    runner = engine.history.runner
    repo_path = runner.to_repo(original)
    listed = runner.run(
        "rev-list",
        "--full-history",
        "--parents",
        "-n",
        str(BASE_SEARCH_COMMITS),
        "HEAD",
        "--",
        repo_path,
    )
    if not listed.ok:
        return None
    commits = [line.split() for line in listed.out.decode().splitlines() if line.strip()]
    names = [f"{c[0]}:{repo_path}" for c in commits]
    texts = runner.read_blobs(names)
    for commit, name in zip(commits, names, strict=True):  # newest first
        data = texts.get(name)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        merged = len(commit) > 2  # the commit and two or more parents
        if text in versions and not merged:
            continue
        fields = parse_note(text).frontmatter
        if grew_by_use(fields, ours) and grew_by_use(fields, theirs):
            return data
    return None
