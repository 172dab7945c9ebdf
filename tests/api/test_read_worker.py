"""A read process (api/read_worker.py) driven over its socket as the daemon drives it."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.api import read_worker
from cortexgraph_vault.api.read_frames import FrameSocket, pack
from cortexgraph_vault.index.vectors import query_vectors
from cortexgraph_vault.index.vectors.encoder_worker import WorkerEncoder
from cortexgraph_vault.index.vectors.meaning import BY_ENCODER, MadeVector, MeaningVectors
from cortexgraph_vault.index.vectors.minilm import SentenceEncoder
from cortexgraph_vault.requests.browse import ListMemoriesRequest
from cortexgraph_vault.requests.vault import SearchUnifiedRequest
from cortexgraph_vault.service import MemoryService
from tests.builders import service_for
from tests.conftest import NOW
from tests.index.vectors.test_meaning import TOPICS, notes_vault

MEMORY = "I cycle to the office every morning, rain or shine."
# How long the test waits for an answer it expects: a bound on a loaded machine, not a
# measurement (the read process's own wait for vectors is set far beyond it)
ANSWER_WAIT = 120.0


class Daemon:
    """The daemon's end of a read process's socket, the read process on a thread."""

    def __init__(self, maker: MemoryService) -> None:
        ours, theirs = socket.socketpair()
        self.sock, self.link = ours, FrameSocket(ours)
        self.thread = threading.Thread(
            target=read_worker.serve, args=(theirs, lambda: NOW), name="read-process", daemon=True
        )
        self.thread.start()
        self.send(maker.engine.config)
        ours.settimeout(ANSWER_WAIT)
        ready = self.link.recv()
        assert isinstance(ready, tuple) and ready[0] == "ready", ready

    def send(self, message: object) -> None:
        self.sock.sendall(pack(message))

    def answer(self) -> tuple[Any, ...]:
        try:
            message = self.link.recv()
        except TimeoutError:
            pytest.fail(f"no answer within {ANSWER_WAIT} s")
        assert isinstance(message, tuple), message
        return message


@pytest.fixture
def embedded_by(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(thread, text) of each text a sentence encoder of this process embeds."""
    query_vectors.QUERIES.clear()
    seen: list[tuple[str, str]] = []
    real = SentenceEncoder.embed

    def counted(self: SentenceEncoder, texts: list[str]):  # type: ignore[no-untyped-def]
        seen.extend((threading.current_thread().name, text) for text in texts)
        return real(self, texts)

    monkeypatch.setattr(SentenceEncoder, "embed", counted)
    monkeypatch.setattr(WorkerEncoder, "embed", lambda self, texts: self.local.embed(texts))
    return seen


@pytest.fixture
def maker(tmp_path: Path) -> Iterator[MemoryService]:
    # more notes than a search embeds on the spot: the daemon fills them and saves its file
    service = service_for(notes_vault(tmp_path / "vault"), meaning_search=True)
    assert service.engine.catalog.meaning.wait() is not None  # the file the reader takes
    yield service


def test_a_read_behind_a_search_waiting_for_the_daemons_vectors_is_answered_first(
    maker: MemoryService, embedded_by: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_worker, "MAKER_WAIT", 3600.0)  # the vectors come before
    waits = threading.Event()
    real = MeaningVectors._from_maker

    def flagged(self: MeaningVectors, index: Any, waiting: list[str]) -> list[str]:
        waits.set()  # the search has found a note whose vector the daemon sends
        return real(self, index, waiting)

    monkeypatch.setattr(MeaningVectors, "_from_maker", flagged)
    made: list[MadeVector] = []
    meaning = maker.engine.catalog.meaning
    daemon = Daemon(maker)
    meaning.on_made = made.extend  # what the daemon's read processes would be sent
    saved = maker.save(MEMORY).path
    assert meaning.wait() is not None and [m[0] for m in made] == [saved]
    daemon.send(("changed", [("note", saved, False)]))
    search = SearchUnifiedRequest(query="how do I get to work", limit=3)
    daemon.send(("read", 1, "search", {"request": search}))
    assert waits.wait(ANSWER_WAIT)
    daemon.send(("read", 2, "list_memories", {"request": ListMemoriesRequest()}))
    listed = daemon.answer()
    assert listed[:2] == ("ok", 2)  # while the search waits
    assert listed[5] is None  # no search: no ranking to tell
    assert saved in listed[3].decode()
    daemon.send(("vectors", made))
    found = daemon.answer()
    assert found[:2] == ("ok", 1)
    assert found[5] == BY_ENCODER  # what the daemon's metrics count it under
    hits = json.loads(found[3])["results"]
    assert hits[0]["path"] == saved  # by meaning: not one word in common
    # the read process embedded its queries, not one note: the daemon's file and vectors
    by_reader = [text for thread, text in embedded_by if thread == "read-process"]
    assert search.query in by_reader
    assert not [t for t in by_reader if "cycle" in t or any(n in t for n in TOPICS)]
    daemon.sock.close()
    daemon.thread.join(ANSWER_WAIT)
    assert not daemon.thread.is_alive()  # it ends at its socket's end


