"""The service runs each call of a door under its change lock and times it: doors only parse, call and
render (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.errors import NotFound
from cortexgraph_vault.models import SearchResult
from cortexgraph_vault.operations import Effect, Operation, Request
from cortexgraph_vault.operations.memories import search_memory, touch_memory
from cortexgraph_vault.requests.memories import SearchMemoryRequest, TouchMemoryRequest
from cortexgraph_vault.service import MemoryService
from tests.mcp.mcp_session import service_for


def holds_turn_during(service: MemoryService, effect: Effect) -> bool:
    """Whether an operation with `effect` runs holding the service's change lock."""
    seen: list[bool] = []

    def invoke(s: MemoryService, _: Request) -> SearchResult:
        seen.append(s.change_lock._is_owned())  # type: ignore[attr-defined]
        return SearchResult(results=[], count=0)

    probe = Operation("probe", "Probe", "a probe", Request, SearchResult, effect, invoke)
    service.run(probe, Request())
    return seen == [True]


def test_a_change_takes_the_turn_and_a_read_needs_none_while_the_watcher_runs(
    sample_vault: Path,
) -> None:
    service = service_for(sample_vault)
    for effect in (Effect.WRITE, Effect.WRITE_IDEMPOTENT, Effect.DESTRUCTIVE):
        assert holds_turn_during(service, effect), effect
    assert holds_turn_during(service, Effect.READ)  # no watcher: a read refreshes the catalogue
    service.engine.watching = True
    assert not holds_turn_during(service, Effect.READ)
    assert holds_turn_during(service, Effect.WRITE)
    assert not service.change_lock._is_owned()  # type: ignore[attr-defined]


def test_each_call_is_timed_once_under_the_name_of_the_outer_call(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    service.run(search_memory, SearchMemoryRequest(query="coffee"))
    # a REST route serving an operation: timed under the route's name only
    service.call(
        "rest.search",
        True,
        lambda: service.run(search_memory, SearchMemoryRequest(query="coffee")),
    )
    with pytest.raises(NotFound):
        service.run(touch_memory, TouchMemoryRequest(memory_id="no-such-memory"))
    timings = {t.operation: t for t in service.performance_metrics().operations}
    assert set(timings) == {"search_memory", "rest.search", "touch_memory"}
    assert timings["search_memory"].count == 1 and timings["rest.search"].count == 1
    assert timings["touch_memory"].errors == 1
    assert not service.change_lock._is_owned()  # type: ignore[attr-defined]
