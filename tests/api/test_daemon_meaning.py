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
    finally:
        assert daemon.stop() == 0, daemon.err
    # the same question by words and word vectors (this process: the encoder off)
    by_words = service_for(vault).search_unified("woollen handicrafts", limit=10).results
    assert saved not in [h.path for h in by_words]
