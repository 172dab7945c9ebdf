"""An operation is declared as the function that carries it out, and a route states only what
is its own: what it leaves out is the operation's."""

from __future__ import annotations

from typing import Any

import pytest

from cortexgraph_vault.models import SearchResult
from cortexgraph_vault.operations.operation import (
    AS_OPERATION,
    ONE_MEMORY_ERRORS,
    Effect,
    Rest,
    operation,
)
from cortexgraph_vault.requests import Request


class ProbeRequest(Request):
    words: str = ""


@operation(
    "Probe the vault",
    Effect.WRITE,
    mcp_tool=False,
    rest=(
        Rest("POST", "/api/v1/memories/{ref}/probe", tag="memories"),
        Rest("GET", "/api/v1/probes", "List probes", name="probes", tag="vault", errors=(422,)),
        Rest("GET", "/api/v1/probe", tag="vault", description=AS_OPERATION),
    ),
)
def probe_memory(engine: Any, request: ProbeRequest) -> SearchResult:
    """Look at a memory
    without changing it.
    """
    return SearchResult(results=[], count=len(request.words))


def test_the_function_gives_the_name_description_request_result_and_logic() -> None:
    op = probe_memory
    assert (op.name, op.title, op.description) == (
        "probe_memory",
        "Probe the vault",
        "Look at a memory\nwithout changing it.",
    )
    assert (op.request, op.result, op.effect, op.mcp_tool) == (
        ProbeRequest,
        SearchResult,
        Effect.WRITE,
        False,
    )
    no_engine: Any = None  # the body reads only the request
    assert op.invoke(no_engine, ProbeRequest(words="abc")).count == 3


def test_a_route_takes_what_it_does_not_say_from_its_operation() -> None:
    on_one, listing, same = probe_memory.rest
    assert (on_one.summary, on_one.name, on_one.description) == (
        "Probe the vault",
        "probe_memory",
        "",
    )
    # {ref} is the memory the route is about; a route on one memory answers its errors
    assert on_one.in_path == {"ref": "memory_id"}
    assert on_one.errors == ONE_MEMORY_ERRORS
    assert on_one.body == "ProbeMemory"  # named for the operationId; a query has none
    assert (listing.summary, listing.name, listing.errors, listing.body) == (
        "List probes",
        "probes",
        (422,),
        None,
    )
    assert listing.in_path == {}
    assert same.description == "Look at a memory\nwithout changing it."


def test_an_operation_without_a_docstring_is_refused() -> None:
    with pytest.raises(TypeError, match="docstring"):

        @operation("Nameless", Effect.READ)
        def nameless(engine: Any, request: ProbeRequest) -> SearchResult:
            return SearchResult(results=[], count=0)
