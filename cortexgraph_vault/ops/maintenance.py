"""Looking after a vault: imports and exports, statistics, re-indexing, the graph picture."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.decay import DAY, seconds_until_score
from cortexgraph_vault.core.rules import review_priority, should_forget
from cortexgraph_vault.engine import CACHE_SAVE_AT_START, VaultEngine
from cortexgraph_vault.errors import InvalidArgument, NotFound
from cortexgraph_vault.importers import cortexgraph as cortexgraph_format
from cortexgraph_vault.importers import export, memory_json
from cortexgraph_vault.importers.writer import apply_plan
from cortexgraph_vault.models import ExportResult, GraphPictureResult, ImportResult, VaultStats
from cortexgraph_vault.ops.reads import stats as base_stats
from cortexgraph_vault.ops.secret_check import screen_import

Progress = Callable[[int, int], None]
AT_RISK_DAYS = 7.0


def default_cortexgraph_store() -> Path:
    """CortexGraph's own default folder (mnemex's, its former name, when only that exists)."""
    home = Path.home() / ".config"
    for name in ("cortexgraph", "mnemex"):
        folder = home / name / "jsonl"
        if folder.is_dir():
            return folder
    return home / "cortexgraph" / "jsonl"


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InvalidArgument(f"{path}: cannot be read ({exc.strerror})") from None


def _saving_cache(engine: VaultEngine, result: ImportResult) -> ImportResult:
    """A big import is worth the cache: the next command then starts warm."""
    engine.index_cache.save_if_changed(engine.catalog, min_changes=CACHE_SAVE_AT_START)
    return result


def import_cortexgraph(
    engine: VaultEngine,
    path: str | Path | None = None,
    *,
    dry_run: bool = False,
    overwrite: bool = False,
    allow_secrets: bool = False,
    progress: Progress | None = None,
) -> ImportResult:
    folder = Path(path).expanduser() if path else default_cortexgraph_store()
    if folder.is_file():
        folder = folder.parent
    if not folder.is_dir():
        raise NotFound(
            f"{folder}: no such folder; give the folder holding CortexGraph's memories.jsonl "
            "(by default ~/.config/cortexgraph/jsonl)"
        )
    memories = _read(folder / cortexgraph_format.MEMORIES_FILE)
    relations = _read(folder / cortexgraph_format.RELATIONS_FILE)
    if memories is None and relations is None:
        raise NotFound(
            f"{folder}: holds neither {cortexgraph_format.MEMORIES_FILE} nor "
            f"{cortexgraph_format.RELATIONS_FILE}; is this CortexGraph's storage folder?"
        )
    plan = screen_import(
        cortexgraph_format.plan_import(memories, relations, str(folder)),
        allow_secrets=allow_secrets,
    )
    progress = progress or engine.progress("importing")
    applied = apply_plan(engine, plan, dry_run=dry_run, overwrite=overwrite, progress=progress)
    return _saving_cache(engine, applied)


def import_memory_json(
    engine: VaultEngine,
    file: str | Path,
    *,
    dry_run: bool = False,
    status: str = "promoted",
    allow_secrets: bool = False,
    progress: Progress | None = None,
) -> ImportResult:
    if status not in ("active", "promoted"):
        raise InvalidArgument(f"status: must be active or promoted, got {status!r}")
    source = Path(file).expanduser()
    if source.is_dir():
        source = source / "memory.json"
    data = _read(source)
    if data is None:
        raise NotFound(f"{source}: no such file (the MCP memory server's memory.json)")
    plan = screen_import(
        memory_json.plan_import(data, str(source), source.name, engine.now(), status=status),
        allow_secrets=allow_secrets,
    )
    progress = progress or engine.progress("importing")
    return _saving_cache(engine, apply_plan(engine, plan, dry_run=dry_run, progress=progress))


def export_cortexgraph(
    engine: VaultEngine,
    folder: str | Path,
    *,
    force: bool = False,
    progress: Progress | None = None,
) -> ExportResult:
    progress = progress or engine.progress("exporting")
    return export.export_cortexgraph(engine, folder, force=force, progress=progress)


def export_json(
    engine: VaultEngine, file: str | Path, *, force: bool = False, progress: Progress | None = None
) -> ExportResult:
    progress = progress or engine.progress("exporting")
    return export.export_json(engine, file, force=force, progress=progress)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _folder_bytes(root: Path) -> int:
    """Every file of the vault, Obsidian's settings included; git's own folder is not the vault."""
    total = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        total += sum(_size(Path(folder) / name) for name in files)
    return total


def stats(engine: VaultEngine) -> VaultStats:
    """The foundation's counts, plus what is at risk, due for review, and how big things are."""
    base = base_stats(engine)
    now = engine.now()
    at_risk = due = 0
    memory_bytes = 0
    for note in engine.catalog.notes():
        m = note.memory
        if m is None:
            continue
        memory_bytes += note.size
        if m.status != "active":
            continue
        score = engine.score(m, now)
        due += review_priority(score, engine.rules) > 0
        if should_forget(score, engine.rules):
            continue
        left = seconds_until_score(
            engine.rules.forget_threshold, use_count=m.use_count, last_used=m.last_used,
            strength=m.strength, now=now, cfg=engine.decay,
        )  # fmt: skip
        at_risk += left <= AT_RISK_DAYS * DAY
    vault_bytes = _folder_bytes(engine.root)
    cache = engine.index_cache.path
    return VaultStats(
        **base.model_dump(), at_risk=at_risk, at_risk_days=AT_RISK_DAYS, due_for_review=due,
        notes_with_problems=len({p.path for p in base.problems}), vault_bytes=vault_bytes,
        memory_bytes=memory_bytes, cache_bytes=_size(cache), cache_path=str(cache),
    )  # fmt: skip


def graph_html(
    engine: VaultEngine, file: str | Path, *, include_notes: bool = True
) -> GraphPictureResult:
    from cortexgraph_vault.ops.graph_page import write_graph_page

    out = Path(file).expanduser()
    if out.is_dir():
        raise InvalidArgument(f"{out}: is a folder; give a file name such as graph.html")
    nodes, edges, size = write_graph_page(engine, out, include_notes=include_notes)
    return GraphPictureResult(
        path=str(out), nodes=nodes, edges=edges, bytes=size,
        message=wording.graph_page_written(str(out), nodes, edges),
    )  # fmt: skip


__all__ = [
    "default_cortexgraph_store", "export_cortexgraph", "export_json", "graph_html",
    "import_cortexgraph", "import_memory_json", "stats",
]  # fmt: skip
