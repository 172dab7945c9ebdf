"""Ranking over arrays gives exactly what the straightforward note-by-note ranking gives:
the same matches with the same parts of relevance, the same candidates with the same
scores, the same pages in the same order — on random queries and filters over a generated
vault with ties (notes copied word for word), episodes of memories saved minutes apart
(context lent between them), promoted and archived memories, and review candidates."""

from __future__ import annotations

import random
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.handlers.graph import related
from cortexgraph_vault.handlers.search import search
from cortexgraph_vault.handlers.search.relevance import search_terms
from cortexgraph_vault.handlers.search.search import UNIFIED_STATUSES, blend, rank
from cortexgraph_vault.requests.fields import days_before
from cortexgraph_vault.service import MemoryService
from tests.builders import service_for
from tests.conftest import NOW
from tests.handlers.search.ranking_reference import (
    pooled,
    reference_blend,
    reference_match,
    reference_rank,
)


def _episode(root: Path, words: list[str], rng: random.Random) -> None:
    """Memories saved minutes apart, sharing words: each lends context to its neighbours."""
    start = NOW - timedelta(days=rng.uniform(1, 30))
    for i in range(8):
        created = (start + timedelta(minutes=4 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        text = " ".join(rng.sample(words, 6))
        (root / "_stm" / f"Episode {start.day} {i}.md").write_text(
            f"---\nid: ep-{start.day}-{i}\ncreated: {created}\nlast_used: {created}\n"
            f"use_count: {rng.randint(1, 4)}\nstrength: 1.0\nstatus: active\ntags: [meeting]\n"
            f"---\n{text}.\n",
            encoding="utf-8",
        )


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryService, list[str]]:
    from bench.vaultgen import generate_vault

    root = tmp_path_factory.mktemp("rank") / "vault"
    made = generate_vault(root, 600, seed=3, now=NOW)
    rng = random.Random(5)
    words = list(made.vocabulary[40:400])
    for note in sorted((root / "Projects").glob("*.md"))[:15]:  # ties: the same words twice
        (root / "Copies").mkdir(exist_ok=True)
        shutil.copy(note, root / "Copies" / note.name)
    for _ in range(4):
        _episode(root, words[:60], rng)
    for i, note in enumerate(sorted((root / "_stm").glob("*.md"))[:60]):
        text = note.read_text(encoding="utf-8")
        status = "promoted" if i % 2 else "archived"
        note.write_text(text.replace("status: active", f"status: {status}"), encoding="utf-8")
    # a small answer budget: cursors are followed
    service = service_for(root, result_max_chars=3000)
    queries = [" ".join(rng.sample(words[:80], rng.randint(1, 3))) for _ in range(30)]
    queries += [" ".join(t.split()[: rng.randint(1, 2)]) for t in rng.sample(made.titles, 15)]
    queries += [w[:-2] + w[-1] + w[-2] for w in rng.sample(words[:200], 5)]  # typos
    return service, queries


def _filters(rng: random.Random) -> dict[str, Any]:
    statuses = set(rng.sample(UNIFIED_STATUSES, rng.randint(1, 4)))
    return {
        "statuses": statuses,
        "tags": rng.choice([None, None, ["project"], ["work", "meeting"]]),
        "folder": rng.choice([None, None, None, "Projects", "Copies/"]),
        "used_since": days_before(NOW, rng.choice([None, None, 10.0, 200.0])),
        "stm_weight": rng.choice([1.0, 0.5, 1.7]),
        "ltm_weight": rng.choice([1.0, 0.8, 1.3]),
        "by_memory_score": rng.random() < 0.25,
    }


def test_matches_and_candidates_equal_the_straightforward_ranking(
    generated: tuple[MemoryService, list[str]],
) -> None:
    service, queries = generated
    engine = service.engine
    rng = random.Random(17)
    reviewed = tied = lent = 0
    for query in queries:
        terms = search_terms(query)
        plain, _ = reference_match(engine, query, terms)
        found = search.match(engine, engine.fresh(), query, terms).found
        assert list(found.items()) == list(plain.items()), query
        lent += sum(r.context > 0 for r in plain.values())
        for _ in range(3):
            f = _filters(rng)
            got, _ = rank(engine, query, terms, now=NOW, **f)
            want, _ = reference_rank(engine, query, terms, now=NOW, **f)
            assert list(got) == want, (query, f)
            assert len(got) == len(want)
            reviewed += sum(c[4] > 0 for c in want)
            tied += len(want) - len({c[0] for c in want})
            for end in (1, 4, 10, 33, len(want) + 3):
                for ratio in (0.0, 0.25, 0.5):
                    assert blend(got, ratio, end) == reference_blend(want, ratio, end)
            bar = rng.choice([0.1, 0.3, 0.6])
            assert list(got.where(got.score >= bar)) == [c for c in want if c[0] >= bar]
    # the cases the comparison is meant to cover did come up
    assert reviewed > 0 and tied > 0 and lent > 0


def test_with_no_query_every_note_is_ranked_as_before(
    generated: tuple[MemoryService, list[str]],
) -> None:
    service, _ = generated
    engine = service.engine
    for by_memory_score in (False, True):
        f = {"statuses": {"active", "promoted", "note"}, "by_memory_score": by_memory_score}
        got, _ = rank(engine, "", [], now=NOW, **f)
        want, _ = reference_rank(engine, "", [], now=NOW, **f)
        assert list(got) == want
        assert blend(got, 0.25, 20) == reference_blend(want, 0.25, 20)


def _pages(call: Any, **kwargs: Any) -> list[dict[str, Any]]:
    """Every page a search gives, following its cursors."""
    out = [call(**kwargs).model_dump(mode="json")]
    while out[-1].get("next_cursor"):
        out.append(call(**kwargs, cursor=out[-1]["next_cursor"]).model_dump(mode="json"))
    return out


def test_whole_answers_equal_those_of_the_straightforward_ranking(
    generated: tuple[MemoryService, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hits, scores, explanations, review places, pages and cursors, through the service."""
    service, queries = generated
    rng = random.Random(23)
    calls = []
    for query in queries[::3]:
        calls.append((service.search_unified, {
            "query": query, "limit": rng.choice([5, 10, 40]), "explain": rng.random() < 0.5,
            "status": rng.choice([None, ["active", "archived"], "note"]),
            "min_score": rng.choice([None, 0.2]), "window_days": rng.choice([None, 30]),
            "page": rng.choice([None, 2]),
            "tags": rng.choice([None, ["meeting"]]),
        }))  # fmt: skip
        calls.append((service.search, {
            "query": rng.choice([query, None]), "top_k": rng.choice([5, 20]),
            "min_score": rng.choice([None, 0.3]), "explain": True,
        }))  # fmt: skip
    calls.append((service.related_to_note, {"path": "Copies/" + sorted(
        p.name for p in (service.engine.root / "Copies").glob("*.md"))[0]}))  # fmt: skip
    got = [_pages(call, **kwargs) for call, kwargs in calls]
    monkeypatch.setattr(search, "rank", pooled(reference_rank))
    monkeypatch.setattr(related, "rank", pooled(reference_rank))
    want = [_pages(call, **kwargs) for call, kwargs in calls]
    assert got == want
    assert any(len(pages) > 1 for pages in got)  # cursors were followed


def test_after_touches_edits_and_removals_the_ranking_still_equals_the_plain_one(
    tmp_path: Path,
) -> None:
    """The note table is updated from the last one after each change: what it says must
    stay what the notes say."""
    from bench.vaultgen import generate_vault

    made = generate_vault(tmp_path / "vault", 250, seed=9, now=NOW)
    service = service_for(made.root)
    engine = service.engine
    rng = random.Random(4)
    words = list(made.vocabulary[40:120])
    memories = sorted((made.root / "_stm").glob("*.md"))
    f = {"statuses": {"active", "promoted", "note"}}
    for step in range(6):
        memory_id = engine.catalog.note(memories[step].relative_to(made.root).as_posix())
        assert memory_id is not None and memory_id.memory is not None
        service.touch(str(memory_id.memory.id))
        plain = sorted((made.root / "Projects").glob("*.md"))
        plain[step].unlink()
        plain[-step - 1].write_text(f"Edited {step}: {' '.join(words[:20])}\n", encoding="utf-8")
        engine.fresh()
        for query in (" ".join(rng.sample(words, 2)), words[step]):
            terms = search_terms(query)
            got, _ = rank(engine, query, terms, now=NOW, **f)
            want, _ = reference_rank(engine, query, terms, now=NOW, **f)
            assert list(got) == want, (step, query)
        got, _ = rank(engine, "", [], now=NOW, by_memory_score=True, **f)
        want, _ = reference_rank(engine, "", [], now=NOW, by_memory_score=True, **f)
        assert list(got) == want
