"""Issue 15 item 9: a search or open answer stays within its character budget, and its cursor
gives the rest of the page, each hit exactly once."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.models import OpenResult, SearchResult
from cortexgraph_vault.service import MemoryService
from tests.builders import service_for
from tests.conftest import NOW

LONG_MEMORIES = 60
WORDS = [
    "the",
    "harbour",
    "ferry",
    "leaves",
    "at",
    "dawn",
    "and",
    "the",
    "lighthouse",
    "keeper",
    "waves",
    "from",
    "the",
    "pier",
]


def long_text(i: int, chars: int) -> str:
    words: list[str] = []
    length = 0  # the words and a space after each, kept as they grow (summing is quadratic)
    while length < chars:
        words.append(WORDS[(len(words) * 7 + i) % len(WORDS)])
        length += len(words[-1]) + 1
    return f"Harbour note {i}: " + " ".join(words)


def a_vault_of_long_memories(root: Path, count: int = LONG_MEMORIES, chars: int = 3_000) -> Path:
    """Memories used a few days before the test's clock: they carry their own times, so no
    file's modification time (the real date) stands in for them."""
    (root / "_stm").mkdir(parents=True)
    for i in range(count):
        used = (NOW - timedelta(days=1 + i % 5)).strftime("%Y-%m-%dT%H:%M:%SZ")
        (root / "_stm" / f"harbour {i:03d}.md").write_text(
            f"---\nid: harbour-{i:03d}\ncreated: {used}\nlast_used: {used}\n"
            f"use_count: {1 + i % 4}\ntags: [harbour]\n---\n" + long_text(i, chars) + "\n"
        )
    return root


