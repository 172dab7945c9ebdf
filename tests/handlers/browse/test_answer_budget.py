"""Issue 15 item 9 for answers that are not paged (gc, vault_status, neighbourhood, a version,
forgotten, history...): the long lists are cut to the budget, and the answer says what it
left out and where the rest is."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path

from pydantic import BaseModel

from cortexgraph_vault.handlers.browse.size_budget import (
    fill_within,
    json_size,
    json_size_at_most,
    lists_within,
)
from cortexgraph_vault.models import GcResult
from tests.builders import a_vault, memory_text, service_for
from tests.conftest import NOW


def size(result: BaseModel) -> int:
    data = result.model_dump(mode="json")
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def faded_memories(root: Path, count: int) -> Path:
    created = NOW - timedelta(days=400)
    notes = {
        f"_stm/faded thought number {i:03d}.md": memory_text(
            f"faded-{i:03d}",
            f"A faded thought {i}.\n",
            created=created,
            last_used=created + timedelta(days=1),
        )
        for i in range(count)
    }
    return a_vault(root, notes)


def test_a_gc_preview_of_many_memories_lists_the_first_and_says_how_many_it_left_out(
    tmp_path: Path,
) -> None:
    vault = faded_memories(tmp_path / "vault", 80)
    whole = service_for(vault, result_max_chars=1_000_000).gc(dry_run=True)
    assert whole.total_affected == 80 and len(whole.candidates) == 80 and size(whole) > 5_000
    cut = service_for(vault, result_max_chars=5_000).gc(dry_run=True)
    assert size(cut) <= 5_000
    assert cut.total_affected == 80  # the counts stay whole
    kept = len(cut.candidates)
    assert 0 < kept < 80 and cut.candidates == whole.candidates[:kept]
    assert cut.message.startswith(whole.message)
    ids = len(cut.memory_ids)
    assert cut.memory_ids == whole.memory_ids[:ids]
    shown = f"cut to fit 5000 characters: {kept} of 80 candidates and {ids} of 80 memory ids shown"
    assert shown in cut.message


def test_lists_within_leaves_a_fitting_answer_as_it_is_and_cuts_dicts_by_pairs() -> None:
    small = GcResult(dry_run=True, removed_count=0, archived_count=0, freed_score_sum=0,
                     memory_ids=["a"], total_affected=1, candidates=[], message="ok")  # fmt: skip
    assert lists_within(small, 2_000, ["memory_ids"]) is small
    from cortexgraph_vault.models import PromoteResult

    moved = {f"_stm/note {i}.md": f"memories/note {i}.md" for i in range(200)}
    big = PromoteResult(dry_run=False, candidates_found=200, promoted_count=200,
                        promoted_ids=[], candidates=[], moved=moved, message="promoted 200")  # fmt: skip
    cut = lists_within(big, 3_000, ["candidates", "promoted_ids", "moved"])
    assert json_size(cut) <= 3_000 and 0 < len(cut.moved) < 200
    assert list(cut.moved.items()) == list(moved.items())[: len(cut.moved)]
    assert f"{len(cut.moved)} of 200 moved shown" in cut.message


def test_vault_status_lists_the_first_problems_and_says_where_every_one_is(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "notes").mkdir(parents=True)
    for i in range(300):
        (vault / "notes" / f"broken {i:03d}.md").write_text("---\nkey: [unclosed\n---\nbody\n")
    whole = service_for(vault, result_max_chars=1_000_000).vault_status()
    assert len(whole.unparseable) == 300
    status = service_for(vault, result_max_chars=6_000).vault_status()
    assert size(status) <= 6_000
    *listed, more = status.unparseable
    assert listed == whole.unparseable[: len(listed)]
    assert more.reason.startswith(f"{300 - len(listed)} more not listed here, to fit 6000")
    assert "cortexgraph-vault stats --json" in more.reason


def test_a_neighbourhood_with_many_backlinks_is_cut_and_marked_truncated(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "notes").mkdir(parents=True)
    (vault / "notes" / "Hub.md").write_text("The hub.\n")
    for i in range(400):
        (vault / "notes" / f"spoke number {i:03d}.md").write_text(f"Links to [[Hub]] ({i}).\n")
    whole = service_for(vault, result_max_chars=1_000_000).neighbourhood(
        "notes/Hub.md", max_nodes=1000
    )
    assert len(whole.backlinks) == 400 and not whole.truncated
    cut = service_for(vault, result_max_chars=20_000).neighbourhood("notes/Hub.md", max_nodes=1000)
    assert size(cut) <= 20_000 and cut.truncated
    assert cut.nodes == whole.nodes[: len(cut.nodes)]


def test_an_old_version_too_long_for_the_answer_ends_with_the_git_command_that_shows_it(
    tmp_path: Path,
) -> None:
    text = "The long story of the harbour. " * 2_000
    note = {"_stm/long story.md": f"---\nid: long-story\n---\n{text}\n"}
    vault = a_vault(tmp_path / "vault", note, git_init=True, message="a long story")
    s = service_for(vault, result_max_chars=4_000)
    sha = s.history("long-story").commits[0].sha
    old = s.version("long-story", sha)
    assert size(old) <= 4_000
    assert old.text.endswith(f"more characters; `git show {sha}:_stm/long story.md` in the vault]")
    assert "The long story of the harbour." in old.text


def test_the_cheap_size_is_never_below_the_exact_one() -> None:
    """`json_size_at_most` bounds `json_size` whatever the floats and texts: exponents that
    pydantic writes shorter, infinities it writes as null, texts of every width."""
    rng = random.Random(3)
    floats = [0.0, -0.0, 1.0, 1e-05, 1.5e-07, 2.5e-05, 1e-100, 1e16, 1.2345678901234567e19,
              float("inf"), float("-inf"), float("nan"), 0.123456]  # fmt: skip
    texts = ["", "plain", 'quo"te\\', "\x00\x1f\n\t\u2028\x7f", "é中😀", "e-null" * 3]
    for _ in range(300):
        item = {
            "f": [rng.choice(floats) * rng.choice([1, 3.7]) for _ in range(rng.randint(0, 6))],
            "s": rng.choice(texts) * rng.randint(0, 3), "n": rng.randint(-(10**20), 10**20),
            "b": rng.random() < 0.5, "none": None,
        }  # fmt: skip
        assert json_size_at_most(item) >= json_size(item)
    assert json_size_at_most({"lone": "a\udc80b"}) == json_size({"lone": "a\udc80b"})


class Scored(BaseModel):
    text: str
    score: float


def test_filling_by_bounds_cuts_where_exact_sizes_cut() -> None:
    """Items are added by their bound while it fits; near the budget by their exact size: the
    same items come as when every size is exact."""
    items = [Scored(text="x" * (i % 7) * 40, score=1.5e-07 * i) for i in range(40)]

    def exactly(room: int) -> tuple[list[Scored], int]:
        kept: list[Scored] = []
        used = 0
        for place, item in enumerate(items):
            cost = json_size(item) + 1
            if used + cost > room:
                return kept, place
            kept.append(item)
            used += cost
        return kept, len(items)

    for room in range(200, sum(json_size(item) + 1 for item in items) + 50, 37):
        got = fill_within(len(items), lambda place: items[place], room, lambda item, _: item)
        assert got == exactly(room), room
