"""The daemon load bench's clients (bench/load_clients.py): answers read whole, statuses kept."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.load_clients import Connection, worker
from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import Daemon, start_daemon

Seen = list[tuple[int, float] | BaseException]


def _answered(pieces: list[bytes]) -> tuple[Seen, bytes]:
    """What a connection made of `pieces` arriving one after another, a request waiting:
    each answer's (status, when) or error, and the bytes left over."""

    async def run() -> tuple[Seen, bytes]:
        conn = Connection()
        waiter = conn.waiter = asyncio.get_running_loop().create_future()
        seen: Seen = []
        for piece in pieces:
            conn.data_received(piece)
            if waiter.done():
                failed = waiter.exception()
                seen.append(failed if failed is not None else waiter.result())
                waiter = conn.waiter = asyncio.get_running_loop().create_future()
        return seen, bytes(conn.buffer)

    return asyncio.run(run())


KINDS = {"search", "list", "open", "touch", "save"}
WORDS = ["coffee", "python", "meeting", "project", "music", "travel"]  # a save takes 5
ANSWER = b'HTTP/1.1 201 Created\r\ncontent-length: 11\r\ncontent-type: application/json\r\n\r\n{"id":"ab"}'


def test_an_answer_arriving_in_pieces_is_complete_only_at_its_last_byte() -> None:
    seen, left = _answered([ANSWER[:10], ANSWER[10:60], ANSWER[60:-3], ANSWER[-3:]])
    assert [s[0] for s in seen if isinstance(s, tuple)] == [201]
    assert left == b""


def test_an_error_status_is_kept_for_the_bench_to_count() -> None:
    refused = b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n\r\n{}"
    seen, _ = _answered([refused])
    assert seen and isinstance(seen[0], tuple) and seen[0][0] == 401


def test_an_answer_without_a_length_is_an_error_not_a_hang() -> None:
    chunked = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
    seen, _ = _answered([chunked])
    assert seen and isinstance(seen[0], ValueError) and "chunked" in str(seen[0])
    bare = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n"
    seen, _ = _answered([bare])
    assert seen and isinstance(seen[0], ValueError) and "Content-Length" in str(seen[0])


@pytest.fixture(scope="module")
def daemon_at(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Daemon, Path]]:
    base = tmp_path_factory.mktemp("load-clients")
    vault = git_sample_vault(base / "vault")
    d = start_daemon(base / "home", vault)
    yield d, vault
    d.stop()


def _ids(vault: Path) -> list[str]:
    found = (
        re.search(r"^id: *(\S+)", p.read_text(encoding="utf-8"), re.M)
        for p in (vault / "_stm").glob("*.md")
    )
    return [m.group(1).strip("'\"") for m in found if m]


def test_clients_against_a_real_daemon_get_every_kind_answered(
    daemon_at: tuple[Daemon, Path],
) -> None:
    d, vault = daemon_at
    answers: list[tuple[str, float, int]] = []
    # Rounds of two seconds until every kind has come up: on a busy machine one round gets
    # through only a few requests, and how many is no part of what this checks.
    for seeds in ([1, 2, 3], *([n, n + 1, n + 2] for n in range(4, 60, 3))):
        answers += worker((d.port, d.token, _ids(vault), WORDS, seeds, time.monotonic() + 2.0))
        if {kind for kind, _, _ in answers} >= KINDS:
            break
    kinds = Counter(kind for kind, _, _ in answers)
    assert set(kinds) == KINDS, kinds
    assert all(200 <= status < 300 for _, _, status in answers), Counter(s for *_, s in answers)
    assert all(0 < seconds < 30 for _, seconds, _ in answers)


def test_a_wrong_token_shows_as_refused_answers(daemon_at: tuple[Daemon, Path]) -> None:
    d, vault = daemon_at
    answers = worker((d.port, "not-the-token", _ids(vault), WORDS, [7], time.monotonic() + 0.3))
    assert answers and {status for _, _, status in answers} == {401}
