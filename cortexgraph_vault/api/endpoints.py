"""A REST route is a plain function of the service; this module turns it into HTTP and back.

    @routes.get("/api/v1/memories/{ref}", "One memory in detail")
    def get_memory(service: MemoryService, ref: str) -> MemoryDetail:
        return service.memory_detail(ref)

Parameters named like a path segment get that segment; `query` and `body` (pydantic models)
are parsed from the query string and the JSON body and validated (422 naming the field); the
return annotation is the response schema. The same records produce the OpenAPI spec, so the
spec cannot say something the routes do not do.
"""

from __future__ import annotations

import inspect
import json
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from pydantic import BaseModel, ValidationError
from pydantic_core import to_json
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cortexgraph_vault.api.admission import ChangeFirstGate, ChangeLane
from cortexgraph_vault.api.errors import validation_response, vault_error_response
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.service_calls import CallEnd

if TYPE_CHECKING:
    from cortexgraph_vault.api.read_processes import ReadProcesses
    from cortexgraph_vault.service import MemoryService

ServiceFn = Callable[..., Any]
RESULT_MODEL = "X-Result-Model"
ANSWERED_BY = "X-Read-Process"  # the pid of the read process that answered (api/read_processes.py)
_PATH_PARAM = re.compile(r"{(\w+)}")


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    summary: str
    fn: ServiceFn
    status: int
    response: Any  # a pydantic model class, or Any for a free-form object
    query: type[BaseModel] | None
    body: type[BaseModel] | None
    path_params: tuple[str, ...]
    errors: tuple[int, ...]
    public: bool
    uses_service: bool
    own_call: bool  # the function makes its one service call itself (its lock, its timing)
    reads: Callable[..., bool] | None  # from the path: whether this call only reads
    # answered by the daemon's read processes when it has them (api/read_processes.py): a
    # read that depends on nothing but the notes
    read_process: bool

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.fn.__doc__ or "")


class RouteTable:
    def __init__(self) -> None:
        self.endpoints: list[Endpoint] = []

    def add(
        self,
        method: str,
        path: str,
        summary: str,
        *,
        status: int = 200,
        errors: tuple[int, ...] = (),
        public: bool = False,
        uses_service: bool = True,
        own_call: bool = False,
        reads: Callable[..., bool] | None = None,
        read_process: bool = False,
    ) -> Callable[[ServiceFn], ServiceFn]:
        def register(fn: ServiceFn) -> ServiceFn:
            hints = typing.get_type_hints(fn)
            params = list(inspect.signature(fn).parameters)[1:]  # the first is the service
            path_params = tuple(_PATH_PARAM.findall(path))
            unknown = set(params) - {*path_params, "query", "body"}
            if unknown:
                raise TypeError(f"{fn.__name__}: parameters {sorted(unknown)} are not in {path}")
            self.endpoints.append(
                Endpoint(
                    method=method,
                    path=path,
                    summary=summary,
                    fn=fn,
                    status=status,
                    response=hints.get("return", Any),
                    query=hints.get("query") if "query" in params else None,
                    body=hints.get("body") if "body" in params else None,
                    path_params=path_params,
                    errors=errors,
                    public=public,
                    uses_service=uses_service,
                    own_call=own_call,
                    reads=reads,
                    read_process=read_process,
                )
            )
            return fn

        return register

    def get(self, path: str, summary: str, **kw: Any) -> Callable[[ServiceFn], ServiceFn]:
        return self.add("GET", path, summary, **kw)

    def post(self, path: str, summary: str, **kw: Any) -> Callable[[ServiceFn], ServiceFn]:
        return self.add("POST", path, summary, **kw)

    def patch(self, path: str, summary: str, **kw: Any) -> Callable[[ServiceFn], ServiceFn]:
        return self.add("PATCH", path, summary, **kw)

    def delete(self, path: str, summary: str, **kw: Any) -> Callable[[ServiceFn], ServiceFn]:
        return self.add("DELETE", path, summary, **kw)


def _query_input(model: type[BaseModel], params: QueryParams) -> dict[str, Any]:
    data: dict[str, Any] = {}
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
        raise _BadJson(f"body: not valid JSON ({str(exc)[:200]})") from None
    except RecursionError:  # `[[[[...]]]]` well under the size limit
        raise _BadJson("body: JSON nested too deeply") from None


