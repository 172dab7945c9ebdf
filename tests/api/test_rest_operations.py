"""POST /api/v1/operations/{name}: any operation of the catalogue, its request as the body and
its result as the answer (what the CLI sends to the daemon serving its vault)."""

from __future__ import annotations

from tests.api.daemon_process import Daemon


def test_an_operation_answers_its_result_model_named_in_a_header(shared_daemon: Daemon) -> None:
    client = shared_daemon.client()
    answer = client.post("/api/v1/operations/search_memory", json={"query": "rust", "top_k": 3})
    assert answer.status_code == 200, answer.text
    assert answer.headers["X-Result-Model"] == "SearchResult"
    results = answer.json()["results"]
    assert 0 < len(results) <= 3 and any("Rust" in r["title"] for r in results)
    # the same as its dedicated route gives (search_unified is /api/v1/search)
    unified = client.post("/api/v1/operations/search_unified", json={"query": "rust"}).json()
    assert unified == client.get("/api/v1/search", params={"q": "rust"}).json()


def test_a_refused_argument_is_named_with_the_words_of_every_door(shared_daemon: Daemon) -> None:
    client = shared_daemon.client()
    refused = client.post("/api/v1/operations/search_memory", json={"top_k": 500})
    assert refused.status_code == 422
    assert refused.json() == {
        "error": "invalid_argument",
        "detail": "top_k: must be from 1 to 100, got 500",
        "params": ["top_k"],
    }
    unknown = client.post("/api/v1/operations/search_memory", json={"top": 5})
    assert unknown.status_code == 422
    assert unknown.json()["detail"].startswith(
        "top: unknown argument (did you mean top_k?). The arguments are: query, tags, status, top_k,"
    )
    not_object = client.post("/api/v1/operations/search_memory", json=[1, 2])
    assert not_object.status_code == 422


def test_an_unknown_operation_is_404_and_the_token_is_needed(shared_daemon: Daemon) -> None:
    missing = shared_daemon.client().post("/api/v1/operations/drop_everything", json={})
    assert missing.status_code == 404 and "no such operation" in missing.json()["detail"]
    anonymous = shared_daemon.client(token="x" * 43)
    assert anonymous.post("/api/v1/operations/vault_status", json={}).status_code == 401


def test_an_error_names_the_operations_its_words_refer_to(shared_daemon: Daemon) -> None:
    missing = shared_daemon.client().post(
        "/api/v1/operations/touch_memory", json={"memory_id": "no such memory at all"}
    )
    assert missing.status_code == 404
    body = missing.json()
    assert body["error"] == "not_found" and "no such memory at all" in body["detail"]
    # "search with search_memory": the CLI says `cortexgraph-vault search` instead
    assert body["operations"] == ["search_memory"] and "search_memory" in body["detail"]
