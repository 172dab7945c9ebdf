"""An editor that saves a note in place (opens it truncating, writes its buffer back) while the
backend uses the memory without pause: the note is never emptied, and ends with every line the
editor wrote and every use counted.

Between the editor's truncate and its write the note is empty (or, written in pieces, a part
of itself): a version read then is in the middle of someone else's write and must never be
written back, nor taken for the person's own version.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.vault.durability import DURABILITY
from tests.api.daemon_process import start_daemon
from tests.builders import service_for
from tests.conftest import scenario_size
from tests.reliability.vault_audit import memory_vault

# The editor's saves: 150 in CI, 50 in a person's run (tests/conftest.py `scenario_size`), 600
# with --soak.
ROUNDS, SOAK_ROUNDS = scenario_size(150, 50), 600
# A bound on the run, whatever the machine's load: the rounds stop there.
TIME_BOUND = 60.0
SETTLE_SECONDS = 30.0


def edit_in_place(path: Path, line: str, pause: float) -> str:
    """An editor's save: read the note, open it for writing with truncation, take `pause`,
    write the text read plus `line`. Returns the text it read."""
    with path.open("rb") as fh:
        text = fh.read().decode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        time.sleep(pause)
        data = (text + line).encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    return text


def run_editor_beside(
    path: Path,
    use: Callable[[], bool],
    rounds: int,
    seed: int,
    users: int = 1,
    gap: tuple[float, float] = (0.0, 0.02),
) -> dict[str, object]:
    """`rounds` in-place saves of `path` (each a pause of up to 50 ms between truncate and
    write) while another thread calls `use` without pause (True: the use was counted)."""
    rng = random.Random(seed)
    stop = threading.Event()
    counted = [0]
    lock = threading.Lock()
    refused: list[str] = []
    crashed: list[BaseException] = []

    def user() -> None:
        while not stop.is_set():
            try:
                if use():
                    with lock:
                        counted[0] += 1
            except VaultError as exc:
                refused.append(str(exc))
            except BaseException as exc:  # reported, not swallowed: the test fails on it
                crashed.append(exc)
                return

    threads = [threading.Thread(target=user, name=f"user-{n}") for n in range(users)]
    for thread in threads:
        thread.start()
    lines: list[str] = []
    emptied_at: list[int] = []
    started = time.monotonic()
    try:
        for n in range(rounds):
            if time.monotonic() - started > TIME_BOUND:
                break
            line = f"Line the editor typed in round {n}.\n"
            read = edit_in_place(path, line, rng.uniform(0.02, 0.05))
            if not read.strip():
                emptied_at.append(n)
            lines.append(line)
            time.sleep(rng.uniform(*gap))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert DURABILITY.settle(SETTLE_SECONDS)
    return {
        "rounds": len(lines),
        "lines": lines,
        "uses": counted[0],
        "refused": refused,
        "crashed": crashed,
        "emptied_at": emptied_at,
        "seconds": round(time.monotonic() - started, 1),
    }


def check_nothing_lost(path: Path, body: str, run: dict[str, object], start_uses: int) -> None:
    text = path.read_text(encoding="utf-8")
    assert run["crashed"] == [], run["crashed"]
    assert run["emptied_at"] == [], f"the editor found the note empty in rounds {run['emptied_at']}"
    assert body in text, f"the note lost its text:\n{text!r}"
    missing = [line for line in run["lines"] if line not in text]  # type: ignore[attr-defined]
    assert missing == [], f"{len(missing)} of {run['rounds']} editor lines lost:\n{text!r}"
    # An editor's save of a buffer it read before one of our writes takes our fields back:
    # the person's save wins over a use, never the other way round.
    assert start_uses <= parse_note(text).frontmatter["use_count"] <= start_uses + run["uses"]


def test_an_editor_saving_in_place_beside_touches_loses_nothing(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    vault = tmp_path / "vault"
    ids = memory_vault(vault, 1, with_git=False)
    memory_id, rel = next(iter(ids.items()))
    path = vault / rel
    body = "Reliability memory number 0 keeps its words.\n"
    service = service_for(vault)

    def touch() -> bool:
        service.touch(memory_id)
        return True

    run = run_editor_beside(path, touch, SOAK_ROUNDS if soak else ROUNDS, seed=33)
    figures.update({k: v for k, v in run.items() if k != "lines"} | {
        "refused": Counter(str(r)[:90] for r in run["refused"]),  # type: ignore[attr-defined]
    })  # fmt: skip
    check_nothing_lost(path, body, run, start_uses=1)


def test_an_editor_saving_in_place_beside_rest_touches_loses_nothing(
    tmp_path: Path, soak: bool, figures: dict[str, object]
) -> None:
    vault = tmp_path / "vault"
    ids = memory_vault(vault, 1)
    memory_id, rel = next(iter(ids.items()))
    path = vault / rel
    body = "Reliability memory number 0 keeps its words.\n"
    daemon = start_daemon(tmp_path / "home", vault)
    errors: list[str] = []
    answers: Counter[int] = Counter()
    try:
        clients = threading.local()

        def touch() -> bool:
            client = getattr(clients, "client", None) or daemon.client()
            clients.client = client
            answer = client.post(f"/api/v1/memories/{memory_id}/touch")
            answers[answer.status_code] += 1
            if answer.status_code >= 500:
                errors.append(f"{answer.status_code} {answer.text[:300]}")
            return answer.status_code == 200

        run = run_editor_beside(
            path, touch, SOAK_ROUNDS if soak else ROUNDS, seed=34, users=4, gap=(0.02, 0.1)
        )
        # The daemon's last looks at the notes it replaced run in its own process.
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            text = path.read_text(encoding="utf-8")
            if all(line in text for line in run["lines"]):  # type: ignore[attr-defined]
                break
            time.sleep(0.2)
    except httpx.TransportError as exc:
        raise AssertionError(f"the daemon dropped a connection: {exc}\n{daemon.err}") from exc
    finally:
        daemon.stop()
    figures.update({k: v for k, v in run.items() if k not in ("lines", "refused")} | {
        "server_errors": len(errors), "answers": dict(answers),
    })  # fmt: skip
    assert errors == []
    check_nothing_lost(path, body, run, start_uses=1)


@pytest.fixture(autouse=True)
def _no_late_looks_left() -> None:
    """Each run starts with no last look of an earlier test pending."""
    assert DURABILITY.settle(SETTLE_SECONDS)
