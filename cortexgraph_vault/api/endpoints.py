"""REST routes, and how each becomes HTTP and back.

Most routes serve an operation of the catalogue, made from its `Rest` bindings
(`operation_endpoints`): the query or body model takes the request's fields (minus those the
path carries and those the route sets itself, some under a REST name), validated with their
declared limits (422 naming the field); the request is then made from them and the path, and
checked again as every door checks it. The few routes that are no operation (health, the spec,
any operation by name) are plain functions of the service on a `RouteTable`:

    @VAULT.add(Rest("GET", "/health", "Is the daemon up", tag="vault"), public=True, uses_service=False)
    def health(service: MemoryService) -> Health: ...

The same records produce the OpenAPI spec, so the spec cannot say something the routes do not do.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

import anyio.to_thread
from anyio import CapacityLimiter
from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic_core import to_json
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cortexgraph_vault.api.errors import vault_error_response
from cortexgraph_vault.errors import InvalidArgument, VaultError
from cortexgraph_vault.operations import REQUIRED, AnyOperation, Rest, params_of
from cortexgraph_vault.operations.refusal import refusal
from cortexgraph_vault.requests import Request as OperationRequest
from cortexgraph_vault.service import CallEnd

if TYPE_CHECKING:
    from cortexgraph_vault.api.read_processes import ReadProcesses
    from cortexgraph_vault.service import MemoryService

ServiceFn = Callable[..., Any]
RESULT_MODEL = "X-Result-Model"
ANSWERED_BY = "X-Read-Process"  # the pid of the read process that answered (api/read_processes.py)


@dataclass(frozen=True)
class Endpoint:
    route: Rest  # method, path, published operationId and tag, summary, statuses
    fn: ServiceFn  # (service, **path segments, query or body) or, for an operation, (service, request)
    response: Any  # a pydantic model class, or Any for a free-form object
    query: type[BaseModel] | None = None
    body: type[BaseModel] | None = None
    # The operation it serves, when it serves one: the query or body and the path give its
    # request (`rest_request`), and `fn` runs it.
    operation: AnyOperation | None = None
    public: bool = False
    uses_service: bool = True
    own_call: bool = False  # the function makes its one service call itself (its lock, its timing)
    reads: Callable[..., bool] | None = None  # from the path: whether this call only reads


class RouteTable:
    """The routes that are no operation, each a function of the service."""

    def __init__(self) -> None:
        self.endpoints: list[Endpoint] = []

    def add(
        self,
        route: Rest,
        *,
        public: bool = False,
        uses_service: bool = True,
        own_call: bool = False,
        reads: Callable[..., bool] | None = None,
    ) -> Callable[[ServiceFn], ServiceFn]:
        def register(fn: ServiceFn) -> ServiceFn:
            hints = typing.get_type_hints(fn)
            params = list(inspect.signature(fn).parameters)[1:]  # the first is the service
            unknown = set(params) - {*route.in_path, "query", "body"}
            if unknown:
                raise TypeError(
                    f"{fn.__name__}: parameters {sorted(unknown)} are not in {route.path}"
                )
            described = replace(
                route, name=fn.__name__, description=inspect.cleandoc(fn.__doc__ or "")
            )
            query, body = (hints.get(k) if k in params else None for k in ("query", "body"))
            self.endpoints.append(
                Endpoint(
                    described,
                    fn,
                    hints.get("return", Any),
                    query,
                    body,
                    public=public,
                    uses_service=uses_service,
                    own_call=own_call,
                    reads=reads,
                )
            )
            return fn

        return register


class RestInput(BaseModel):
    """A query or body model with the fields of an operation's request (`rest_input`)."""

    model_config = ConfigDict(extra="forbid")
    request_names: ClassVar[Mapping[str, str]]  # REST name -> request field name


_inputs: list[tuple[type[OperationRequest], Rest, type[RestInput]]] = []