def test_a_search_whose_vectors_do_not_come_is_answered_once_its_wait_is_over(
    maker: MemoryService, embedded_by: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_worker, "MAKER_WAIT", 0.0)  # over at once: none will come
    daemon = Daemon(maker)
    saved = maker.save(MEMORY).path  # no read process is told its vector
    daemon.send(("changed", [("note", saved, False)]))
    daemon.send(
        ("read", 1, "search", {"request": SearchUnifiedRequest(query="how do I get to work")})
    )
    found = daemon.answer()
    assert found[:2] == ("ok", 1)
    assert json.loads(found[3])["results"][0]["path"] == saved
    by_reader = [text for thread, text in embedded_by if thread == "read-process"]
    assert [text for text in by_reader if MEMORY in text]  # by itself, at the wait's end
    daemon.sock.close()
    daemon.thread.join(ANSWER_WAIT)


def test_a_waiting_search_waits_for_the_changes_before_it_not_for_those_that_came_after(
    maker: MemoryService, embedded_by: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # under a stream of saves there is always a newer memory whose vector is on its way: a
    # search waiting for those too would be answered only when the saves pause
    monkeypatch.setattr(read_worker, "MAKER_WAIT", 3600.0)
    waits = threading.Event()
    real = MeaningVectors._from_maker

    def flagged(self: MeaningVectors, index: Any, waiting: list[str]) -> Any:
        waits.set()
        return real(self, index, waiting)

    monkeypatch.setattr(MeaningVectors, "_from_maker", flagged)
    made: list[MadeVector] = []
    meaning = maker.engine.catalog.meaning
    daemon = Daemon(maker)
    meaning.on_made = made.extend
    before = maker.save(MEMORY).path
    assert meaning.wait() is not None
    daemon.send(("changed", [("note", before, False)]))
    search = SearchUnifiedRequest(query="how do I get to work", limit=3)
    daemon.send(("read", 1, "search", {"request": search}))
    assert waits.wait(ANSWER_WAIT)
    knitting = "Maya's grandmother taught her to knit scarves when she was seven."
    after = maker.save(knitting).path  # saved while the search waits: its vector held back
    assert meaning.wait() is not None and [m[0] for m in made] == [before, after]
    daemon.send(("changed", [("note", after, False)]))
    daemon.send(("vectors", made[:1]))
    found = daemon.answer()
    assert found[:2] == ("ok", 1) and found[5] == BY_ENCODER
    assert json.loads(found[3])["results"][0]["path"] == before
    daemon.send(("vectors", made[1:]))
    daemon.send(
        ("read", 2, "search", {"request": SearchUnifiedRequest(query="woollen handicrafts")})
    )
    found = daemon.answer()
    assert found[:2] == ("ok", 2) and found[5] == BY_ENCODER
    assert json.loads(found[3])["results"][0]["path"] == after
    by_reader = [text for thread, text in embedded_by if thread == "read-process"]
    assert not [text for text in by_reader if "cycle" in text or "knit" in text]
    daemon.sock.close()
    daemon.thread.join(ANSWER_WAIT)
