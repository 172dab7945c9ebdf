"""How a tool is registered: annotations, timing, one call at a time, errors the model can act on.

The SDK turns a raised `ToolError` into an `is_error` result carrying its message; any other
exception reaches the model only as "Error executing tool X". So every `VaultError` (whose
message names the file or id, the reason and what to do next) is re-raised as a `ToolError`.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from cortexgraph_vault.errors import Ambiguous, Conflict, VaultError, error_code

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

F = TypeVar("F", bound=Callable[..., Any])

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
WRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
WRITES_IDEMPOTENT = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
DESTRUCTIVE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False
)


def explain(exc: VaultError) -> str:
    """The error as the model should read it: the reason and the next step."""
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, Ambiguous) and exc.candidates:
        shown = exc.candidates[:20]
        more = len(exc.candidates) - len(shown)
        text += ". Candidates (id path): " + "; ".join(shown)
        text += f"; and {more} more" if more > 0 else ""
        text += ". Call again with one of these ids."
    elif isinstance(exc, Conflict):
        text += f". The file's content_hash is now {exc.actual_hash}."
    return text


def error_body(exc: VaultError) -> dict[str, Any]:
    """The error for clients, as the REST API gives it: `error` code, `detail`, and the
    candidates of an ambiguous reference or the hashes of a conflict."""
    body: dict[str, Any] = {"error": error_code(exc), "detail": str(exc)}
    if isinstance(exc, Ambiguous):
        body["candidates"] = list(exc.candidates)
    elif isinstance(exc, Conflict):
        body |= {"expected_hash": exc.expected_hash, "actual_hash": exc.actual_hash}
    return body


# Keys whose values are data, not schemas: a "title" inside them is not a schema title.
_DATA_KEYS = frozenset({"default", "const", "enum", "examples"})


def without_titles(schema: Any) -> Any:
    """A JSON schema without its `title` annotations (a property named title is kept)."""
    if isinstance(schema, dict):
        return {
            k: (v if k in _DATA_KEYS else without_titles(v))
            for k, v in schema.items()
            if not (k == "title" and isinstance(v, str))
        }
    if isinstance(schema, list):
        return [without_titles(v) for v in schema]
    return schema


def compact(result: Any) -> Any:
    """A model result as compact JSON text beside its structured content (the SDK would
    pretty-print it, a third more characters of the model's context for nothing)."""
    if not isinstance(result, BaseModel):
        return result
    data = result.model_dump(mode="json", by_alias=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def loose(result: Any) -> dict[str, Any]:
    """A result for a tool whose model is still being built: keep it a plain object."""
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json")
    if isinstance(result, dict):
        return result
    return {"result": result}


class ToolRegistry:
    """Registers tools on one server; each call is timed and takes its turn on the service."""

    def __init__(self, server: MCPServer, service: MemoryService) -> None:
        self.server = server
        self.service = service

    def __call__(
        self, annotations: ToolAnnotations, *, title: str | None = None
    ) -> Callable[[F], F]:
        def register(fn: F) -> F:
            name = fn.__name__

            @functools.wraps(fn)
            def run(**kwargs: Any) -> Any:
                service = self.service
                with service.turn, service.metrics.measure(name):
                    try:
                        return compact(fn(**kwargs))
                    except VaultError as exc:
                        raise ToolError(explain(exc)) from exc

            description = inspect.cleandoc(fn.__doc__ or "")
            self.server.add_tool(
                run, name=name, title=title, description=description, annotations=annotations
            )
            return fn

        return register
