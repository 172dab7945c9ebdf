"""Taking memories out: a CortexGraph JSONL folder, or one JSON file of the whole vault."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.importers import export
from cortexgraph_vault.models import ExportResult
from cortexgraph_vault.progress import Progress


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
