"""Shapes of the REST door's own: the error body, the health answer, and the body of a route
that runs any operation by name.

The query and body models of the catalogue's operations are made from their requests
(`endpoints.rest_input`); everything an operation's route returns is its result model from
`cortexgraph_vault.models`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, RootModel


class ErrorBody(BaseModel):
    error: str = Field(description="machine-readable code, e.g. not_found, conflict")
    detail: str = Field(description="what went wrong, naming the file or argument, and what to do")
    expected_hash: str | None = Field(default=None, description="conflict: the hash you sent")
    actual_hash: str | None = Field(default=None, description="conflict: the file's hash now")
    current_text: str | None = Field(default=None, description="conflict: the file's text now")
    candidates: list[str] | None = Field(default=None, description="ambiguous: what matched")
    params: list[str] | None = Field(
        default=None, description="the parameters the detail names (`top_k: must be ...`)"
    )
    operations: list[str] | None = Field(
        default=None, description="the operations the detail names (`search_memory`)"
    )


class OperationArguments(RootModel[dict[str, Any]]):
    """An operation's request: its fields by name, as its MCP tool takes them."""


class Health(BaseModel):
    ok: bool
