"""The daemon with the sentence encoder on, as a user runs it: it makes the vault's vectors
once, says how far it is in its status, and its searches, answered by its read process from
the vectors the daemon made, rank by meaning once they are all made."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cortexgraph_vault.api.endpoints import ANSWERED_BY
from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import isolated_env, start_daemon
from tests.builders import service_for

# How long a loaded machine may take to embed the sample vault (~50 notes): a bound on the
# wait, not what is measured; the test goes on as soon as the status says they are made.
VECTORS_WAIT = 600.0

# Imported first by every Python process of the daemon (PYTHONPATH): the daemon, its read
# processes, the encoder's worker. Each text the sentence encoder embeds, wherever it is
# embedded, is appended to a file as one line, with the process that embedded it.
COUNT_ENCODINGS = r"""
import os

from cortexgraph_vault.index.vectors import minilm

_real = minilm.SentenceEncoder.embed


def _counted(self, texts):
    with open(os.environ["CGV_TEST_EMBEDDED"], "a", encoding="utf-8") as f:
        for text in texts:
            f.write(f"{os.getpid()}\t{' '.join(text.split())}\n")
    return _real(self, texts)


minilm.SentenceEncoder.embed = _counted
"""

BURST = [
    "Maya's grandmother taught her to knit scarves when she was seven.",
    *(f"Errand {i}: pick up the {thing} from the shop on the corner." for i, thing in enumerate(
        ["parcel", "dry cleaning", "prescription", "bread", "keys", "glasses", "printer ink",
         "batteries", "stamps", "flowers", "tickets", "watch", "phone case", "light bulbs",
         "coffee beans", "rice", "newspaper", "paint", "umbrella"]
    )),
]  # fmt: skip


def test_a_paraphrase_is_found_by_meaning_once_the_daemon_says_its_vectors_are_made(
    tmp_path: Path,
) -> None:
    vault = git_sample_vault(tmp_path / "vault")
    home = tmp_path / "home"
    daemon = start_daemon(home, vault, env=isolated_env(home, CORTEXGRAPH_MEANING_SEARCH="true"))
    try:
        client = daemon.client()
        saved = client.post(
            "/api/v1/memories",
            json={"content": "Maya's grandmother taught her to knit scarves when she was seven."},
        ).json()["path"]
        deadline = time.monotonic() + VECTORS_WAIT
        while ANSWERED_BY not in client.get("/api/v1/search", params={"q": "scarves"}).headers:
            assert time.monotonic() < deadline, "no read process answered"
            time.sleep(0.2)
        while not (meaning := client.get("/api/v1/status").json()["meaning"])["ready"]:
            assert meaning["enabled"] and meaning["problem"] is None, meaning
            assert meaning["vectors"] <= meaning["notes"]
            assert time.monotonic() < deadline, f"vectors not made in time: {meaning}"
            time.sleep(0.2)
        notes = client.get("/api/v1/status").json()["notes"]
        # the memory saved may come after the vectors: a search makes so few on the spot
        assert meaning["notes"] == notes and notes - 1 <= meaning["vectors"] <= notes
        answer = client.get(
            "/api/v1/search", params={"q": "woollen handicrafts", "explain": "true"}
        )
        assert ANSWERED_BY in answer.headers  # by the read process, which made no vectors
        found: list[dict[str, Any]] = answer.json()["results"]
        assert found[0]["path"] == saved
        assert found[0]["explain"]["lexical"] == 0.0  # not one word in common: its meaning
        # the daemon's metrics count the read process's searches by what ranked them
        metrics = client.post("/api/v1/operations/get_performance_metrics", json={}).json()
        counts = {o["operation"]: o["count"] for o in metrics["operations"]}
        assert counts.get("rest.search.by_encoder", 0) >= 1, counts
    finally:
        assert daemon.stop() == 0, daemon.err
    # the same question by words and word vectors (this process: the encoder off)
    by_words = service_for(vault).search_unified("woollen handicrafts", limit=10).results
    assert saved not in [h.path for h in by_words]


def vectors_made(client: Any, deadline: float) -> dict[str, Any]:
    """The status's `meaning` once every note has its vector in the daemon."""
    while True:
        status = client.get("/api/v1/status").json()
        meaning: dict[str, Any] = status["meaning"]
        assert meaning["enabled"] and meaning["problem"] is None, meaning
        if meaning["ready"] and meaning["vectors"] == meaning["notes"] == status["notes"]:
            return meaning
        assert time.monotonic() < deadline, f"vectors not made in time: {meaning}"
        time.sleep(0.2)


def test_a_burst_of_saves_is_embedded_once_in_the_daemon_and_then_searched_by_meaning(
    tmp_path: Path,
) -> None:
    vault = git_sample_vault(tmp_path / "vault")
    home = tmp_path / "home"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(COUNT_ENCODINGS, encoding="utf-8")
    log = tmp_path / "embedded.tsv"
    env = isolated_env(
        home,
        CORTEXGRAPH_MEANING_SEARCH="true",
        PYTHONPATH=str(hooks),
        CGV_TEST_EMBEDDED=str(log),
    )
    daemon = start_daemon(home, vault, env=env)
    try:
        client = daemon.client()
        deadline = time.monotonic() + VECTORS_WAIT
        while ANSWERED_BY not in client.get("/api/v1/search", params={"q": "scarves"}).headers:
            assert time.monotonic() < deadline, "no read process answered"
            time.sleep(0.2)
        vectors_made(client, deadline)
        assert len(BURST) > 16  # more than a search embeds on the spot
        saved = []
        for content in BURST:  # a search by meaning in a read process after each save
            saved.append(client.post("/api/v1/memories", json={"content": content}).json()["path"])
            client.get("/api/v1/search", params={"q": "what errands are left this week"})
        vectors_made(client, deadline)
        answer = client.get(
            "/api/v1/search", params={"q": "woollen handicrafts", "explain": "true"}
        )
        assert ANSWERED_BY in answer.headers
        found: list[dict[str, Any]] = answer.json()["results"]
        assert found[0]["path"] == saved[0]
        assert found[0]["explain"]["lexical"] == 0.0  # not one word in common: its meaning
    finally:
        assert daemon.stop() == 0, daemon.err
    lines = log.read_text(encoding="utf-8").splitlines()
    for content in BURST:  # by the daemon, its read processes and its worker: once each
        by = [line.split("\t", 1)[0] for line in lines if content in line]
        assert len(by) == 1, f"{content!r} embedded by processes {by}"
