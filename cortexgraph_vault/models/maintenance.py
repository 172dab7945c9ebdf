"""Shapes of imports, exports, the graph picture, vault statistics and the doctor's findings."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cortexgraph_vault.models.memory import Model, Skipped


class SourceProblem(Model):
    file: str = Field(description="the source file")
    line: int = Field(description="1-based line in that file (0: the file as a whole)")
    reason: str


class ImportItem(Model):
    id: str
    title: str
    action: str = Field(
        description="created | updated | unchanged | kept (the vault's copy differs and is "
        "as new or newer) | skipped"
    )
    path: str | None = Field(default=None, description="the note (planned, on a dry run)")
    status: str | None = None
    line: int = Field(default=0, description="where the record's last version is in its file")
    reason: str | None = None
    moved_from: str | None = None


class ImportResult(Model):
    source: str = Field(description="cortexgraph | memory-json")
    path: str
    dry_run: bool
    created: int
    updated: int
    unchanged: int
    kept: int
    skipped: int
    relations: int = Field(description="relations written or already in place")
    lines: int = Field(description="lines read from the source files")
    superseded: int = Field(default=0, description="lines replaced by a later line of the same id")
    tombstones: int = Field(default=0, description="deletion markers honoured")
    problems: list[SourceProblem] = Field(
        default_factory=list, description="lines skipped (corrupt, truncated, invalid)"
    )
    warnings: list[SourceProblem] = Field(default_factory=list)
    items: list[ImportItem] = Field(default_factory=list)
    commit: str | None = None
    message: str


class ExportResult(Model):
    format: str = Field(description="cortexgraph | json")
    path: str
    files: list[str]
    memories: int
    relations: int
    skipped: list[SourceProblem] = Field(
        default_factory=list, description="memories or links that could not be exported, and why"
    )
    message: str


class GraphPictureResult(Model):
    path: str
    nodes: int
    edges: int
    bytes: int
    message: str


class VaultStats(Model):
    """`stats`: the counts, what is at risk, due for review, and how big things are."""

    total_notes: int
    memories: dict[str, int]
    by_folder: dict[str, int]
    histogram: dict[str, int]
    forgettable: int
    danger_zone: int
    promotable: int
    problems: list[Skipped]
    git: str
    at_risk: int = Field(
        default=0, description="active memories forgotten within at_risk_days if left unused"
    )
    at_risk_days: float = 7.0
    due_for_review: int = Field(default=0, description="active memories with review priority > 0")
    notes_with_problems: int = 0
    vault_bytes: int = Field(default=0, description="size of every file in the vault (.git aside)")
    memory_bytes: int = Field(default=0, description="size of the memory notes")
    cache_bytes: int = Field(default=0, description="size of the persistent index cache")
    cache_path: str | None = None


class DoctorFinding(Model):
    check: str
    level: str = Field(description="ok | info | warning | problem")
    message: str
    fix: str | None = Field(default=None, description="what to do about it")


class DoctorResult(Model):
    ok: bool = Field(description="no problems (warnings may remain)")
    problems: int
    warnings: int
    findings: list[DoctorFinding]


class ConfigFile(Model):
    scope: str = Field(description="user | vault")
    path: str
    exists: bool


class SettingRow(BaseModel):
    # built when first used, as every Model: `stats` imports this module, never this class
    model_config = ConfigDict(defer_build=True)

    name: str
    env: str
    value: Any = Field(description="effective value (null when unset)")
    origin: str = Field(description="default, environment, command line or a config file path")
    help: str


class SettingsList(BaseModel):
    model_config = ConfigDict(defer_build=True)

    settings: list[SettingRow]


class ConfigReport(Model):
    """`cortexgraph-vault config`: every setting with its origin, and where the files are."""

    files: list[ConfigFile]
    settings: list[SettingRow]


class InitResult(Model):
    """`init`: what was done to make the vault a git repository, in one sentence."""

    message: str
