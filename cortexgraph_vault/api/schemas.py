"""Shapes the REST door gives requests and answers: query strings and bodies, a few wrappers,
the error body.

An operation of the catalogue (`cortexgraph_vault.operations`) gives its query or body model
here (`OperationInput`): the same fields, limits and descriptions as its MCP tool, minus what
the path carries, a few renamed (`q`). The rest are REST's own until they join the catalogue.
Everything a route returns is a service model from `cortexgraph_vault.models`. Unknown fields
are refused (422 naming them), so a typo in a client never silently does nothing.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel

from cortexgraph_vault.api.operation_input import OperationInput
from cortexgraph_vault.operations import (
    ANALYZE_MESSAGE,
    AUTO_RECALL_PROCESS_MESSAGE,
    DELETE_MEMORY,
    FORGOTTEN_MEMORIES,
    GC,
    GRAPH_NEIGHBOURHOOD,
    LIST_MEMORIES,
    MEMORY_AT_PATH,
    MEMORY_HISTORY,
    OBSERVE_MEMORY_USAGE,
    PROMOTE_MEMORY,
    READ_NOTE,
    RELATED_TO_NOTE,
    RESTORE_MEMORY,
    REVIEW_MEMORIES,
    SAVE_MEMORY,
    SEARCH_UNIFIED,
    SYNC_VAULT,
    TOUCH_MEMORY,
    UPDATE_MEMORY,
)


class Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Errors and small wrappers ---------------------------------------------------------------
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


class SettingRow(BaseModel):
    name: str
    env: str
    value: Any = Field(description="effective value (null when unset)")
    origin: str = Field(description="default, environment, command line or a config file path")
    help: str


class SettingsList(BaseModel):
    settings: list[SettingRow]


# Query strings ---------------------------------------------------------------------------
class ListQuery(OperationInput, operation=LIST_MEMORIES):
    pass


class LookupQuery(OperationInput, operation=MEMORY_AT_PATH):
    pass


class DeleteQuery(OperationInput, operation=DELETE_MEMORY, in_path=("memory_id",)):
    pass


class SearchQuery(OperationInput, operation=SEARCH_UNIFIED, rename={"query": "q"}):
    pass


class NoteQuery(OperationInput, operation=READ_NOTE):
    pass


class HistoryQuery(OperationInput, operation=MEMORY_HISTORY, in_path=("memory_id",)):
    pass


class ForgottenQuery(OperationInput, operation=FORGOTTEN_MEMORIES):
    pass


class ReviewQuery(OperationInput, operation=REVIEW_MEMORIES):
    pass


class RelatedQuery(OperationInput, operation=RELATED_TO_NOTE):
    pass


class NeighbourhoodQuery(OperationInput, operation=GRAPH_NEIGHBOURHOOD):
    pass


# Bodies ----------------------------------------------------------------------------------
class CreateMemory(OperationInput, operation=SAVE_MEMORY):
    pass


class UpdateMemory(OperationInput, operation=UPDATE_MEMORY, in_path=("memory_id",)):
    pass


class Touch(
    OperationInput,
    operation=TOUCH_MEMORY,
    in_path=("memory_id",),
    rename={"boost_strength": "boost"},
):
    pass


class Observe(OperationInput, operation=OBSERVE_MEMORY_USAGE):
    pass


class PromoteOne(
    OperationInput,
    operation=PROMOTE_MEMORY,
    in_path=("memory_id",),
    fixed={"auto_detect": False},
):
    pass


class PromoteAll(
    OperationInput,
    operation=PROMOTE_MEMORY,
    fixed={"memory_id": None, "auto_detect": True, "force": False},
):
    pass


class Gc(OperationInput, operation=GC):
    pass


class Restore(OperationInput, operation=RESTORE_MEMORY, in_path=("memory_id",)):
    pass


# /analyze and /analyze/recall take the same message (analyze_message, analyze_for_recall)
class Analyze(OperationInput, operation=ANALYZE_MESSAGE):
    pass


class Recall(OperationInput, operation=AUTO_RECALL_PROCESS_MESSAGE):
    pass


class Sync(OperationInput, operation=SYNC_VAULT):
    pass
