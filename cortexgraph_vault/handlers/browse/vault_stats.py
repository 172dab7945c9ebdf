"""The vault's statistics: the counts, what is at risk, due for review, and how big things are."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from cortexgraph_vault.core.decay import DAY
from cortexgraph_vault.core.rules import review_priority, should_forget
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.browse.reads import stats as base_stats
from cortexgraph_vault.models import VaultStats

AT_RISK_DAYS = 7.0


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _folder_bytes(root: Path, known: Callable[[str], int | None]) -> int:
    """Every file of the vault, Obsidian's settings included; git's own folder is not the vault.
    `known`: the size the index holds for a note it just looked at (no second stat of every
    note); a link to a file counts as the file's size, a link to a folder as nothing."""
    total = 0
    stack = [(os.fspath(root), "")]
    while stack:
        folder, rel_folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir():
                    if entry.name != ".git" and not entry.is_symlink():
                        stack.append((entry.path, rel_folder + entry.name + "/"))
                    continue
                size = None
                if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    size = known(rel_folder + entry.name)
                total += entry.stat().st_size if size is None else size
            except OSError:
                continue
    return total


def stats(engine: VaultEngine) -> VaultStats:
    """The foundation's counts, plus what is at risk, due for review, and how big things are."""
    base = base_stats(engine)
    now = engine.now()
    at_risk = due = 0
    memory_bytes = 0
    for note in engine.catalog.notes():
        m = note.memory_state  # the memory's hot fields: no memory decoded to count them
        if m is None:
            continue
        memory_bytes += note.size
        if m.status != "active":
            continue
        score = engine.score_of(m.decay, now)
        due += review_priority(score, engine.rules) > 0
        if should_forget(score, engine.rules):
            continue
        left = m.decay.seconds_until(engine.rules.forget_threshold, now, engine.decay)
        at_risk += left <= AT_RISK_DAYS * DAY
    note_at = engine.catalog.note
    vault_bytes = _folder_bytes(
        engine.root, lambda rel: None if (n := note_at(rel)) is None else n.size
    )
    cache = engine.index_cache.path
    return VaultStats(
        **base.model_dump(),
        at_risk=at_risk,
        at_risk_days=AT_RISK_DAYS,
        due_for_review=due,
        notes_with_problems=len({p.path for p in base.problems}),
        vault_bytes=vault_bytes,
        memory_bytes=memory_bytes,
        cache_bytes=_size(cache),
        cache_path=str(cache),
    )
