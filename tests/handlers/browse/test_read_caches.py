"""A long-lived service keeps things between reads (the note table, the vector rows and episode
rows of its list of paths, formatted times) and scores a list page's memories the quick way
first. None of it may change an answer: after a touch, a save, an edit made outside and a
removed memory, a list page and a search say exactly what a new service on the same vault
says; and a later clock moves the scores as it moves a new service's."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text, service_for
from tests.conftest import NOW

MEMORIES = 620  # past browse_order.LONG_LIST: lists come from the note table's arrays
WORDS = ("tea", "garden", "bicycle", "sourdough", "piano", "harbour", "lantern", "meeting")
QUERIES = ("garden tea", "piano lantern", "sourdough bread", "harbour meeting")


def _vault(root: Path) -> Path:
    rng = random.Random(17)
    notes = {}
    for i in range(MEMORIES):
        words = " ".join(rng.sample(WORDS, 3))
        notes[f"_stm/m{rng.randrange(10**6):06d}-{i}.md"] = memory_text(
            f"mem-{i:04d}",
            body=f"Memory {i} about {words}.\n",
            # saved in bursts: episodes, so matches lend each other context
            created=NOW - timedelta(days=40, minutes=i // 5),
            last_used=NOW - timedelta(days=rng.choice([0, 1, 3, 7, 20]), hours=rng.choice([0, 5])),
            use_count=rng.choice([1, 2, 5]),
            strength=rng.choice([0.5, 1.0, 1.5]),
        )
    for i in range(60):
        notes[f"Notes/n{i}.md"] = f"# Note {i}\n\nA note on {' and '.join(rng.sample(WORDS, 2))}.\n"
    return a_vault(root, notes, git_init=True)


def _answers(service: MemoryService) -> list[str]:
    pages = [service.list_memories(page=p, page_size=50).model_dump_json() for p in (1, 2, 5, 13)]
    by_time = [service.list_memories(sort=s).model_dump_json() for s in ("age", "last_used")]
    found = [service.search_unified(q, limit=20).model_dump_json() for q in QUERIES]
    return pages + by_time + found


def _fresh(vault: Path, now: datetime) -> list[str]:
    """What a new service (nothing kept from earlier reads) answers."""
    return _answers(service_for(vault, now=now))


def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline, "the watcher did not see the edit in 10 s"
        time.sleep(0.02)


def test_reads_after_changes_and_a_later_clock_answer_as_a_new_service(tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    clock = [NOW]
    live = MemoryService(load_config({"vault": str(vault)}), clock=lambda: clock[0])
    live.engine.start_watcher()
    try:
        first = _answers(live)
        assert _answers(live) == first == _fresh(vault, NOW)  # kept between reads: the same

        live.touch("mem-0003")  # in place: the next table shares the list of paths
        live.touch("mem-0400")
        assert _answers(live) == _fresh(vault, NOW)

        live.save("A new memory about garden tea and the piano.")  # one more note
        assert _answers(live) == _fresh(vault, NOW)

        # an edit made outside: more uses and other words for one memory
        note = next((vault / "_stm").glob("*-7.md"))
        text = note.read_text(encoding="utf-8")
        edited = text.replace("use_count: ", "use_count: 4").replace("Memory 7 about", "Lantern")
        note.write_text(edited, encoding="utf-8")
        _until(lambda: live.memory_detail("mem-0007").content.startswith("Lantern"))
        assert _answers(live) == _fresh(vault, NOW)

        live.delete("mem-0010", mode="remove")  # a memory gone
        assert _answers(live) == _fresh(vault, NOW)

        # later: every score decays; the kept table and rows give the scores of then
        before = _answers(live)
        clock[0] = NOW + timedelta(days=3, hours=7)
        later = _answers(live)
        assert later == _fresh(vault, clock[0])
        assert later[:4] != before[:4]  # the scores listed did move
    finally:
        live.engine.stop_watcher()
