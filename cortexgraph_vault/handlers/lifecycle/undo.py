"""Memories moved between folders, and all or nothing for operations git records (promote,
restore): when the commit fails, every file is put back, so the vault is exactly as it was and
the error says why.

Without a repository (or with commits switched off) there is no history to keep: the change
stands, as a save does, and the result says it was not recorded and why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import GitError
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.vault.files import current_stamp, remove_file
from cortexgraph_vault.vault.store import Written


def move_memory(
    engine: VaultEngine,
    m: Memory,
    folder: str,
    changes: Mapping[str, object],
    title: str | None = None,
) -> tuple[Written, str, IndexedNote]:
    """`m` moved into `folder` with `changes` set, under its title or `title` (a free name),
    the catalogue following: what was written, the old path, the note now."""
    written, old = engine.store.move(
        m.path,
        folder,
        changes,
        in_use=partial(engine.catalog.name_in_use, besides=m.path),
        title=title or m.title,
    )
    engine.catalog.drop(old)
    note = engine.catalog.record(written.path, written.data, written.stamp.st, written.parsed)
    return written, old, note


def commit_or_undo(
    engine: VaultEngine, paths: Sequence[str], message: str, undo: Callable[[], None], undone: str
) -> tuple[str | None, str]:
    """(commit sha, "") — or (None, why nothing was recorded). The caller holds the vault lock,
    so nobody writes the files between the change, the commit and an undo."""
    if not engine.config.git_commit_writes:
        return None, "not recorded in git (git_commit_writes is off)"
    if not engine.history.available:
        return None, f"not recorded in git: {engine.history.why_unavailable()}"
    try:
        return engine.record(list(paths), message, required=True), ""
    except GitError as exc:
        undo()
        raise GitError(f"{exc}; {undone}") from exc


def undo_moves(engine: VaultEngine, moves: Sequence[tuple[str, Written]]) -> None:
    """Put moved notes back: the old text at the old path, the new file gone."""
    for old, written in reversed(moves):
        assert written.before is not None
        engine.store.write_back(old, written.before)
        undo_create(engine, written)
        engine.catalog.reload(old)


def undo_create(engine: VaultEngine, written: Written) -> None:
    """Remove a note we wrote, unless it changed since (then it is someone's)."""
    now = current_stamp(engine.store.path(written.path))
    if now is not None and now.sha256 == written.stamp.sha256:
        remove_file(engine.store.path(written.path))
    engine.catalog.drop(written.path)
