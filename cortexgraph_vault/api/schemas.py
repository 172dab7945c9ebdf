"""Shapes the REST door gives requests and answers: query strings and bodies, a few wrappers,
the error body.

An operation of the catalogue (`cortexgraph_vault.operations`) gives its query or body model
here with `rest_model`: the same fields, limits and descriptions as its MCP tool, minus what
the path carries, a few renamed (`q`). The rest are REST's own until they join the catalogue.
Everything a route returns is a service model from `cortexgraph_vault.models`. Unknown fields
are refused (422 naming them), so a typo in a client never silently does nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from cortexgraph_vault.operations import (
    DELETE_MEMORY,
    OBSERVE_MEMORY_USAGE,
    READ_NOTE,
    REQUIRED,
    SAVE_MEMORY,
    SEARCH_UNIFIED,
    TOUCH_MEMORY,
    UPDATE_MEMORY,
    Operation,
    params_of,
)

Status = Literal["active", "promoted", "archived", "all"]
Tag = Annotated[str, Field(max_length=200)]
Entity = Annotated[str, Field(max_length=500)]
VaultPath = Annotated[str, Field(min_length=1, max_length=1000)]


class Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OperationInput(Input):
    """A query or body model derived from an operation's request (`rest_model`)."""

    operation: ClassVar[Operation]
    request_names: ClassVar[Mapping[str, str]]  # REST name -> request field name

    def to_request(self, **path: str) -> Any:
        """The operation's request: these (already validated) fields and the path's."""
        values = {self.request_names[name]: getattr(self, name) for name in type(self).model_fields}
        return self.operation.request.model_construct(**values, **path)


def rest_model(
    name: str,
    operation: Operation,
    *,
    in_path: tuple[str, ...] = (),
    rename: Mapping[str, str] | None = None,
) -> type[OperationInput]:
    """The request model of `operation` for REST: its fields but those `in_path` (the URL
    gives them), some renamed (`{"query": "q"}`), each with the operation's own annotation."""
    rename = dict(rename or {})
    fields: dict[str, Any] = {
        rename.get(p.name, p.name): (p.annotation, ... if p.default is REQUIRED else p.default)
        for p in params_of(operation.request)
        if p.name not in in_path
    }
    model = create_model(name, __base__=OperationInput, __module__=__name__, **fields)
    model.operation = operation
    model.request_names = {rename.get(f, f): f for f in operation.request.model_fields}
    return model


# Errors and small wrappers ---------------------------------------------------------------
class ErrorBody(BaseModel):
    error: str = Field(description="machine-readable code, e.g. not_found, conflict")
    detail: str = Field(description="what went wrong, naming the file or argument, and what to do")
    expected_hash: str | None = Field(default=None, description="conflict: the hash you sent")
    actual_hash: str | None = Field(default=None, description="conflict: the file's hash now")
    current_text: str | None = Field(default=None, description="conflict: the file's text now")
    candidates: list[str] | None = Field(default=None, description="ambiguous: what matched")


class Health(BaseModel):
    ok: bool


class SettingRow(BaseModel):
    name: str
    env: str
    value: Any = Field(description="effective value (null when unset)")
    origin: str = Field(description="default, environment, command line or a config file path")
    help: str


class SettingsList(BaseModel):
    settings: list[SettingRow]


# Query strings ---------------------------------------------------------------------------
class ListQuery(Input):
    status: Status = "active"
    sort: Literal["score", "age", "last_used"] = Field(
        default="score",
        description="score: highest first; age: newest first; last_used: most recent first",
    )
    tag: Tag | None = Field(default=None, description="only memories with this tag or a child tag")
    page: int = Field(default=1, ge=1, le=100_000)
    page_size: int = Field(default=50, ge=1, le=200)


class LookupQuery(Input):
    path: VaultPath = Field(description="vault-relative path of a note, e.g. _stm/Coffee.md")


DeleteQuery = rest_model("DeleteQuery", DELETE_MEMORY, in_path=("memory_id",))
SearchQuery = rest_model("SearchQuery", SEARCH_UNIFIED, rename={"query": "q"})
NoteQuery = rest_model("NoteQuery", READ_NOTE)


class RelatedQuery(Input):
    path: VaultPath = Field(description="vault-relative path of a note, e.g. Projects/Atlas.md")
    limit: int = Field(default=10, ge=1, le=50)


class NeighbourhoodQuery(Input):
    path: VaultPath = Field(description="vault path of a note, or a memory id / prefix / title")
    hops: int = Field(default=1, ge=1, le=5)


class HistoryQuery(Input):
    limit: int = Field(default=50, ge=1, le=1000)


class ForgottenQuery(Input):
    limit: int = Field(default=100, ge=1, le=1000)


# Bodies ----------------------------------------------------------------------------------
CreateMemory = rest_model("CreateMemory", SAVE_MEMORY)
UpdateMemory = rest_model("UpdateMemory", UPDATE_MEMORY, in_path=("memory_id",))
Touch = rest_model(
    "Touch", TOUCH_MEMORY, in_path=("memory_id",), rename={"boost_strength": "boost"}
)
Observe = rest_model("Observe", OBSERVE_MEMORY_USAGE)


class PromoteOne(Input):
    dry_run: bool = False
    force: bool = Field(default=False, description="promote even if the rules do not ask for it")


class PromoteAll(Input):
    dry_run: bool = False


class Sync(Input):
    remote: str | None = Field(
        default=None,
        max_length=200,
        description="the git remote (default: the branch's, or origin)",
    )


class Gc(Input):
    dry_run: bool = True
    archive_instead: bool = False
    limit: int | None = Field(default=None, ge=1, le=10_000)
    skip_paths: list[VaultPath] = Field(
        default_factory=list, max_length=1000, description="vault paths open in editor tabs"
    )


class Restore(Input):
    commit: str | None = Field(default=None, min_length=4, max_length=64)


class Analyze(Input):
    message: str = Field(min_length=1, max_length=50_000)


class Recall(Input):
    message: str = Field(min_length=1, max_length=50_000)
    mode: Literal["silent", "subtle", "interactive"] | None = None


class ReviewQuery(Input):
    limit: int = Field(default=20, ge=1, le=100)
