"""A read process of the daemon: its own index of the vault, kept current by the daemon, and
the REST reads the daemon hands it (searches, listings, a memory opened), answered with the
same route functions and the same JSON the daemon would give.

Started by `api/read_processes.py` as `python -m cortexgraph_vault.api.read_worker FD`, FD one
end of a socket pair (api/read_frames.py says what goes over it). It never writes a note and
never watches the vault: the daemon tells it, in order, every path its own catalogue took in,
before any read that came after. So a read answered here sees every change the daemon had
answered before the read arrived, as it would in the daemon itself.

One thread answers, one read at a time: in its own process a read needs no lock and hands
the interpreter to no one (what the daemon's watcher found on disk is taken in on a second,
`Follower`). Between two answers it takes in everything the daemon has sent meanwhile: the
changes at once, the reads into a queue answered cheapest first (api/read_order.py). A search
that needs the daemon's sentence vectors of notes just changed is put off (`Parked`) until
they come, the other reads answered meanwhile. It ends when the daemon closes its end, or dies.
"""

from __future__ import annotations

import logging
import os
import pickle
import queue
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.api.endpoints import encoded
from cortexgraph_vault.api.read_frames import FrameSocket
from cortexgraph_vault.api.read_order import CheapestFirst
from cortexgraph_vault.errors import VaultError

if TYPE_CHECKING:
    from cortexgraph_vault.api.endpoints import Endpoint
    from cortexgraph_vault.engine import Clock
    from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
    from cortexgraph_vault.service import MemoryService

log = logging.getLogger("cortexgraph_vault.read_process")

# How long a search waits for the daemon's vectors of a few notes just changed before it
# embeds them itself (the daemon's encoder is failing, or it made them before this started).
MAKER_WAIT = 10.0

# until when it waits, when first tried, the changes told before it came, the read
ParkedRead = tuple[float, float, int, tuple[Any, ...]]


class Parked(Exception):
    """A search waits for the daemon's vectors of notes just changed: it is answered again
    once they come (or MAKER_WAIT has passed: it embeds them itself), and the reads behind it
    meanwhile. It ran on nothing it changed: run again, it sees the index as it is then, with
    the changes that came since (a read and a change that overlap: either order is true)."""


def take_in(catalog: VaultCatalog, kind: str, rel: str) -> None:
    """One path (or folder) brought to what the daemon's index took in: as the disk has it now."""
    if kind == "note":
        catalog.reload(rel)
    elif kind == "file":
        catalog.attachment_changed(rel)
    else:  # "walk": a folder (or the vault: "") walked again, its other files too
        catalog.refresh(rel)


class Follower:
    """Changes made by the daemon's calls are taken in at once, before the reads that came
    after them; changes its watcher found on disk go to a thread of their own, taken in
    behind the reads (in order among themselves), as the daemon's watcher does beside its
    reads: nobody waits for them."""

    def __init__(self, catalog: VaultCatalog) -> None:
        self.catalog = catalog
        self._noticed: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        threading.Thread(target=self._behind, name="cgv-follow", daemon=True).start()

    def __call__(self, changes: list[tuple[str, str, bool]]) -> None:
        for kind, rel, noticed in changes:
            if noticed:
                self._noticed.put((kind, rel))
            else:
                take_in(self.catalog, kind, rel)

    def _behind(self) -> None:
        while True:
            kind, rel = self._noticed.get()
            try:
                take_in(self.catalog, kind, rel)
            except Exception:  # the next change or walk of the path tries again
                log.exception("%s: not taken in", rel)


def answer(
    service: MemoryService,
    routes: dict[str, Endpoint],
    message: tuple[Any, ...],
    started: float | None = None,
) -> tuple[Any, ...] | None:
    """One read, as `endpoints.starlette_route` runs it in the daemon; None: `Parked`.
    `started`: when it was first tried (the time it took counts from then)."""
    _, rid, name, kwargs = message
    endpoint = routes.get(name)
    if endpoint is None:
        return ("again", rid)
    if started is None:
        started = time.perf_counter()
    searches = service.engine.catalog.meaning.searches
    before = dict(searches)
    try:
        end = service.begin(f"rest.{name}", True, lambda: endpoint.fn(service, **kwargs))
        model, body = encoded(end())
        ranked = next((k for k, n in searches.items() if n != before.get(k)), None)
        return ("ok", rid, model, body, time.perf_counter() - started, ranked)
    except Parked:
        return None
    except VaultError as exc:
        try:  # an error that cannot travel is raised by the daemon itself, running the read
            pickle.loads(raw := pickle.dumps(exc))
        except Exception:
            return ("again", rid)
        return ("error", rid, raw)
    except Exception:
        log.exception("%s failed in the read process; the daemon answers it", name)
        return ("again", rid)


