"""Bringing memories in: CortexGraph's JSONL folder and the MCP memory server's memory.json."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.engine import CACHE_SAVE_AT_START, VaultEngine
from cortexgraph_vault.errors import InvalidArgument, NotFound
from cortexgraph_vault.handlers.writes.secret_check import screen_import
from cortexgraph_vault.importers import cortexgraph as cortexgraph_format
from cortexgraph_vault.importers import memory_json
from cortexgraph_vault.importers.records import refuse_control_characters
from cortexgraph_vault.importers.writer import apply_plan
from cortexgraph_vault.models import ImportResult
from cortexgraph_vault.requests.maintenance import ImportCortexgraphRequest, ImportMemoryJsonRequest


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


def import_cortexgraph(engine: VaultEngine, req: ImportCortexgraphRequest) -> ImportResult:
    folder = Path(req.path).expanduser() if req.path else default_cortexgraph_store()
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
        refuse_control_characters(cortexgraph_format.plan_import(memories, relations, str(folder))),
        allow_secrets=req.allow_secrets,
    )
    progress = engine.progress("importing")
    applied = apply_plan(
        engine, plan, dry_run=req.dry_run, overwrite=req.overwrite, progress=progress
    )
    return _saving_cache(engine, applied)


def import_memory_json(engine: VaultEngine, req: ImportMemoryJsonRequest) -> ImportResult:
    status = req.status
    source = Path(req.file).expanduser()
    if source.is_dir():
        source = source / "memory.json"
    data = _read(source)
    if data is None:
        raise NotFound(f"{source}: no such file (the MCP memory server's memory.json)")
    plan = screen_import(
        refuse_control_characters(
            memory_json.plan_import(data, str(source), source.name, engine.now(), status=status)
        ),
        allow_secrets=req.allow_secrets,
    )
    progress = engine.progress("importing")
    return _saving_cache(engine, apply_plan(engine, plan, dry_run=req.dry_run, progress=progress))
