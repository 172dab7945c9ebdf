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
    ANALYZE_MESSAGE,
    AUTO_RECALL_PROCESS_MESSAGE,
    DELETE_MEMORY,
    FORGOTTEN_MEMORIES,
    GC,
    MEMORY_HISTORY,
    OBSERVE_MEMORY_USAGE,
    PROMOTE_MEMORY,
    READ_NOTE,
    REQUIRED,
    RESTORE_MEMORY,
    REVIEW_MEMORIES,
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
    fixed: ClassVar[Mapping[str, Any]]  # fields the route sets itself

    def to_request(self, **path: str) -> Any:
        """The operation's request: these (already validated) fields, the path's, the fixed."""
        values = {self.request_names[name]: getattr(self, name) for name in type(self).model_fields}
        return self.operation.request.model_construct(**values, **path, **self.fixed)


def rest_model(
    name: str,
    operation: Operation,
    *,
    in_path: tuple[str, ...] = (),
    rename: Mapping[str, str] | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> type[OperationInput]:
    """The request model of `operation` for REST: its fields but those `in_path` (the URL
    gives them) and those `fixed` (the route sets them: /promote promotes every candidate),
    some renamed (`{"query": "q"}`), each with the operation's own annotation."""
    rename, fixed = dict(rename or {}), dict(fixed or {})
    fields: dict[str, Any] = {
        rename.get(p.name, p.name): (p.annotation, ... if p.default is REQUIRED else p.default)
        for p in params_of(operation.request)
        if p.name not in in_path and p.name not in fixed
    }
    model = create_model(name, __base__=OperationInput, __module__=__name__, **fields)
    model.operation = operation
    model.request_names = {rename.get(f, f): f for f in operation.request.model_fields}
    model.fixed = fixed
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


HistoryQuery = rest_model("HistoryQuery", MEMORY_HISTORY, in_path=("memory_id",))
ForgottenQuery = rest_model("ForgottenQuery", FORGOTTEN_MEMORIES)
ReviewQuery = rest_model("ReviewQuery", REVIEW_MEMORIES)


class RelatedQuery(Input):
    path: VaultPath = Field(description="vault-relative path of a note, e.g. Projects/Atlas.md")
    limit: int = Field(default=10, ge=1, le=50)


class NeighbourhoodQuery(Input):
    path: VaultPath = Field(description="vault path of a note, or a memory id / prefix / title")
    hops: int = Field(default=1, ge=1, le=5)


# Bodies ----------------------------------------------------------------------------------
CreateMemory = rest_model("CreateMemory", SAVE_MEMORY)
UpdateMemory = rest_model("UpdateMemory", UPDATE_MEMORY, in_path=("memory_id",))
Touch = rest_model(
    "Touch", TOUCH_MEMORY, in_path=("memory_id",), rename={"boost_strength": "boost"}
)
Observe = rest_model("Observe", OBSERVE_MEMORY_USAGE)
PromoteOne = rest_model(
    "PromoteOne",
    PROMOTE_MEMORY,
    in_path=("memory_id",),
    fixed={"auto_detect": False, "target": "obsidian"},
)
PromoteAll = rest_model(
    "PromoteAll",
    PROMOTE_MEMORY,
    fixed={"memory_id": None, "auto_detect": True, "target": "obsidian", "force": False},
)
Gc = rest_model("Gc", GC)
Restore = rest_model("Restore", RESTORE_MEMORY, in_path=("memory_id",))
# /analyze and /analyze/recall take the same message (analyze_message, analyze_for_recall)
Analyze = rest_model("Analyze", ANALYZE_MESSAGE)
Recall = rest_model("Recall", AUTO_RECALL_PROCESS_MESSAGE)


class Sync(Input):
    remote: str | None = Field(
        default=None,
        max_length=200,
        description="the git remote (default: the branch's, or origin)",
    )
