"""Issue 15 item 9 through the REST door: /api/v1/search keeps within the vault's character
budget (CORTEXGRAPH_RESULT_MAX_CHARS) and `cursor` gives the rest of the page."""

from __future__ import annotations

from pathlib import Path

from tests.api.daemon_process import isolated_env, launch, wait_ready
from tests.handlers.browse.test_result_budget import a_vault_of_long_memories


def test_rest_search_pages_by_cursor_within_the_budget(tmp_path: Path) -> None:
    vault = a_vault_of_long_memories(tmp_path / "vault", count=30, chars=3_000)
    home = tmp_path / "home"
    env = isolated_env(home, CORTEXGRAPH_RESULT_MAX_CHARS="12000")
    d = wait_ready(launch(home, "serve", "--port", "0", vault=vault, env=env))
    try:
        c = d.client()
        params: dict[str, object] = {"q": "harbour", "limit": 30, "preview_length": 0}
        paths: list[str] = []
        for _ in range(30):
            r = c.get("/api/v1/search", params=params)
            assert r.status_code == 200, r.text
            assert len(r.text) <= 12_000
            body = r.json()
            paths += [h["path"] for h in body["results"]]
            if body["next_cursor"] is None:
                break
            assert "cut to fit 12000 characters" in body["notice"]
            params["cursor"] = body["next_cursor"]
        assert sorted(paths) == sorted(f"_stm/harbour {i:03d}.md" for i in range(30))
        bad = c.get("/api/v1/search", params={"q": "ferry", "cursor": params["cursor"]})
        assert bad.status_code in (400, 422) and "cursor" in bad.text
    finally:
        d.stop()
