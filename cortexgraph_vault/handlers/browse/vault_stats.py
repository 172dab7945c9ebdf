"""The vault's statistics: the counts, what is at risk, due for review, and how big things are."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from cortexgraph_vault.core.decay import DAY
from cortexgraph_vault.core.rules import (
    in_danger_zone,
    promote_reason,
    review_priority,
    should_forget,
)
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.models import Skipped, VaultStats

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
    """The counts by status and folder, the score histogram, what is at risk, due for review,
    and how big things are."""
    now = engine.now()
    catalog = engine.fresh()
    rules = engine.rules
    by_status: Counter[str] = Counter()
    by_folder: Counter[str] = Counter()
    histogram: Counter[str] = Counter()
    forgettable = danger = promotable = at_risk = due = memory_bytes = 0
    for note in catalog.notes():
        by_folder[note.path.split("/", 1)[0] if "/" in note.path else "."] += 1
        m = note.memory_state  # the memory's hot fields: no memory decoded to count them
        if m is None:
            continue
        by_status[m.status] += 1
        memory_bytes += note.size
        if m.status != "active":
            continue
        decay = m.decay  # made from the hot fields at each read: once a memory
        s = engine.score_of(decay, now)
        bucket = min(int(s * 10), 10) / 10
        histogram[f"{bucket:.1f}" if bucket < 1 else "≥1.0"] += 1
        danger += in_danger_zone(s, rules)
        promotable += not m.superseded and promote_reason(decay, s, now, rules) is not None
        due += review_priority(s, rules) > 0
        if should_forget(s, rules):
            forgettable += 1
            continue
        left = decay.seconds_until(rules.forget_threshold, now, engine.decay)
        at_risk += left <= AT_RISK_DAYS * DAY
    vault_bytes = _folder_bytes(
        engine.root, lambda rel: None if (n := catalog.note(rel)) is None else n.size
    )
    problems = [Skipped(path=p, reason=r) for p, r in catalog.problems()]
    cache = engine.index_cache.path
    return VaultStats(
        total_notes=len(catalog),
        memories=dict(by_status),
        by_folder=dict(sorted(by_folder.items())),
        histogram=dict(sorted(histogram.items())),
        forgettable=forgettable,
        danger_zone=danger,
        promotable=promotable,
        problems=problems,
        git=engine.history_located() or "a git repository",
        at_risk=at_risk,
        at_risk_days=AT_RISK_DAYS,
        due_for_review=due,
        notes_with_problems=len({p.path for p in problems}),
        vault_bytes=vault_bytes,
        memory_bytes=memory_bytes,
        cache_bytes=_size(cache),
        cache_path=str(cache),
    )
