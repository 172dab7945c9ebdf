"""The part of the service that brings memories in and out and looks after the vault: import,
export, the graph picture, doctor, git sync and init (issue 9). `MemoryService` inherits it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cortexgraph_vault.config import Config
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.models import SyncResult
from cortexgraph_vault.models.maintenance import (
    DoctorResult,
    ExportResult,
    GraphPictureResult,
    ImportResult,
)
from cortexgraph_vault.progress import Progress


class VaultUpkeep:
    engine: VaultEngine

    @property
    def config(self) -> Config:
        return self.engine.config

    # bringing memories in and out, looking after the vault (issue 9) -------------------
    def import_cortexgraph(
        self,
        path: str | Path | None = None,
        *,
        dry_run: bool = False,
        overwrite: bool = False,
        allow_secrets: bool = False,
        progress: Progress | None = None,
    ) -> ImportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.import_cortexgraph(
            self.engine, path, dry_run=dry_run, overwrite=overwrite,
            allow_secrets=allow_secrets, progress=progress,
        )  # fmt: skip

    def import_memory_json(
        self,
        file: str | Path,
        *,
        dry_run: bool = False,
        status: str = "promoted",
        allow_secrets: bool = False,
        progress: Progress | None = None,
    ) -> ImportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.import_memory_json(
            self.engine, file, dry_run=dry_run, status=status, allow_secrets=allow_secrets,
            progress=progress,
        )  # fmt: skip

    def export_cortexgraph(
        self, folder: str | Path, *, force: bool = False, progress: Progress | None = None
    ) -> ExportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.export_cortexgraph(self.engine, folder, force=force, progress=progress)

    def export_json(
        self, file: str | Path, *, force: bool = False, progress: Progress | None = None
    ) -> ExportResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.export_json(self.engine, file, force=force, progress=progress)

    def graph_html(self, file: str | Path, *, include_notes: bool = True) -> GraphPictureResult:
        from cortexgraph_vault.ops import maintenance

        return maintenance.graph_html(self.engine, file, include_notes=include_notes)

    def doctor(self, *, fix: bool = False) -> DoctorResult:
        from cortexgraph_vault.ops import doctor

        return doctor.diagnose(self.config, self.engine, fix=fix)

    # git -------------------------------------------------------------------------------
    def sync(
        self, *, remote: str | None = None, progress: Callable[[str], object] | None = None
    ) -> SyncResult:
        """Record pending reinforcements, fetch, merge memory notes field by field, push;
        `progress` hears each step (the CLI prints them on a terminal)."""
        from cortexgraph_vault.ops import sync

        return sync.sync(self.engine, remote, progress)

    def init_git(self) -> str:
        from cortexgraph_vault.history import VaultHistory

        was = self.engine.history.available
        VaultHistory.init_repo(self.engine.root)
        self.engine.history = VaultHistory(
            self.engine.root, lock_wait_seconds=self.config.git_lock_wait
        )
        installed = self.engine.history.install_merge_driver(self.engine.memory_folders())
        said = "already a git repository" if was else f"initialised git in {self.engine.root}"
        return said + (f"; installed {' and '.join(installed)}" if installed else "")