def rest_input(op: AnyOperation, binding: Rest) -> type[RestInput] | None:
    """The query or body model of one route of `op`: the request's fields, each with its
    annotation (limits and description) and default, but those the path carries and those the
    route sets; None when no field is left. Routes alike share one model (`/analyze` and
    `/analyze/recall` take the same message)."""
    taken = {*binding.in_path.values(), *binding.fixed}
    fields: dict[str, Any] = {
        binding.rename.get(p.name, p.name): (
            p.annotation,
            ... if p.default is REQUIRED else p.default,
        )
        for p in params_of(op.request)
        if p.name not in taken
    }
    if not fields:
        return None
    for request, other, made in _inputs:
        if request is op.request and _same_shape(other, binding):
            return made
    name = binding.body or "".join(w.title() for w in binding.name.split("_")) + "Query"
    model = create_model(name, __base__=RestInput, __module__=__name__, **fields)
    model.request_names = {binding.rename.get(f, f): f for f in op.request.model_fields}
    _inputs.append((op.request, binding, model))
    return model


def _same_shape(a: Rest, b: Rest) -> bool:
    def shape(r: Rest) -> tuple[object, ...]:
        return r.body, dict(r.in_path), dict(r.fixed), dict(r.rename), r.in_query

    return shape(a) == shape(b)


def rest_request(
    endpoint: Endpoint, given: BaseModel | None, path: Mapping[str, str]
) -> OperationRequest:
    """The operation's request from a route's validated query or body, its path segments and
    the fields it sets itself; checked as every door checks one (`InvalidArgument`)."""
    assert endpoint.operation is not None
    binding = endpoint.route
    values: dict[str, object] = {}
    if isinstance(given, RestInput):
        names = type(given).request_names
        values = {names[name]: getattr(given, name) for name in type(given).model_fields}
    values |= {field: path[segment] for segment, field in binding.in_path.items()}
    values |= binding.fixed
    request: OperationRequest = endpoint.operation.parse(values)
    return request


def operation_endpoints(operations: Mapping[str, AnyOperation]) -> list[Endpoint]:
    """Every route of every operation, as its `rest` bindings declare them."""
    out = []
    for op in operations.values():
        for binding in op.rest:
            model = rest_input(op, binding)
            query, body = (model, None) if binding.in_query else (None, model)
            out.append(Endpoint(binding, _runs(op), op.result, query, body, op))
    return out


def _runs(op: AnyOperation) -> ServiceFn:
    def run(service: MemoryService, request: OperationRequest) -> Any:
        return service.run(op, request)

    run.__name__ = op.name
    return run


def _query_input(model: type[BaseModel], params: QueryParams) -> dict[str, str | list[str]]:
    data: dict[str, str | list[str]] = {}
    for key in params:
        field = model.model_fields.get(key)
        if field is not None and _takes_list(field.annotation):
            # `tags=a&tags=b` and `tags=a,b` both work.
            data[key] = [p.strip() for v in params.getlist(key) for p in v.split(",") if p.strip()]
        else:
            data[key] = params[key]
    return data


def _takes_list(annotation: Any) -> bool:
    """`list[str]`, `list[str] | None` and `str | list[str]` take a list."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(typing.get_origin(a) is list for a in typing.get_args(annotation))
    return typing.get_origin(annotation) is list


async def _body_input(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError as exc:  # bad JSON or bytes, an integer past Python's 4,300 digits
        raise InvalidArgument(f"body: not valid JSON ({str(exc)[:200]})") from None
    except RecursionError:  # `[[[[...]]]]` well under the size limit
        raise InvalidArgument("body: JSON nested too deeply") from None


def _validated(model: type[BaseModel], data: object) -> BaseModel:
    """422 naming each bad field and what it takes, in the words of every door."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise refusal(model, exc) from None


async def _arguments(endpoint: Endpoint, request: Request) -> dict[str, Any]:
    """The call's arguments: its path segments and validated query or body; for an operation,
    its request made from them. A refused one raises the VaultError that names it."""
    kwargs: dict[str, Any] = {name: request.path_params[name] for name in endpoint.route.in_path}
    if endpoint.query is not None:
        kwargs["query"] = _validated(
            endpoint.query, _query_input(endpoint.query, request.query_params)
        )
    if endpoint.body is not None:
        data = await _body_input(request)
        if not isinstance(data, dict):
            raise InvalidArgument("body: must be a JSON object")
        kwargs["body"] = _validated(endpoint.body, data)
    if endpoint.operation is None:
        return kwargs
    given = kwargs.pop("query", None) or kwargs.pop("body", None)
    return {"request": rest_request(endpoint, given, kwargs)}


