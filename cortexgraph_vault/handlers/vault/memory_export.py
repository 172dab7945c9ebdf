"""Taking memories out: a CortexGraph JSONL folder, or one JSON file of the whole vault."""

from __future__ import annotations

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.importers import export
from cortexgraph_vault.models import ExportResult
from cortexgraph_vault.requests.maintenance import ExportCortexgraphRequest, ExportJsonRequest


def export_cortexgraph(engine: VaultEngine, req: ExportCortexgraphRequest) -> ExportResult:
    progress = engine.progress("exporting")
    return export.export_cortexgraph(engine, req.folder, force=req.force, progress=progress)


def export_json(engine: VaultEngine, req: ExportJsonRequest) -> ExportResult:
    progress = engine.progress("exporting")
    return export.export_json(engine, req.file, force=req.force, progress=progress)
