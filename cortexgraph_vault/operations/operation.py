"""What an operation is: its name, what it does, its typed request and result, its effect, and
how each door serves it.

Each door serves an `Operation` from this one record: the MCP tool's input schema is built
from the request model's fields, the REST routes are generated from its `rest` bindings (query
or body model derived from the same fields), the CLI command fills the same request, and the
service runs `invoke(engine, request)` under its change lock and timed (`MemoryService.run`).
An area module declares each operation as the function that carries it out (`operation`), so
mypy checks its body against its request and result.
"""

from __future__ import annotations

import importlib
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar, Unpack

from pydantic import BaseModel, ValidationError

from cortexgraph_vault.operations.refusal import refusal
from cortexgraph_vault.requests import Request

if TYPE_CHECKING:
    from cortexgraph_vault.engine import VaultEngine

Req = TypeVar("Req", bound=Request)
Res = TypeVar("Res", bound=BaseModel)


class Effect(Enum):
    """What a call does to the vault. MCP shows it as tool annotations; a call that changes
    the vault holds the change lock."""

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


# The operation's own description, said again as a route's (`Rest(description=...)`).
AS_OPERATION = "\x00the operation's description"
# A `{segment}` of a route's path fills the request field of its name; `{ref}` (an id, a
# unique id prefix or a title) fills memory_id.
PATH_FIELDS = {"ref": "memory_id"}
ONE_MEMORY = "/api/v1/memories/{ref}"
# what a route on one memory answers besides success: a bad or unknown ref, a conflict, an
# argument refused, the vault busy
ONE_MEMORY_ERRORS = (400, 404, 409, 422, 503)


@dataclass(frozen=True)
class Rest:
    """One REST route serving an operation. A GET or DELETE takes the request's fields in the
    query string, a POST or PATCH in a JSON body (the model `body` names in the published
    spec); `{segments}` of the path fill request fields (`in_path`), and `fixed` the fields the
    route sets itself. `name` and `tag` are the published operationId and tag; the summary and
    the operationId are the operation's title and name unless the route says otherwise."""

    method: Literal["GET", "POST", "PATCH", "DELETE"]
    path: str
    summary: str = ""
    _: KW_ONLY
    tag: str
    name: str = ""
    description: str = ""  # none unless given; AS_OPERATION: the operation's
    status: int = 200
    errors: tuple[int, ...] = ()  # on one memory ({ref}) unless given: ONE_MEMORY_ERRORS
    rename: Mapping[str, str] = field(default_factory=dict)  # request field -> REST name
    fixed: Mapping[str, object] = field(default_factory=dict)  # request field -> its value
    # the body model's name in the spec (POST and PATCH): the operationId's words by default
    body: str | None = None
    # answered by the daemon's read processes when it has them: a read of the notes alone
    read_process: bool = False

    @property
    def in_query(self) -> bool:
        return self.method in ("GET", "DELETE")

    @cached_property  # read for every request the route serves
    def in_path(self) -> dict[str, str]:
        """Path segment -> the request field it fills."""
        return {s: PATH_FIELDS.get(s, s) for s in re.findall(r"{(\w+)}", self.path)}

    def serving(self, op: AnyOperation) -> Rest:
        """This route with what it leaves to the operation filled in."""
        said = self.description
        name = self.name or op.name
        return replace(
            self,
            summary=self.summary or op.title,
            name=name,
            body=self.body or (None if self.in_query else "".join(map(str.title, name.split("_")))),
            errors=self.errors or (ONE_MEMORY_ERRORS if "{ref}" in self.path else ()),
            description=op.description if said == AS_OPERATION else said,
        )