class RestThreads:
    """Worker threads of the REST door: a few for reads, one for changes (so they run one at a
    time, in the order they came). A call waiting for its thread holds none, nor does one
    waiting for what its change left for after its lock (a save's group commit, a folder's
    fsync): the event loop waits for that."""

    READS = 4

    def __init__(self, elsewhere: ReadProcesses | None = None) -> None:
        self.elsewhere = elsewhere  # the daemon's read processes, if it has them

    @functools.cached_property
    def _limiters(self) -> tuple[CapacityLimiter, CapacityLimiter]:
        # made on first use: they belong to the event loop that serves the app
        return CapacityLimiter(self.READS), CapacityLimiter(1)

    async def run(self, read_only: bool, begin: Callable[[], CallEnd[Any]]) -> Any:
        """`begin` runs the call under its lock; what it returns finishes the call once what
        it waits for is done (`CallEnd.when_ready`): the change thread goes on to the next
        change meanwhile, and no thread is handed the call back only to wait."""
        reads, changes = self._limiters
        end = await anyio.to_thread.run_sync(begin, limiter=reads if read_only else changes)
        if end.waits:
            await until_ready(end)
        return end()


async def until_ready(end: CallEnd[Any]) -> None:
    """Until `end` waits no more. A client that goes away meanwhile leaves the call to finish
    where its last wait ends (its timing recorded as if answered)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def settle() -> None:
        if ready.cancelled():
            end()
        elif not ready.done():
            ready.set_result(None)

    def woken() -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the daemon is ending
            loop.call_soon_threadsafe(settle)

    end.when_ready(woken)
    await ready


def starlette_route(
    endpoint: Endpoint, service: MemoryService, threads: RestThreads | None = None
) -> Route:
    threads = threads or RestThreads()
    route = endpoint.route

    async def handle(request: Request) -> Response:
        try:
            kwargs = await _arguments(endpoint, request)
        except VaultError as exc:
            return vault_error_response(exc)

        if not endpoint.uses_service:
            # Answers at once, even while a long gc holds the service.
            result = endpoint.fn(service, **kwargs)
            return _json(to_json(result), route.status)

        # a route running any operation knows from its path whether it only reads
        read_only = (
            endpoint.reads(**kwargs) if endpoint.reads is not None else route.method == "GET"
        )

        def begin() -> CallEnd[Any]:
            if endpoint.own_call:  # `service.run(operation, ...)`: a read takes no lock
                with service.finished_by_door() as ends:
                    result = endpoint.fn(service, **kwargs)
                if len(ends) == 1 and ends[0].unfinished is result:
                    return ends[0]  # its commit is waited for off the change thread
                for end in ends:
                    end()
                return CallEnd(result, lambda: result, [])
            # The service takes the change lock a change needs and times the call; a GET only reads.
            return service.begin(
                f"rest.{route.name}", read_only, lambda: endpoint.fn(service, **kwargs)
            )

        if read_only and route.read_process and threads.elsewhere is not None:
            answer = await threads.elsewhere.read(route.name, kwargs)
            if answer is not None:
                model, body, pid = answer
                return _json(body, route.status, {ANSWERED_BY: str(pid), **_named(model)})
        model, body = encoded(await threads.run(read_only, begin))
        return _json(body, route.status, _named(model) or None)

    return Route(route.path, handle, methods=[route.method], name=route.name)


def encoded(result: Any) -> tuple[str | None, bytes]:
    """The result's model by name (a client, the CLI, rebuilds it without knowing the route)
    and the result as compact UTF-8 JSON, encoded in one pass by pydantic (a third of the
    time of building Python objects and then `json.dumps`). The read processes encode theirs
    with it too (api/read_worker.py)."""
    model = type(result).__name__ if isinstance(result, BaseModel) else None
    return model, to_json(result)


def _named(model: str | None) -> dict[str, str]:
    return {RESULT_MODEL: model} if model else {}


def _json(body: bytes, status: int, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type="application/json", headers=headers)