def warm(service: MemoryService, routes: dict[str, Endpoint]) -> None:
    """One read of each kind, answers thrown away: what a first read builds (the word index
    and vectors loaded, the link graph, the note table, the query tokenizer) is built before
    the daemon sends reads here, not in a client's wait."""
    from cortexgraph_vault.requests.browse import ListMemoriesRequest, MemoryDetailRequest
    from cortexgraph_vault.requests.vault import SearchUnifiedRequest

    first = next((n.memory_id for n in service.engine.catalog.notes() if n.memory_id), None)
    reads: list[tuple[str, dict[str, Any]]] = [
        ("search", {"request": SearchUnifiedRequest(query="a memory")}),
        ("list_memories", {"request": ListMemoriesRequest()}),
        *([("get_memory", {"request": MemoryDetailRequest(memory_id=first)})] if first else []),
    ]
    for rid, (name, kwargs) in enumerate(reads):
        answer(service, routes, ("read", rid, name, kwargs))


def serve(sock: socket.socket, clock: Clock | None = None) -> None:
    """`clock`: the service's (a test's; else the time of day)."""
    link = FrameSocket(sock)
    config = link.recv()
    if config is None:
        return
    from cortexgraph_vault.api.routes import rest_endpoints
    from cortexgraph_vault.config import Config
    from cortexgraph_vault.service import MemoryService

    assert isinstance(config, Config)  # the first message
    service = MemoryService(config, clock=clock)
    service.engine.follow_told_changes()
    routes = {e.route.name: e for e in rest_endpoints() if e.route.read_process}
    follow = Follower(service.engine.catalog)
    meaning = service.engine.catalog.meaning
    until: float | None = None  # when the read being answered stops waiting for vectors

    def await_made(done: Callable[[], bool]) -> bool:
        """Within a search: True when the daemon's vectors have come; `Parked` while they
        may still come; False once they are late (it embeds them itself)."""
        if done():
            return True
        if until is not None and time.monotonic() < until:
            raise Parked
        return False

    meaning.await_made = await_made
    warm(service, routes)
    link.send(("ready", os.getpid()))
    # each read with the changes told before it came: a search waits for their vectors only
    reads: CheapestFirst[tuple[int, tuple[Any, ...]]] = CheapestFirst()
    parked: list[ParkedRead] = []
    again: deque[ParkedRead] = deque()  # parked reads to answer before the others: they came first
    while True:
        # nothing to answer: wait for the daemon (no longer than a parked read waits); else
        # only what it has sent meanwhile
        if reads or again:
            incoming = link.waiting()
        else:
            wait = min(p[0] for p in parked) - time.monotonic() if parked else None
            first = link.recv() if wait is None else link.recv_within(wait)
            if first is None and (wait is None or link.closed):
                return  # the daemon closed its end
            incoming = [*([first] if first is not None else []), *link.waiting()]
        now = time.monotonic()
        came = False
        for message in incoming:
            assert isinstance(message, tuple)
            if message[0] == "read":
                reads.add(message[2], (meaning.told, message), now)
            elif message[0] == "vectors":
                meaning.take(message[1])
                came = True
            else:  # a change sent after a parked read: that read may see it (they overlap)
                follow(message[1])
        if parked and (came or min(p[0] for p in parked) <= now):
            again.extend(parked)
            parked.clear()
        if again:
            until, first_tried, told, message = again.popleft()
        elif reads:
            told, message = reads.take(now)[1]
            until, first_tried = now + MAKER_WAIT, time.perf_counter()
        else:
            continue
        started = time.perf_counter()
        meaning.horizon = told
        result = answer(service, routes, message, first_tried)
        if result is None:
            parked.append((until, first_tried, told, message))
            continue
        link.send(result)
        reads.cost(message[2], time.perf_counter() - started)


def main(argv: list[str]) -> int:
    # Ctrl-C in the daemon's terminal, or a SIGTERM to its process group (`timeout`, a service
    # manager), reaches this process too: the daemon decides when it ends (its socket's end),
    # after its last reads are answered, instead of it dying first and being started again
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logging.basicConfig(
        level=logging.WARNING,
        stream=sys.stderr,
        format="cortexgraph-vault read process %(process)d: %(message)s",
    )
    sock = socket.socket(fileno=int(argv[1]))
    try:
        serve(sock)
    except (BrokenPipeError, ConnectionError):
        pass  # the daemon went away mid-answer
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
