"""What the operations on the history of memories take."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import MemoryId

Commit = Annotated[
    str,
    Field(
        min_length=4,
        max_length=64,
        pattern="^[0-9a-fA-F]+$",
        description="a commit sha or its prefix",
    ),
]


class MemoryHistoryRequest(Request):
    memory_id: MemoryId
    limit: Annotated[
        int, Field(ge=1, le=500, description="newest commits first, at most this many")
    ] = 50


class MemoryVersionRequest(Request):
    memory_id: MemoryId
    commit: Commit


class ForgottenMemoriesRequest(Request):
    limit: Annotated[int, Field(ge=1, le=500, description="most recently forgotten first")] = 50


class RestoreMemoryRequest(Request):
    memory_id: MemoryId
    commit: Annotated[
        str | None,
        Field(
            min_length=4,
            max_length=64,
            pattern="^[0-9a-fA-F]+$",
            description="restore the version at this commit (default: the last one before it was forgotten)",
        ),
    ] = None
