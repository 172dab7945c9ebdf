"""GET /api/v1/related over real HTTP: what the plugin's "Related to this note" asks."""

from __future__ import annotations

import time

from tests.api.daemon_process import Daemon


def test_related_answers_in_the_search_shape_without_the_note(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.get("/api/v1/related", params={"path": "_stm/Half marathon goal.md", "limit": 4})
    assert r.status_code == 200, r.text
    body = r.json()
    paths = [hit["path"] for hit in body["results"]]
    assert paths[0] == "Areas/Running.md"
    assert "_stm/Half marathon goal.md" not in paths
    assert body["success"] is True and body["count"] == len(paths) == 4
    searched = c.get("/api/v1/search", params={"q": "running"}).json()["results"][0]
    assert set(body["results"][0]) == set(searched)


def test_related_follows_an_edit_made_outside(shared_daemon: Daemon) -> None:
    """A note a person writes in Obsidian is related at once, through the watcher."""
    vault = shared_daemon.vault
    assert vault is not None
    (vault / "Areas" / "Sourdough.md").write_text(
        "# Sourdough\n\nFeed the levain before the autolyse.\n", encoding="utf-8"
    )
    (vault / "Areas" / "Levain.md").write_text("Levain ratios for sourdough.\n", encoding="utf-8")
    c = shared_daemon.client()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r = c.get("/api/v1/related", params={"path": "Areas/Sourdough.md"})
        if r.status_code == 200 and [h["path"] for h in r.json()["results"]][:1] == [
            "Areas/Levain.md"
        ]:
            return
        time.sleep(0.05)
    raise AssertionError(f"the new notes never found each other: {r.status_code} {r.text}")


def test_related_refuses_unknown_outside_and_bad_input_with_json_errors(
    shared_daemon: Daemon,
) -> None:
    c = shared_daemon.client()
    missing = c.get("/api/v1/related", params={"path": "Projects/Nothing here.md"})
    assert missing.status_code == 404
    assert missing.json()["error"] == "not_found"
    assert "Projects/Nothing here.md" in missing.json()["detail"]
    picture = c.get("/api/v1/related", params={"path": "Projects/assets/atlas-architecture.png"})
    assert picture.status_code == 404
    outside = c.get("/api/v1/related", params={"path": "../../etc/passwd"})
    assert outside.status_code == 400 and "leave the vault" in outside.json()["detail"]
    for params in ({}, {"path": "Home.md", "limit": 0}, {"path": "Home.md", "limit": 51}):
        bad = c.get("/api/v1/related", params=params)
        assert bad.status_code == 422, (params, bad.text)
        assert set(bad.json()) >= {"error", "detail"}
    no_token = shared_daemon.client(token="wrong").get(
        "/api/v1/related", params={"path": "Home.md"}
    )
    assert no_token.status_code == 401