def size(result: SearchResult | OpenResult) -> int:
    return len(
        json.dumps(result.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
    )


def every_page(call, **args: object) -> list[SearchResult]:  # type: ignore[no-untyped-def]
    pages = [call(**args)]
    while pages[-1].next_cursor is not None and len(pages) < 100:
        pages.append(call(**args, cursor=pages[-1].next_cursor))
    return pages


def with_budget(service: MemoryService, chars: int, **settings: object) -> MemoryService:
    """A service over the same vault whose answers may hold `chars` characters."""
    return service_for(service.engine.root, result_max_chars=chars, **settings)


@pytest.fixture
def service(tmp_path: Path) -> MemoryService:
    return service_for(a_vault_of_long_memories(tmp_path / "vault"), result_max_chars=20_000)


@pytest.mark.parametrize("tool", ["search", "search_unified"])
def test_a_full_page_of_long_hits_comes_within_the_budget_and_the_cursor_gives_the_rest(
    service: MemoryService, tool: str
) -> None:
    call = getattr(service, tool)
    count = {"top_k": 50} if tool == "search" else {"limit": 50}
    whole = getattr(with_budget(service, 1_000_000), tool)("harbour", **count, preview_length=5000)
    assert whole.count == 50 and whole.next_cursor is None and whole.notice is None
    pages = every_page(call, query="harbour", **count, preview_length=5000)
    assert len(pages) > 2
    for page in pages:
        assert size(page) <= 20_000
    for page in pages[:-1]:
        assert page.next_cursor and page.notice and "cut to fit 20000 characters" in page.notice
    assert pages[-1].notice is None
    paths = [h.path for page in pages for h in page.results]
    assert paths == [h.path for h in whole.results]  # each once, in the same order
    assert [h.content for page in pages for h in page.results] == [h.content for h in whole.results]


def test_small_answers_are_unchanged(service: MemoryService) -> None:
    found = service.search("harbour", top_k=5)
    assert found.count == 5 and found.next_cursor is None and found.notice is None
    assert all(len(h.content) <= 301 for h in found.results)


def test_a_cursor_continues_only_the_search_it_came_from(service: MemoryService) -> None:
    first = service.search("harbour", top_k=50, preview_length=5000)
    assert first.next_cursor
    with pytest.raises(
        InvalidArgument, match="cursor: it was given for a search_memory call with other"
    ):
        service.search("ferry", top_k=50, preview_length=5000, cursor=first.next_cursor)
    with pytest.raises(InvalidArgument, match="cursor: not one search_unified returned"):
        service.search_unified("harbour", cursor="not-a-cursor")


def test_a_hit_too_big_alone_is_cut_with_a_marker_saying_how_to_read_it_all(
    tmp_path: Path,
) -> None:
    vault = a_vault_of_long_memories(tmp_path / "vault", count=3, chars=30_000)
    s = service_for(vault, result_max_chars=5_000)
    pages = every_page(s.search_unified, query="harbour", limit=3, preview_length=0)
    assert [p.count for p in pages] == [1, 1, 1]
    for page in pages:
        assert size(page) <= 5_000
        content = page.results[0].content
        assert content.endswith("more characters cut to fit the answer; read_note(path) for all]")
        kept = content[: content.index("…[")]
        assert long_text(int(page.results[0].path[-6:-3]), 30_000).startswith(kept)


def test_open_memories_gives_whole_memories_within_the_budget_and_the_rest_by_cursor(
    service: MemoryService,
) -> None:
    refs = [f"harbour-{i:03d}" for i in range(LONG_MEMORIES)] + ["no-such-memory"]
    whole = with_budget(service, 1_000_000).open(refs)
    assert len(whole.memories) == LONG_MEMORIES and whole.next_cursor is None
    pages = every_page(service.open, memory_ids=refs)
    assert len(pages) > 2
    for page in pages:
        assert size(page) <= 20_000
    assert "memory refs 1–" in (pages[0].notice or "") and pages[-1].notice is None
    assert [m.id for page in pages for m in page.memories] == refs[:-1]
    assert [m.content for page in pages for m in page.memories] == [
        m.content for m in whole.memories
    ]
    assert [r for page in pages for r in page.not_found] == ["no-such-memory"]
    with pytest.raises(InvalidArgument, match="given for a open_memories call with other"):
        service.open(refs[:5], cursor=pages[0].next_cursor)


def test_one_memory_too_big_alone_ends_with_the_read_note_cursor_that_reads_on(
    tmp_path: Path,
) -> None:
    vault = a_vault_of_long_memories(tmp_path / "vault", count=2, chars=50_000)
    s = service_for(vault, result_max_chars=8_000)
    first = s.open(["harbour-000", "harbour-001"])
    assert len(first.memories) == 1 and first.next_cursor and size(first) <= 8_000
    content = first.memories[0].content
    cursor = content[content.index("cursor='") + 8 : content.index("') reads on]")]
    kept = content[: content.index("…[")]
    rest = s.read_note(first.memories[0].path, cursor=cursor, max_chars=100_000)
    assert kept + rest.body.rstrip("\n") == long_text(0, 50_000)
    second = s.open(["harbour-000", "harbour-001"], cursor=first.next_cursor)
    assert [m.id for m in second.memories] == ["harbour-001"] and second.next_cursor is None


def test_a_memory_related_to_hundreds_keeps_the_relations_that_fit_and_says_so(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    (vault / "_stm" / "hub.md").write_text("---\nid: hub\n---\nThe hub of it all.\n")
    for i in range(300):
        (vault / "_stm" / f"spoke {i:03d}.md").write_text(
            f'---\nid: spoke-{i:03d}\nrelated: ["[[hub]]"]\n---\nSpoke {i}.\n'
        )
    whole = service_for(vault, result_max_chars=1_000_000).open(["hub"])
    assert whole.memories[0].relations and len(whole.memories[0].relations.incoming) == 300
    cut = service_for(vault, result_max_chars=10_000).open(["hub"])
    assert size(cut) <= 10_000
    view = cut.memories[0]
    shown = len(view.relations.incoming) if view.relations else 0
    assert 0 < shown < 300
    assert (
        view.relations and view.relations.incoming == whole.memories[0].relations.incoming[:shown]
    )
    assert f"incoming {shown} of 300" in view.problems[-1]
    assert view.content == "The hub of it all."


def test_the_cli_prints_the_cursor_of_a_cut_search_and_continues_with_it(
    tmp_path: Path,
    cli_in_process,  # type: ignore[no-untyped-def]
) -> None:
    cli = cli_in_process
    vault = a_vault_of_long_memories(tmp_path / "vault", count=12, chars=3_000)
    env = {"CORTEXGRAPH_RESULT_MAX_CHARS": "8000"}
    args = ["search-all", "harbour", "--limit", "12", "--preview", "0"]
    titles: list[str] = []
    for _ in range(12):
        done = cli("--json", *args, vault=vault, env=env)
        assert done.code == 0, done.err
        body = done.json()
        titles += [h["title"] for h in body["results"]]
        if body["next_cursor"] is None:
            break
        human = cli(*args, vault=vault, env=env)
        assert f"more: --cursor {body['next_cursor']}" in human.out
        args = [*args[:6], "--cursor", body["next_cursor"]]
    assert sorted(titles) == [f"harbour {i:03d}" for i in range(12)]


@pytest.mark.parametrize("budget", [2_000, 3_333, 7_500, 19_999, 60_000])
def test_at_any_budget_the_pages_hold_every_hit_once_in_order(
    service: MemoryService, budget: int
) -> None:
    whole = with_budget(service, 1_000_000).search_unified("harbour ferry", limit=40,
                                                           preview_length=2_500)  # fmt: skip
    pages = every_page(with_budget(service, budget).search_unified, query="harbour ferry",
                       limit=40, preview_length=2_500)  # fmt: skip
    assert all(size(p) <= budget for p in pages)
    assert [h.path for p in pages for h in p.results] == [h.path for h in whole.results]
    assert [h.score for p in pages for h in p.results] == [h.score for h in whole.results]


def test_a_continuation_ranks_at_the_instant_of_the_first_call_while_the_clock_runs(
    tmp_path: Path,
) -> None:
    import base64
    from datetime import datetime

    vault = a_vault_of_long_memories(tmp_path / "vault")
    ticks = iter(range(1_000))
    s = service_for(vault, result_max_chars=20_000)
    # every reading of the clock is six hours later: scores decay between the calls
    s.engine.clock = lambda: NOW + timedelta(hours=6 * next(ticks))
    pages = [s.search("harbour", top_k=50, preview_length=5000)]
    while pages[-1].next_cursor:
        pages.append(s.search("harbour", top_k=50, preview_length=5000,
                              cursor=pages[-1].next_cursor))  # fmt: skip
    assert len(pages) > 2
    cursor = base64.urlsafe_b64decode(pages[0].next_cursor or "").decode()
    ranked_at = datetime.fromisoformat(cursor.split(":", 3)[3].split("|")[0])
    assert s.engine.now() > ranked_at  # the clock has moved on since the first call
    whole = service_for(vault, now=ranked_at, result_max_chars=1_000_000).search(
        "harbour", top_k=50, preview_length=5000
    )
    assert [h.path for p in pages for h in p.results] == [h.path for h in whole.results]
    assert [h.memory_score for p in pages for h in p.results] == [
        h.memory_score for h in whole.results
    ]
    later = service_for(
        vault, now=ranked_at + timedelta(days=3), result_max_chars=1_000_000
    ).search("harbour", top_k=50, preview_length=5000)
    assert [h.memory_score for h in later.results] != [h.memory_score for h in whole.results]
