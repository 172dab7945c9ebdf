"""The order a read process answers its waiting reads in (api/read_order.py)."""

from __future__ import annotations

import socket

import pytest

from cortexgraph_vault.api.read_frames import FrameSocket, pack
from cortexgraph_vault.api.read_order import AGE, CheapestFirst


def _taught(**costs: float) -> CheapestFirst[str]:
    order: CheapestFirst[str] = CheapestFirst()
    for route, seconds in costs.items():
        order.cost(route, seconds)
    return order


def test_the_cheapest_route_is_answered_first_whatever_came_before() -> None:
    order = _taught(search=0.002, list_memories=0.0012, get_memory=0.0002)
    for n, route in enumerate(["search", "list_memories", "search", "get_memory"]):
        order.add(route, f"{route}-{n}", now=0.0)
    taken = [order.take(now=0.01)[1] for _ in range(4)]
    assert taken == ["get_memory-3", "list_memories-1", "search-0", "search-2"]
    assert len(order) == 0


def test_reads_of_one_route_keep_their_order() -> None:
    order = _taught(search=0.002)
    for n in range(5):
        order.add("search", str(n), now=n * 0.001)
    assert [order.take(now=0.01)[1] for _ in range(5)] == ["0", "1", "2", "3", "4"]


def test_a_read_that_waited_its_age_goes_before_cheaper_ones() -> None:
    order = _taught(search=0.002, get_memory=0.0002)
    order.add("search", "old search", now=0.0)
    order.add("get_memory", "open", now=AGE - 0.01)
    assert order.take(now=AGE - 0.001)[1] == "open"  # not waited long enough yet
    order.add("get_memory", "open 2", now=AGE)
    assert order.take(now=AGE)[1] == "old search"
    assert order.take(now=AGE)[1] == "open 2"


def test_a_route_never_answered_is_tried_first_then_ranked_by_what_it_cost() -> None:
    order = _taught(search=0.002)
    order.add("search", "search", now=0.0)
    order.add("related", "related", now=0.0)
    route, _ = order.take(now=0.0)
    assert route == "related"
    order.cost("related", 0.05)  # dearer than a search
    order.add("related", "related 2", now=0.0)
    assert order.take(now=0.0)[1] == "search"


def test_the_running_cost_follows_what_a_route_costs_lately() -> None:
    order = _taught(search=0.001)
    for _ in range(60):
        order.cost("search", 0.010)
    assert order.costs["search"] == pytest.approx(0.010, rel=0.01)


def test_taking_from_an_empty_queue_is_an_error() -> None:
    with pytest.raises(IndexError):
        CheapestFirst[str]().take(now=0.0)


def test_waiting_gives_every_whole_message_come_so_far_without_blocking() -> None:
    ours, theirs = socket.socketpair()
    try:
        link = FrameSocket(theirs)
        assert link.waiting() == []  # nothing yet: no wait
        first, second = (
            pack(("read", 1, "search", {})),
            pack(("changed", [("note", "a.md", False)])),
        )
        ours.sendall(first + second[:5])  # the second only in part
        assert link.waiting() == [("read", 1, "search", {})]
        ours.sendall(second[5:])
        assert link.waiting() == [("changed", [("note", "a.md", False)])]
        ours.sendall(pack(("read", 2, "get_memory", {})))
        ours.close()
        assert link.recv() == ("read", 2, "get_memory", {})
        assert link.waiting() == []
        assert link.recv() is None  # the daemon's end closed
    finally:
        theirs.close()
