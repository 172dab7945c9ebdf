"""What the operations that bring memories in and out and look after the vault take."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import FilePath

DryRun = Annotated[bool, Field(description="show what would happen; write nothing")]
AllowSecrets = Annotated[bool, Field(description="import memories that look like credentials")]
Replace = Annotated[bool, Field(description="replace files already there")]


class ImportCortexgraphRequest(Request):
    path: Annotated[
        FilePath | None,
        Field(description="their storage folder (default ~/.config/cortexgraph/jsonl)"),
    ] = None
    dry_run: DryRun = False
    overwrite: Annotated[
        bool,
        Field(
            description="replace memories the vault already has even when the vault's copy is newer"
        ),
    ] = False
    allow_secrets: AllowSecrets = False


class ImportMemoryJsonRequest(Request):
    file: Annotated[FilePath, Field(description="the memory.json file to read")]
    dry_run: DryRun = False
    status: Annotated[
        Literal["promoted", "active"],
        Field(
            description="promoted (kept for good, the default) or active (short-term, fades "
            "unless used)"
        ),
    ] = "promoted"
    allow_secrets: AllowSecrets = False


class ExportCortexgraphRequest(Request):
    folder: Annotated[FilePath, Field(description="the folder to write them into")]
    force: Replace = False


class ExportJsonRequest(Request):
    file: Annotated[FilePath, Field(description="the JSON file to write")]
    force: Replace = False


class GraphHtmlRequest(Request):
    file: Annotated[FilePath, Field(description="the page to write")]
    include_notes: Annotated[
        bool, Field(description="with the notes memories link to (default)")
    ] = True
