"""What an operation is: its name, what it does, its typed request and result, its effect.

Each door serves an `Operation` from this one record: the MCP tool's input schema is built
from the request model's fields, the REST query or body model is derived from the same
fields (tests/operations/test_catalogue.py checks the limits agree), and the service runs it
under its change lock and timed (`MemoryService.run`).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from cortexgraph_vault.operations.refusal import refusal

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


class Request(BaseModel):
    """An operation's arguments; an unknown one is refused (a typo never silently does nothing)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


Req = TypeVar("Req", bound=Request)
Res = TypeVar("Res", bound=BaseModel)


class Effect(Enum):
    """What a call does to the vault. MCP shows it as tool annotations; a call that changes
    the vault holds the service's change lock."""

    READ = "read"  # changes nothing; repeating it is harmless
    WRITE = "write"  # adds or changes; repeating it adds again (a second use, a second note)
    WRITE_IDEMPOTENT = "write_idempotent"  # repeating it changes nothing more
    DESTRUCTIVE = "destructive"  # replaces or removes what was there (git keeps it)

    @property
    def read_only(self) -> bool:
        return self is Effect.READ

    @property
    def destructive(self) -> bool:
        return self is Effect.DESTRUCTIVE

    @property
    def idempotent(self) -> bool:
        return self in (Effect.READ, Effect.WRITE_IDEMPOTENT)


@dataclass(frozen=True)
class Operation(Generic[Req, Res]):
    name: str  # the MCP tool name (CortexGraph's where it has one)
    title: str  # a few words for a listing
    description: str  # what the model reads: when to call it and what comes back
    request: type[Req]
    result: type[Res]
    effect: Effect
    invoke: Callable[[MemoryService, Req], Res]  # the service method, called with the request
    # Fields the MCP tool takes without listing them (what the plugin alone gives, like the
    # files open in its tabs): tools/list is read in every session. A client that sends one
    # anyway has it checked and used as REST does, never silently dropped.
    unlisted: frozenset[str] = frozenset()
    # False for what only the plugin and the CLI ask (a page of the memory list, the note
    # open in Obsidian): not listed as an MCP tool.
    mcp_tool: bool = True
    # What the MCP tool answers instead of the result, when the model needs less than REST
    # (sync_vault: a summary); its type is the tool's output schema.
    mcp_answer: Callable[[Res], BaseModel] | None = None
    # It reaches beyond this machine (sync_vault fetches from and pushes to a git remote).
    open_world: bool = False

    def parse(self, data: Mapping[str, Any]) -> Req:
        """The request from a door's arguments by name; `InvalidArgument` naming the first
        parameter refused (`top_k: must be from 1 to 100, got 500`), nothing done."""
        try:
            return self.request.model_validate(dict(data))
        except ValidationError as exc:
            raise refusal(self.request, exc) from None


AnyOperation = Operation[Any, Any]  # a catalogue entry, whatever its request and result


@dataclass(frozen=True)
class Param:
    """One field of a request as a door declares it: the annotation with its limits and
    description (`Annotated[...]`, exactly as written in the model) and its default."""

    name: str
    annotation: Any
    default: Any  # `REQUIRED` when the caller must give it


REQUIRED: Any = ...


def params_of(model: type[BaseModel]) -> list[Param]:
    """The request's fields in order. Limits and descriptions are written in the annotation
    (`Annotated[str, Field(max_length=...)]`) so a door can copy it unchanged."""
    hints = typing.get_type_hints(model, include_extras=True)
    out = []
    for name, field in model.model_fields.items():
        if field.default_factory is not None:
            raise TypeError(f"{model.__name__}.{name}: use a plain default, not a factory")
        if typing.get_origin(hints[name]) is not typing.Annotated and (
            field.metadata or field.description
        ):
            raise TypeError(f"{model.__name__}.{name}: write its limits in Annotated[...]")
        default = REQUIRED if field.is_required() else field.default
        out.append(Param(name, hints[name], default))
    return out
