"""Vault-wide endpoints: gc, promote all (each on a daemon of its own), search, graph, analyze,
status, and the OpenAPI spec that must match the committed copy."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cortexgraph_vault.api.openapi import REGENERATE, openapi_spec
from cortexgraph_vault.models.limits import MAX_QUERY_CHARS
from tests.api.daemon_process import Daemon
from tests.conftest import git

REPO = Path(__file__).resolve().parents[2]


def commit_count(vault: Path) -> int:
    return int(git(vault, "rev-list", "--count", "HEAD"))


def snapshot(vault: Path) -> dict[str, bytes]:
    return {
        p.relative_to(vault).as_posix(): p.read_bytes()
        for p in vault.rglob("*.md")
        if ".git" not in p.parts
    }


def test_gc_previews_skips_open_files_and_runs_as_one_commit(daemon: Daemon) -> None:
    vault = daemon.vault
    assert vault is not None
    c = daemon.client()
    before, commits = snapshot(vault), commit_count(vault)

    preview = c.post("/api/v1/gc", json={}).json()  # dry run by default
    assert preview["dry_run"] is True and preview["candidates"], preview
    assert snapshot(vault) == before and commit_count(vault) == commits
    paths = [cand["path"] for cand in preview["candidates"]]
    assert all(cand["score"] < 0.05 for cand in preview["candidates"])

    kept = paths[0]
    run = c.post("/api/v1/gc", json={"dry_run": False, "skip_paths": [kept]}).json()
    assert run["dry_run"] is False
    assert [s["path"] for s in run["skipped"]] == [kept]
    assert (vault / kept).read_bytes() == before[kept]
    gone = [p for p in paths if p != kept]
    assert gone and not any((vault / p).exists() for p in gone)
    assert commit_count(vault) == commits + 1
    message = git(vault, "log", "-1", "--format=%B")
    assert all(Path(p).stem in message for p in gone)


def test_promote_all_preview_then_do(daemon: Daemon) -> None:
    vault = daemon.vault
    assert vault is not None
    c = daemon.client()
    before = snapshot(vault)
    preview = c.post("/api/v1/promote", json={"dry_run": True}).json()
    assert preview["candidates_found"] == len(preview["candidates"]) > 0
    assert snapshot(vault) == before
    done = c.post("/api/v1/promote", json={}).json()
    assert done["promoted_count"] == preview["candidates_found"]
    for old, new in done["moved"].items():
        assert not (vault / old).exists() and (vault / new).exists()
        assert new.startswith("memories/")


def test_search_finds_memories_and_notes(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.get("/api/v1/search", params={"q": "TypeScript", "limit": 5})
    assert r.status_code == 200, r.text
    paths = [hit["path"] for hit in r.json()["results"]]
    assert "_stm/Prefers TypeScript.md" in paths
    assert c.get("/api/v1/search", params={"q": "zzqxvwq"}).json()["results"] == []
    assert c.get("/api/v1/search").status_code == 422  # q is required


def test_search_takes_the_parameters_and_limits_of_search_unified(shared_daemon: Daemon) -> None:
    """One declaration (issue 17): a query up to MAX_QUERY_CHARS, as over MCP (REST allowed
    1000 before), a status given once or comma-separated, and MCP's filters."""
    c = shared_daemon.client()
    longest = ("TypeScript " * 200)[:MAX_QUERY_CHARS]
    r = c.get("/api/v1/search", params={"q": longest, "limit": 5})
    assert r.status_code == 200, r.text
    assert "_stm/Prefers TypeScript.md" in [hit["path"] for hit in r.json()["results"]]
    r = c.get("/api/v1/search", params={"q": longest + "x"})
    assert r.status_code == 422, r.text
    assert (
        r.json()["detail"] == f"q: at most {MAX_QUERY_CHARS} characters, got {MAX_QUERY_CHARS + 1}"
    )
    notes = c.get("/api/v1/search", params={"q": "Kestrel Labs", "status": "note"}).json()
    assert notes["results"] and {hit["source"] for hit in notes["results"]} == {"note"}
    both = c.get("/api/v1/search", params={"q": "Kestrel Labs", "status": "note,promoted"})
    assert {hit["source"] for hit in both.json()["results"]} == {"note", "ltm"}, both.text
    fresh = c.get("/api/v1/search", params={"q": "TypeScript", "min_score": 1.0}).json()
    assert all(hit["score"] >= 1.0 for hit in fresh["results"])


