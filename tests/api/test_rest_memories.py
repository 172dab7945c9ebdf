"""Every memory endpoint of the REST contract, once, with its effect checked on disk and in git.

One daemon serves the module; each test works on memories no other test here touches.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.api.daemon_process import Daemon
from tests.builders import frontmatter_of
from tests.conftest import git

TYPESCRIPT = "6f15a3b9-c680-44e7-8aad-75fedae31ef0"  # _stm/Prefers TypeScript.md
KESTREL = "6819a4b2-19b5-4061-9396-8a835b22a2c9"  # memories/Works at Kestrel Labs.md
RAMEN = "4804a028-38d8-4b0a-b4e9-fcff3d93a025"
NEOVIM = "15253715-83f6-4ba7-b082-486bc2576160"
PIXEL = "29235a3d-5264-410e-accc-4ca87409dcc5"
DENTIST = "c29f3f73-1641-4f40-92ea-f0fb02cf678d"
STANDUP = "a8d4de18-9e46-4cb1-acbe-a0ec63120114"
POSTGRES = "da141aee-6964-4a69-8030-001afe841cd3"
RUST = "c8756031-e8d2-4388-8537-2e2150efac13"
ONCALL = "454e7f8e-f4d6-4238-b465-b9c9f7eea624"


def last_commit(vault: Path) -> str:
    return git(vault, "log", "-1", "--format=%s")


def sha(vault: Path, rel: str) -> str:
    return hashlib.sha256((vault / rel).read_bytes()).hexdigest()


def test_list_is_active_memories_by_score_with_pagination(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    body = c.get("/api/v1/memories", params={"page_size": 200}).json()
    on_disk = {p.relative_to(vault).as_posix() for p in (vault / "_stm").glob("*.md")}
    assert {m["path"] for m in body["memories"]} == on_disk
    scores = [m["score"] for m in body["memories"]]
    assert scores == sorted(scores, reverse=True)
    assert body["pagination"]["total_count"] == len(on_disk)

    page2 = c.get("/api/v1/memories", params={"page": 2, "page_size": 5}).json()
    assert [m["path"] for m in page2["memories"]] == [m["path"] for m in body["memories"][5:10]]
    assert page2["pagination"] == {
        "page": 2, "page_size": 5, "total_count": len(on_disk), "total_pages": -(-len(on_disk) // 5),
        "has_more": True, "has_previous": True,
    }  # fmt: skip


def test_list_filters_by_status_and_tag_and_sorts_by_age(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    promoted = c.get("/api/v1/memories", params={"status": "promoted"}).json()["memories"]
    assert {m["path"] for m in promoted} == {
        p.relative_to(vault).as_posix() for p in (vault / "memories").glob("*.md")
    }
    tagged = c.get("/api/v1/memories", params={"tag": "#Preferences", "status": "all"}).json()
    assert tagged["memories"] and all("preferences" in m["tags"] for m in tagged["memories"])
    by_age = c.get("/api/v1/memories", params={"sort": "age", "page_size": 200}).json()["memories"]
    created = [m["created"] for m in by_age]
    assert created == sorted(created, reverse=True)


def test_list_rejects_bad_query_naming_the_parameter(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    for params, said in (({"status": "gone"}, "status: must be"), ({"page": 0}, "page: must be"),
                         ({"page_size": 1000}, "page_size: must be from 1 to"),
                         ({"colour": "red"}, "colour: unknown argument")):  # fmt: skip
        r = c.get("/api/v1/memories", params=params)
        assert r.status_code == 422
        assert r.json()["error"] == "invalid_argument"
        assert r.json()["detail"].startswith(said), r.json()


def test_lookup_by_vault_path(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    r = c.get("/api/v1/memories/lookup", params={"path": "_stm/Prefers TypeScript.md"})
    assert r.status_code == 200
    assert r.json()["id"] == TYPESCRIPT
    note = c.get("/api/v1/memories/lookup", params={"path": "Home.md"})
    assert note.status_code == 404
    assert note.json()["error"] == "not_found"
    assert "Home.md" in note.json()["detail"] and "not a memory" in note.json()["detail"]
    assert c.get("/api/v1/memories/lookup", params={"path": "_stm/Nope.md"}).status_code == 404


def test_get_one_in_detail_with_relations_backlinks_and_outlook(shared_daemon: Daemon) -> None:
    c = shared_daemon.client()
    kestrel = c.get("/api/v1/memories/Works at Kestrel Labs").json()
    assert kestrel["id"] == KESTREL and kestrel["status"] == "promoted"
    assert "Home.md" in [b["path"] for b in kestrel["backlinks"]]
    assert kestrel["uses_to_promote"] is None  # already promoted

    ts = c.get(f"/api/v1/memories/{TYPESCRIPT[:8]}").json()
    assert ts["path"] == "_stm/Prefers TypeScript.md"
    assert ts["relations"] == {
        "outgoing": ts["relations"]["outgoing"],
        "incoming": ts["relations"]["incoming"],
    }
    assert ts["days_until_forgotten"] > 0 and ts["score"] > 0
    assert ts["promotable"] is True and ts["uses_to_promote"] == 0

    r = c.get("/api/v1/memories/no-such-memory")
    assert r.status_code == 404 and r.json()["error"] == "not_found"

    # too short to be an id prefix: refused as the published contract says (found by schemathesis)
    r = c.get("/api/v1/memories/0")
    assert r.status_code == 422 and "prefix needs at least 4 characters" in r.json()["detail"]
    spec = c.get("/api/v1/openapi.json").json()
    assert "422" in spec["paths"]["/api/v1/memories/{ref}"]["get"]["responses"]


def test_create_writes_a_note_and_commits_it(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    r = shared_daemon.client().post(
        "/api/v1/memories",
        json={
            "content": "Likes green tea in the afternoon.",
            "title": "Green tea",
            "tags": ["Drinks"],
            "strength": 1.2,
        },
    )
    assert r.status_code == 201, r.text
    saved = r.json()
    assert saved["path"] == "_stm/Green tea.md"
    fm = frontmatter_of(vault / saved["path"])
    assert fm["id"] == saved["memory_id"] and fm["tags"] == ["drinks"] and fm["strength"] == 1.2
    assert "Likes green tea" in (vault / saved["path"]).read_text()
    assert last_commit(vault).startswith("save: Green tea")


def test_create_validates_and_refuses_secrets(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    before = sorted(p.name for p in (vault / "_stm").iterdir())
    c = shared_daemon.client()
    cases = [
        ({"title": "no content"}, "content: required"),
        ({"content": "ok", "colour": "red"}, "colour: unknown argument"),
        ({"content": "ok", "tagz": ["x"]}, "tagz: unknown argument (did you mean tags?)"),
        ({"content": "ok", "strength": 5}, "strength: must be from 0 to 2, got 5"),
        ({"content": "ok", "tags": "not-a-list"}, "tags: must be a list, got 'not-a-list'"),
    ]
    for body, said in cases:
        r = c.post("/api/v1/memories", json=body)
        assert r.status_code == 422 and r.json()["detail"].startswith(said), (body, r.text)
    r = c.post("/api/v1/memories", json={"content": "my key is AKIAIOSFODNN7EXAMPLE ok"})
    assert r.status_code == 422 and r.json()["error"] == "secret_refused"
    assert sorted(p.name for p in (vault / "_stm").iterdir()) == before


def test_update_with_expected_hash_and_conflict(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    rel = "_stm/Ramen place near the office.md"
    current = c.get(f"/api/v1/memories/{RAMEN}").json()["content_hash"]
    assert current == sha(vault, rel)
    r = c.patch(
        f"/api/v1/memories/{RAMEN}", json={"tags": ["food", "Lunch"], "expected_hash": current}
    )
    assert r.status_code == 200, r.text
    assert frontmatter_of(vault / rel)["tags"] == ["food", "lunch"]
    assert last_commit(vault).startswith("update: Ramen place near the office")

    text_now = (vault / rel).read_text()
    stale = c.patch(
        f"/api/v1/memories/{RAMEN}", json={"content": "changed", "expected_hash": current}
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["error"] == "conflict" and body["expected_hash"] == current
    assert body["actual_hash"] == sha(vault, rel) and body["current_text"] == text_now
    assert (vault / rel).read_text() == text_now


def test_delete_archives_or_removes(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    r = c.delete(f"/api/v1/memories/{PIXEL}")
    assert r.status_code == 200 and r.json()["archived_path"].startswith("_archive/")
    assert not (vault / "_stm/Cat named Pixel.md").exists()
    assert frontmatter_of(vault / r.json()["archived_path"])["status"] == "archived"
    assert last_commit(vault).startswith("archive: Cat named Pixel")

    r = c.delete(f"/api/v1/memories/{DENTIST}", params={"mode": "remove"})
    assert r.status_code == 200 and r.json()["mode"] == "remove"
    assert not (vault / "_stm/Dentist appointment moved.md").exists()
    assert "_stm/Dentist appointment moved.md" in git(vault, "show", "--stat", "--format=", "HEAD")
    assert c.delete(f"/api/v1/memories/{DENTIST}", params={"mode": "shred"}).status_code == 422


def test_touch_and_boost(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    rel = "_stm/Uses Neovim.md"
    before = frontmatter_of(vault / rel)
    r = shared_daemon.client().post(f"/api/v1/memories/{NEOVIM}/touch", json={"boost": True})
    assert r.status_code == 200, r.text
    after = frontmatter_of(vault / rel)
    assert after["use_count"] == before["use_count"] + 1 == r.json()["use_count"]
    assert after["strength"] == round(before["strength"] + 0.1, 4)
    r = shared_daemon.client().post(f"/api/v1/memories/{NEOVIM}/touch")  # no body at all
    assert (
        r.status_code == 200 and frontmatter_of(vault / rel)["use_count"] == before["use_count"] + 2
    )


def test_observe(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    rel = "_stm/Standup moved later.md"
    before = frontmatter_of(vault / rel)
    r = shared_daemon.client().post(
        "/api/v1/observe", json={"memory_ids": [STANDUP, "nope-nope"], "context_tags": ["cooking"]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["reinforced"] == 1 and r.json()["not_found"] == ["nope-nope"]
    after = frontmatter_of(vault / rel)
    assert after["use_count"] == before["use_count"] + 1
    assert after["review_count"] == before.get("review_count", 0) + 1
    assert (
        shared_daemon.client().post("/api/v1/observe", json={"memory_ids": []}).status_code == 422
    )


def test_promote_one_preview_then_do(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    preview = c.post(f"/api/v1/memories/{POSTGRES}/promote", json={"dry_run": True})
    assert preview.status_code == 200 and preview.json()["dry_run"] is True
    assert (vault / "_stm/Postgres over MySQL.md").exists()
    done = c.post(f"/api/v1/memories/{POSTGRES}/promote", json={})
    assert done.status_code == 200, done.text
    assert done.json()["promoted_ids"] == [POSTGRES]
    assert not (vault / "_stm/Postgres over MySQL.md").exists()
    moved_to = done.json()["moved"]["_stm/Postgres over MySQL.md"]
    assert frontmatter_of(vault / moved_to)["status"] == "promoted"
    assert "promote" in last_commit(vault)


def test_history_version_restore_and_forgotten(shared_daemon: Daemon) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    rel = "_stm/Curious about Rust.md"
    original = (vault / rel).read_text()
    assert c.patch(f"/api/v1/memories/{RUST}", json={"strength": 1.5}).status_code == 200

    history = c.get(f"/api/v1/memories/{RUST}/history", params={"limit": 10}).json()
    summaries = [commit["summary"] for commit in history["commits"]]
    assert summaries[0].startswith("update: Curious about Rust") and "sample vault" in summaries
    first = history["commits"][-1]["sha"]
    version = c.get(f"/api/v1/memories/{RUST}/versions/{first}").json()
    assert version["text"] == original

    assert c.delete(f"/api/v1/memories/{RUST}", params={"mode": "remove"}).status_code == 200
    forgotten = c.get("/api/v1/forgotten").json()["forgotten"]
    assert RUST in [f["id"] for f in forgotten]
    restored = c.post(f"/api/v1/memories/{RUST}/restore", json={})
    assert restored.status_code == 200, restored.text
    back = restored.json()["path"]
    assert (
        frontmatter_of(vault / back)["id"] == RUST
        and frontmatter_of(vault / back)["strength"] == 1.5
    )
    assert "restore" in last_commit(vault)

    missing = c.get(f"/api/v1/memories/{RUST}/versions/0000000000000000000000000000000000000000")
    assert missing.status_code in (404, 422) and set(missing.json()) >= {"error", "detail"}


def test_config_lists_every_setting_with_its_origin(shared_daemon: Daemon) -> None:
    rows = {r["name"]: r for r in shared_daemon.client().get("/api/v1/config").json()["settings"]}
    assert (
        rows["vault"]["value"] == str(shared_daemon.vault)
        and rows["vault"]["origin"] == "command line"
    )
    assert rows["port"]["env"] == "CORTEXGRAPH_PORT"
    assert (
        rows["decay_model"]["value"] == "power_law" and rows["decay_model"]["origin"] == "default"
    )


def test_a_memory_replacing_another_is_recorded_and_searched_as_current(
    shared_daemon: Daemon,
) -> None:
    vault = shared_daemon.vault
    assert vault is not None
    c = shared_daemon.client()
    old = c.post("/api/v1/memories", json={"content": "The team offsite is in Lisbon."}).json()
    new = c.post("/api/v1/memories", json={"content": "We moved the offsite to Porto."}).json()
    r = c.patch(f"/api/v1/memories/{new['memory_id']}", json={"supersedes": [old["memory_id"]]})
    assert r.status_code == 200, r.text
    assert r.json()["superseded"] == [old["memory_id"]]
    assert frontmatter_of(vault / old["path"])["superseded_by"] == [f"[[{new['title']}]]"]
    assert last_commit(vault).startswith("update: ")
    hits = c.get("/api/v1/search", params={"q": "team offsite Lisbon"}).json()["results"]
    ids = [h["id"] for h in hits]
    assert new["memory_id"] in ids and old["memory_id"] not in ids
    assert hits[ids.index(new["memory_id"])]["supersedes"] == [old["title"]]
    history = c.get("/api/v1/search", params={"q": "team offsite Lisbon", "status": "all"}).json()[
        "results"
    ]
    ids = [h["id"] for h in history]
    assert ids.index(new["memory_id"]) < ids.index(old["memory_id"])
    assert history[ids.index(old["memory_id"])]["superseded_by"] == [new["title"]]