class _BadJson(Exception):
    pass


class RestThreads:
    """Worker threads of the REST door: a few for reads, one for changes, and the gate that
    says when each may start (`admission.ChangeFirstGate`: a change runs without readers
    beside it, reads wait for it a bounded time). Calls that wait hold no thread."""

    READS = 4
    FINISHING = 64  # calls waiting for their group commit (each a thread that only waits)

    def __init__(self, elsewhere: ReadProcesses | None = None) -> None:
        self.elsewhere = elsewhere  # the daemon's read processes, if it has them
        self._gate: ChangeFirstGate | None = None
        self._reads: ChangeLane | None = None
        self._changes: ChangeLane | None = None
        self._finishing: anyio.CapacityLimiter | None = None

    @property
    def gate(self) -> ChangeFirstGate:
        # made on first use: the gate and limiters belong to the event loop that serves the app
        if self._gate is None:
            self._gate = ChangeFirstGate(self.READS)
            # the gate lets no more reads in than there are threads; a lane of threads is
            # lighter per call than `to_thread` (no limiter, no cancel scope of its own)
            self._reads = ChangeLane(self.READS, name="cgv-reads")
            self._changes = ChangeLane()
            self._finishing = anyio.CapacityLimiter(self.FINISHING)
        return self._gate

    async def run(self, read_only: bool, begin: Callable[[], CallEnd[Any]]) -> Any:
        """`begin` runs the call under its lock; what it returns finishes the call: a save's
        wait for its group commit (`engine/commits.py`) happens on a thread of its own, so
        the change thread goes on to the next change meanwhile."""
        gate = self.gate
        if read_only:
            async with gate.read():
                assert self._reads is not None
                end = await self._reads.run(begin)
        else:
            async with gate.change():
                assert self._changes is not None
                end = await self._changes.run(begin)
        if end.waits:
            return await anyio.to_thread.run_sync(end, limiter=self._finishing)
        return end()


def starlette_route(
    endpoint: Endpoint, service: MemoryService, threads: RestThreads | None = None
) -> Route:
    threads = threads or RestThreads()

    async def handle(request: Request) -> Response:
        kwargs: dict[str, Any] = {name: request.path_params[name] for name in endpoint.path_params}
        if endpoint.query is not None:
            try:
                kwargs["query"] = endpoint.query.model_validate(
                    _query_input(endpoint.query, request.query_params)
                )
            except ValidationError as exc:
                return validation_response(exc, endpoint.query)
        if endpoint.body is not None:
            try:
                data = await _body_input(request)
            except _BadJson as exc:
                return vault_error_response(InvalidArgument(str(exc)))
            if not isinstance(data, dict):
                return vault_error_response(InvalidArgument("body: must be a JSON object"))
            try:
                kwargs["body"] = endpoint.body.model_validate(data)
            except ValidationError as exc:
                return validation_response(exc, endpoint.body)

        if not endpoint.uses_service:
            # Answers at once, even while a long gc holds the service.
            result = endpoint.fn(service, **kwargs)
            return _json(to_json(result), endpoint.status)

        # a route running any operation knows from its path whether it only reads
        read_only = (
            endpoint.reads(**kwargs) if endpoint.reads is not None else endpoint.method == "GET"
        )

        def begin() -> CallEnd[Any]:
            if endpoint.own_call:  # `service.run(operation, ...)`: a read takes no lock
                with service.finished_by_door() as ends:
                    result = endpoint.fn(service, **kwargs)
                if len(ends) == 1 and ends[0].unfinished is result:
                    return ends[0]  # its commit is waited for off the change lane
                for end in ends:
                    end()
                return CallEnd(result, lambda: result, [])
            # The service takes the change lock a change needs and times the call; a GET only reads.
            return service.begin(
                f"rest.{endpoint.name}",
                read_only,
                lambda: endpoint.fn(service, **kwargs),
            )

        if read_only and endpoint.read_process and threads.elsewhere is not None:
            answer = await threads.elsewhere.read(endpoint.name, kwargs)
            if answer is not None:
                model, body, pid = answer
                return _json(body, endpoint.status, {ANSWERED_BY: str(pid), **_named(model)})
        model, body = encoded(await threads.run(read_only, begin))
        return _json(body, endpoint.status, _named(model) or None)

    return Route(endpoint.path, handle, methods=[endpoint.method], name=endpoint.name)


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