def test_graph_neighbourhood_of_a_note(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.get("/api/v1/graph/neighbourhood", params={"path": "Home.md", "hops": 1})
    assert r.status_code == 200, r.text
    assert "Works at Kestrel Labs" in json.dumps(r.json())
    bad = c.get("/api/v1/graph/neighbourhood", params={"path": "../x.md"})
    assert bad.status_code == 400


def test_read_note_a_page_at_a_time(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    vault = shared_daemon.vault
    assert vault is not None
    note = vault / "Reading" / "Paged for REST.md"
    note.write_text("---\ntags: [paged]\n---\n" + "A line about [[Home]].\n" * 100)
    # By its path at once (the file is the truth; the watcher may not have seen it yet).
    by_path = {"ref": "Reading/Paged for REST.md", "max_chars": 1000}
    first = c.get("/api/v1/notes/read", params=by_path)
    assert first.status_code == 200, first.text
    page = first.json()
    assert page["path"] == "Reading/Paged for REST.md" and page["frontmatter"] == {
        "tags": ["paged"]
    }
    assert len(first.text) <= 1000 and page["body"] and page["link_count"] == 100
    links = c.get(
        "/api/v1/notes/read", params={"ref": "Paged for REST", "cursor": page["links_cursor"]}
    )
    assert links.json()["links"][0]["path"] == "Home.md" and links.json()["body"] is None
    cursor = page["next_cursor"]
    nxt = c.get("/api/v1/notes/read", params={"ref": "Paged for REST", "cursor": cursor})
    assert nxt.status_code == 200 and nxt.json()["offset"] == len(page["body"])
    home = c.get("/api/v1/notes/read", params={"ref": "Start here"}).json()
    assert home["path"] == "Home.md" and "Reading/Paged for REST.md" in {
        b["path"] for b in home["backlinks"]
    }
    note.write_text("Changed.\n" + note.read_text())
    stale = c.get("/api/v1/notes/read", params={"ref": "Paged for REST", "cursor": cursor})
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    for ref, status in [("../x.md", 400), ("Nowhere at all", 404), ("atlas-architecture.png", 422)]:
        r = c.get("/api/v1/notes/read", params={"ref": ref})
        assert r.status_code == status, (ref, r.text)
        assert "ref" in r.json()["detail"] or ".." in r.json()["detail"]
    note.unlink()


def test_search_refuses_a_folder_outside_the_vault(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.get("/api/v1/search", params={"q": "x", "folder": "../../etc"})
    assert r.status_code == 400 and r.json()["error"] == "unsafe_path"
    assert r.json()["detail"].startswith("folder: ../../etc")


def test_analyze_message(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.post("/api/v1/analyze", json={"message": "Remember that I prefer tea over coffee."})
    assert r.status_code == 200, r.text
    assert r.json()["should_save"] is True
    assert c.post("/api/v1/analyze", json={}).status_code == 422


def test_recall_analysis_auto_recall_advice(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.post("/api/v1/analyze/recall", json={"message": "What did I say about databases?"})
    assert r.status_code == 200, r.text
    assert r.json()["should_search"] is True and r.json()["suggested_query"] == "databases"
    recalled = c.post(
        "/api/v1/recall",
        json={"message": "Should we use Postgres for the ledger?", "mode": "subtle"},
    )
    assert recalled.status_code == 200, recalled.text
    assert c.post("/api/v1/recall", json={"message": "x", "mode": "loud"}).status_code == 422
    due = c.get("/api/v1/review", params={"limit": 5})
    assert due.status_code == 200, due.text
    assert c.get("/api/v1/review", params={"limit": 0}).status_code == 422


def test_status_reports_the_watcher_and_counts(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    r = shared_daemon.client().get("/api/v1/status")
    assert r.status_code == 200, r.text
    status = r.json()
    assert status["vault"] == str(vault)
    assert status["watcher"]["running"] is True  # the daemon started it
    assert status["watcher"]["heartbeat_age_seconds"] < 60
    notes = [p for p in vault.rglob("*.md") if not {".git", ".obsidian"} & set(p.parts)]
    assert status["notes"] == len(notes)


def test_served_spec_is_the_committed_one(shared_daemon: Daemon) -> None:
    served = shared_daemon.client().get("/api/v1/openapi.json")
    assert served.status_code == 200
    committed = json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))
    assert served.json() == openapi_spec()
    assert committed == openapi_spec(), (
        f"docs/openapi.json is out of date with the API; regenerate it with: {REGENERATE}"
    )


def test_an_edit_made_outside_is_served_without_a_restart(shared_daemon: Daemon) -> None:
    """A person's edit in Obsidian shows up in the API at once, without a restart."""
    vault = shared_daemon.vault
    assert vault is not None
    note = vault / "_stm" / "On-call swap with Priya.md"
    note.write_text(
        note.read_text().replace("tags: [work, schedule]", "tags: [work, schedule, edited]")
    )
    c = shared_daemon.client()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if "edited" in c.get("/api/v1/memories/On-call swap with Priya").json()["tags"]:
            return
        time.sleep(0.05)
    raise AssertionError("the daemon never saw the edit")


def test_health_answers_while_the_index_and_the_change_lock_are_held(git_vault: Path) -> None:
    """/health is answered before and apart from indexing and changes: with the catalogue's
    lock (the watcher taking in a batch) and the change lock (a gc) held by other threads."""
    import threading

    import anyio

    from tests.api.asgi_client import asgi_client
    from tests.mcp.mcp_session import service_for

    service = service_for(git_vault)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with service.engine.catalog.lock, service.change_lock:
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(30)

        async def ask() -> int:
            async with asgi_client(service, 8765) as client:
                with anyio.fail_after(30):
                    return (await client.get("/health")).status_code

        assert anyio.run(ask) == 200
    finally:
        release.set()
        holder.join()