@dataclass(frozen=True)
class Operation(Generic[Req, Res]):
    name: str  # the MCP tool name (CortexGraph's where it has one)
    title: str  # a few words for a listing
    description: str  # what the model reads: when to call it and what comes back
    # The request and result models, or where each is ("module:Name", imported when first
    # read): a call builds its own models' classes, not those of every operation of its area.
    request_model: type[Req] | str
    result_model: type[Res] | str
    effect: Effect
    invoke: Callable[[VaultEngine, Req], Res]  # carries it out (calling the logic in handlers/)
    # Fields the MCP tool takes without listing them (what the plugin alone gives, like the
    # files open in its tabs): tools/list is read in every session. A client that sends one
    # anyway has it checked and used as REST does, never silently dropped.
    unlisted: frozenset[str] = frozenset()
    # False for what only the plugin and the CLI ask (a page of the memory list, the note
    # open in Obsidian, an import from a file): not listed as an MCP tool.
    mcp_tool: bool = True
    # What the MCP tool answers instead of the result, when the model needs less than REST
    # (sync_vault: a summary); its type is the tool's output schema.
    mcp_answer: Callable[[Res], BaseModel] | None = None
    # It reaches beyond this machine (sync_vault fetches from and pushes to a git remote).
    open_world: bool = False
    rest: tuple[Rest, ...] = ()
    # A use of memories (touch, observe): its wait for the disk lets go of the change lock,
    # and the uses gathered are committed in a snapshot when one is due.
    counts_uses: bool = False
    # It takes the change lock per item itself (the pipeline), so other calls interleave with
    # a long run: the service runs it without holding the lock throughout.
    locks_per_item: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "rest", tuple(r.serving(self) for r in self.rest))

    @cached_property
    def request(self) -> type[Req]:
        """The request model: what every door checks the arguments with."""
        found: type[Req] = model_at(self.request_model)
        return found

    @cached_property
    def result(self) -> type[Res]:
        """The result model (what MCP's output schema and REST's response are made from)."""
        found: type[Res] = model_at(self.result_model)
        return found

    @cached_property
    def answer_model(self) -> type[BaseModel]:
        """What the MCP tool answers: `mcp_answer`'s return type, or the result."""
        if self.mcp_answer is None:
            return self.result
        found: type[BaseModel] = model_at(
            named_in(self.mcp_answer, self.mcp_answer.__annotations__["return"], RESULTS)
        )
        return found

    def parse(self, data: Mapping[str, Any]) -> Req:
        """The request from a door's arguments by name; `InvalidArgument` naming the first
        parameter refused (`top_k: must be from 1 to 100, got 500`), nothing done."""
        try:
            return self.request.model_validate(dict(data))
        except ValidationError as exc:
            raise refusal(self.request, exc) from None

    def request_of(self, args: tuple[object, ...], fields: Mapping[str, object]) -> Req:
        """The request from arguments given in the order the request declares its fields,
        then by name (`service.search("coffee", top_k=5)`), checked as `parse` checks them."""
        names = list(self.request.model_fields)
        if len(args) > len(names):
            raise TypeError(f"{self.name} takes at most {len(names)} arguments in order")
        given = dict(zip(names, args, strict=False))
        twice = given.keys() & fields.keys()
        if twice:
            raise TypeError(f"{self.name}: {sorted(twice)} given in order and by name")
        return self.parse({**given, **fields})


# Where a model named only for the type checker is found: a result among the shapes every
# door serialises, a request in its area's module of requests/ (tests/operations keep it so).
MODEL_HOMES = ("cortexgraph_vault.models", "cortexgraph_vault.requests")
RESULTS, REQUESTS = MODEL_HOMES


def named_in(fn: Callable[..., object], hint: Any, home: str) -> Any:
    """An annotation of `fn` (postponed: a name of its module): the class, when the module
    holds it; else where it is, "home:Name"."""
    if not isinstance(hint, str):
        return hint
    return fn.__globals__.get(hint) or f"{home}:{hint}"


def model_at(where: Any) -> Any:
    """The class `named_in` gave, importing its module if it was a place."""
    if not isinstance(where, str):
        return where
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


AnyOperation = Operation[Any, Any]  # a catalogue entry, whatever its request and result


class Options(TypedDict, total=False):
    """What `operation(...)` passes on to `Operation` as it is: its fields with a default."""

    unlisted: frozenset[str]
    mcp_tool: bool
    mcp_answer: Callable[[Any], BaseModel]
    open_world: bool
    counts_uses: bool
    locks_per_item: bool


def operation(
    title: str, effect: Effect, *, rest: Rest | tuple[Rest, ...] = (), **options: Unpack[Options]
) -> Callable[[Callable[[VaultEngine, Req], Res]], Operation[Req, Res]]:
    """Declares the function below as an operation: its name is the operation's (the MCP
    tool's), its docstring the description the model reads, its parameters' and return types
    the request and the result, its body what carries the operation out (in `handlers/`);
    `rest`, its route or routes."""
    routes = (rest,) if isinstance(rest, Rest) else rest

    def declare(fn: Callable[[VaultEngine, Req], Res]) -> Operation[Req, Res]:
        if not fn.__doc__:
            raise TypeError(f"{fn.__name__}: its docstring is the description the model reads")
        hints = fn.__annotations__
        area = fn.__module__.rpartition(".")[2]
        request = named_in(fn, hints[fn.__code__.co_varnames[1]], f"{REQUESTS}.{area}")
        result = named_in(fn, hints["return"], RESULTS)
        description = inspect.cleandoc(fn.__doc__)
        return Operation(
            fn.__name__, title, description, request, result, effect, fn, rest=routes, **options
        )

    return declare


def declared_in(namespace: Mapping[str, object]) -> tuple[AnyOperation, ...]:
    """The operations an area module declares, in the order it declares them (the order the
    MCP server lists them in)."""
    return tuple(v for v in namespace.values() if isinstance(v, Operation))


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
    for name, info in model.model_fields.items():
        if info.default_factory is not None:
            raise TypeError(f"{model.__name__}.{name}: use a plain default, not a factory")
        if typing.get_origin(hints[name]) is not typing.Annotated and (
            info.metadata or info.description
        ):
            raise TypeError(f"{model.__name__}.{name}: write its limits in Annotated[...]")
        default = REQUIRED if info.is_required() else info.default
        out.append(Param(name, hints[name], default))
    return out
