"""Recall as a user sees it: cue-first ranking, paraphrases, vectors kept current by every
way a note changes, no network, bad input."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.index.vectors import embedder as embedder_module
from cortexgraph_vault.index.vectors.embedder import (
    ModelUnavailable,
    load_embedder,
    shared_embedder,
)
from cortexgraph_vault.index.vectors.semantic import note_text
from tests.conftest import git
from tests.handlers.search.test_search import memory_note, service_for
from tests.mcp.mcp_session import connected

PARAPHRASES = [  # (memory, a question in other words)
    ("My manager at Kestrel is Dana Whitfield.", "who is my boss"),
    ("Maya is allergic to peanuts and shellfish.", "food allergies"),
    ("We went hiking in the Dolomites in June.", "when did we hike"),
    ("The children start school on September 3rd.", "kids school start"),
    ("Our dog Biscuit needs his vaccine in March.", "pets vet appointment"),
]


def test_an_exact_old_match_beats_a_one_word_fresh_match(tmp_path: Path) -> None:
    stm = tmp_path / "vault" / "_stm"
    memory_note(stm, "Lena", "Maya's sister Lena lives in Porto and teaches marine biology.",
                days_ago=120)  # fmt: skip
    for i in range(8):
        memory_note(stm, f"Fresh {i}", f"Lena said hello at breakfast {i}.", days_ago=0.01 * i)
    service = service_for(tmp_path / "vault")
    first = service.search("where does Maya's sister Lena live and teach").results[0]
    assert first.path == "_stm/Lena.md"
    assert first.memory_score is not None and first.memory_score < 0.05  # faded, still found


def test_equal_matches_are_ordered_by_use_and_recency(tmp_path: Path) -> None:
    stm = tmp_path / "vault" / "_stm"
    memory_note(stm, "Old", "Standup moved to 9:30 on Tuesdays.", days_ago=40)
    memory_note(stm, "Used", "Standup moved to 9:30 on Tuesdays.", days_ago=2, uses=6)
    memory_note(stm, "New", "Standup moved to 9:30 on Tuesdays.", days_ago=1)
    hits = service_for(tmp_path / "vault").search("standup tuesdays").results
    assert [h.path for h in hits] == ["_stm/Used.md", "_stm/New.md", "_stm/Old.md"]


def test_absent_topics_return_nothing(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    for query in ("saxophone lessons", "quantum chromodynamics lecture"):
        assert service.search(query).results == []
        assert service.search_unified(query).results == []


@pytest.mark.anyio
async def test_paraphrases_find_their_memory_through_mcp(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    service = service_for(vault)
    for i in range(20):  # other memories to miss
        service.save(f"Filler note {i} about groceries, rent and the weather in Oslo.")
    saved = {service.save(text).path: question for text, question in PARAPHRASES}
    async with connected(service) as client:
        for path, question in saved.items():
            result = await client.call_tool("search_memory", {"query": question, "top_k": 3})
            assert not result.is_error
            top = [h["path"] for h in result.structured_content["results"]]
            assert top and top[0] == path, (question, top)


def _vector_of(service, path: str, query: str) -> float:  # type: ignore[no-untyped-def]
    hits = service.search_unified(query, explain=True, limit=50).results
    found = [h for h in hits if h.path == path]
    assert found, f"{path} not found for {query!r}"
    assert found[0].explain is not None and found[0].explain.vector is not None
    return found[0].explain.vector


def _expected(service, path: str, query: str) -> float:  # type: ignore[no-untyped-def]
    note = service.engine.catalog.note(path)
    model = shared_embedder()
    a = model.embed_one(query)
    b = model.embed_one(note_text(note.title, note.aliases, note.body))
    return float(a @ b)


def _wait_for(check, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_hand_edit_seen_by_the_watcher_refreshes_the_vector(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    path = service.save("Grandma's plum cake recipe uses cardamom.").path
    before = _vector_of(service, path, "cardamom baking")
    service.engine.start_watcher(debounce=0.02)
    try:
        file = sample_vault / path
        text = file.read_text(encoding="utf-8")
        file.write_text(text.replace("plum cake recipe", "cardamom bread baking notes"), "utf-8")
        _wait_for(lambda: "bread" in service.engine.catalog.note(path).body)
        assert service.engine.catalog.semantic.pending == 0  # embedded by the watcher
        after = _vector_of(service, path, "cardamom baking")
    finally:
        service.engine.stop_watcher()
    assert after != before
    assert after == pytest.approx(_expected(service, path, "cardamom baking"), abs=1e-4)


def test_a_git_checkout_of_an_older_version_refreshes_the_vector(sample_vault: Path) -> None:
    git(sample_vault, "init", "-q", "-b", "main")
    git(sample_vault, "add", "-A")
    git(sample_vault, "commit", "-qm", "start")
    service = service_for(sample_vault)
    path = service.save("The sailing club meets at the harbour on Saturdays.").path
    old = _vector_of(service, path, "sailing harbour")
    file = sample_vault / path
    file.write_text(file.read_text("utf-8").replace("harbour", "harbour cafe by the lighthouse"),
                    "utf-8")  # fmt: skip
    git(sample_vault, "commit", "-qam", "edit")
    edited = _vector_of(service, path, "sailing harbour")
    git(sample_vault, "checkout", "-q", "HEAD~1", "--", path)
    restored = _vector_of(service, path, "sailing harbour")
    assert edited != old
    assert restored == pytest.approx(old, abs=1e-5)


def test_imported_memories_are_searchable_by_meaning(tmp_path: Path) -> None:
    from tests.importers.helpers import MEMORY_JSON, empty_git_vault

    vault = empty_git_vault(tmp_path / "vault")
    service = service_for(vault)
    result = service.import_memory_json(str(MEMORY_JSON))
    assert result.created
    catalog = service.engine.catalog
    catalog.sync_vectors()
    memories = [n for n in catalog.notes() if n.memory is not None]
    assert memories
    some = memories[0]
    query = some.body.split(".")[0][:80]
    assert _vector_of(service, some.path, query) == pytest.approx(
        _expected(service, some.path, query), abs=1e-4
    )


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    attempts: list[object] = []
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            attempts.append(address)
            raise OSError("network access attempted in a test that must stay offline")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    yield attempts


def test_the_model_loads_and_searches_with_no_network(sample_vault: Path, no_network: list) -> None:
    model = load_embedder()  # a fresh load, not the process's shared one
    assert model.embed(["food allergies"]).shape == (1, model.dim)
    service = service_for(sample_vault)
    result = service.search("food allergies")
    assert result.semantic is True and result.results
    assert no_network == []
    status = service.vault_status().semantic
    assert status is not None and status.available and status.pending == 0
    assert status.vectors == len(service.engine.catalog)


def test_a_query_vector_is_the_same_before_and_after_the_table_is_converted() -> None:
    """A process that embeds only its query converts only the query's rows of the shipped
    table; the vector is the one the whole converted table gives, bit for bit."""
    queries = ["food allergies", "who is my manager", "TypeScript over JavaScript", "x", ""]
    model = load_embedder()
    before = [model.embed_one(q) for q in queries]
    assert "table" not in model.__dict__  # nothing converted the whole table
    # many notes (past TABLE_MIN): the whole table, converted once
    model.embed(queries * (embedder_module.TABLE_MIN // len(queries) + 1))
    assert "table" in model.__dict__
    after = [model.embed_one(q) for q in queries]
    for b, a in zip(before, after, strict=True):
        assert b.dtype == a.dtype and (b == a).all()
    assert before[0].any() and not before[-1].any()  # a vector, and the empty text's zero


def test_a_missing_or_corrupt_model_is_named_and_words_still_search(
    sample_vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "model"
    (broken / "weights").mkdir(parents=True)
    (broken / "weights" / "l2_supercat_256.safetensors").write_bytes(b"not a tensor file")
    with pytest.raises(ModelUnavailable, match=r"l2_supercat_256\.safetensors.*reinstall"):
        load_embedder(broken)
    with pytest.raises(ModelUnavailable, match=r"weights missing"):
        load_embedder(tmp_path / "nowhere")
    monkeypatch.setattr(embedder_module, "model_folder", lambda: broken)
    monkeypatch.setattr(embedder_module, "_loaded", {})
    result = service_for(sample_vault).search("peanuts")
    assert result.results and result.results[0].path == "memories/Allergic to peanuts.md"
    assert result.semantic is False
    assert result.notice and "l2_supercat_256.safetensors" in result.notice
    status = service_for(sample_vault).vault_status().semantic
    assert status is not None and status.enabled and not status.available
    assert status.problem and "reinstall" in status.problem


def test_bad_queries_get_clear_answers(sample_vault: Path) -> None:
    service = service_for(sample_vault)
    with pytest.raises(InvalidArgument, match="query: give some words"):
        service.search_unified("   ")
    with pytest.raises(InvalidArgument, match="at most 2000 characters"):
        service.search("peanuts " * 250_000)
    with pytest.raises(InvalidArgument, match="at most 2000 characters"):
        service.search_unified("x" * 2_000_001)
    only_common = service.search_unified("the and of it")
    assert only_common.results == [] and "only common words" in (only_common.notice or "")
    assert service.search("is it the").results == []


def test_with_semantic_search_off_words_alone_rank(sample_vault: Path) -> None:
    service = service_for(sample_vault, semantic_search=False)
    result = service.search("peanuts allergy", explain=True)
    assert result.semantic is False and result.notice is None
    first = result.results[0]
    assert first.path == "memories/Allergic to peanuts.md"
    assert first.explain is not None and first.explain.vector is None
    assert service.engine.catalog.semantic.count == 0  # nothing embedded


def test_a_hit_in_a_huge_note_names_its_fields_without_reading_it_all(sample_vault: Path) -> None:
    (sample_vault / "Big.md").write_text("filler words " * 200_000 + "\nzebrafish\n", "utf-8")
    hits = service_for(sample_vault).search_unified("zebrafish").results
    assert [h.path for h in hits] == ["Big.md"] and hits[0].matched == ["content"]
