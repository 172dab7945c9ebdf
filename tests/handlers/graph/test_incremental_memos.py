"""What reads keep between changes (the note table, who relates to whom, the episodes and their
links) is brought up to date from the paths the catalogue says changed, not built again; after
any mix of touches, saves, deletes, renames, restamps and hand edits of links, tags and
relations, each says what one built afresh from the catalogue says."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.graph.relation_index import relation_index, relation_index_of
from cortexgraph_vault.handlers.search.note_table import NOTE, NoteTable, build_table, note_table
from cortexgraph_vault.handlers.search.relevance import _built_episodes, episodes, ranking_config
from cortexgraph_vault.handlers.search.relevance_arrays import episode_links, links_of
from cortexgraph_vault.index.catalog.change_log import ADDED, LIMIT, REMOVED, ChangeLog
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, service_for
from tests.conftest import examples

TITLES = ["Tea", "Coffee", "Walks", "Rain", "Books", "Music"]


def _memory(n: int, *, title: str, created_hour: int, tags: list[str], related: list[str],
            status: str = "active") -> str:  # fmt: skip
    relations = f"related: [{', '.join(repr(f'[[{r}]]') for r in related)}]\n" if related else ""
    return (
        f"---\nid: mem-{n}\ncreated: 2026-11-0{1 + created_hour // 24}T{created_hour % 24:02d}:00:00Z\n"
        f"last_used: 2026-11-20T10:00:00Z\nuse_count: 1\nstrength: 1.0\nstatus: {status}\n"
        f"tags: [{', '.join(tags)}]\n{relations}---\n{title} notes, about {title.lower()}.\n"
    )


class World:
    """A vault changed by hand and through the service, with a clock for file times (a stat
    walk sees every hand edit: each gets a newer mtime)."""

    def __init__(self, root: Path) -> None:
        notes = {
            f"_stm/{title}.md": _memory(i, title=title, created_hour=i, tags=["a"], related=[])
            for i, title in enumerate(TITLES[:4])
        }
        notes["Notes/Plain.md"] = "A note linking [[Tea]].\n"
        self.vault = a_vault(root / "vault", notes)
        self.service: MemoryService = service_for(self.vault)
        self.engine: VaultEngine = self.service.engine
        self.clock = 1_800_000_000_000_000_000
        self.made = 100

    def write(self, rel: str, text: str) -> None:
        path = self.vault / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.clock += 1_000_000_000
        os.utime(path, ns=(self.clock, self.clock))

    def memories(self) -> list[str]:
        return sorted(str(p.relative_to(self.vault)) for p in (self.vault / "_stm").glob("*.md"))

    def act(self, op: str, pick: int) -> None:
        memories = self.memories()
        rel = memories[pick % len(memories)] if memories else None
        if op == "touch" and rel is not None:
            note = self.engine.catalog.note(rel)
            memory = note.memory if note is not None else None
            if memory is not None and memory.id and memory.status == "active":
                self.service.touch(memory.id)
                return
        elif op == "save":
            title = f"{TITLES[pick % len(TITLES)]} {self.made}"
            self.made += 1
            self.service.save(f"{title} saved", title=title, tags=["s"])
            return
        elif op == "delete" and rel is not None and len(memories) > 1:
            (self.vault / rel).unlink()
        elif op == "rename" and rel is not None:
            self.made += 1
            os.rename(self.vault / rel, self.vault / "_stm" / f"Moved {self.made}.md")
        elif op in ("relate", "retag", "new", "archive") and rel is not None:
            self.made += 1
            target = rel if op != "new" else f"_stm/New {self.made}.md"
            self.write(
                target,
                _memory(self.made, title=TITLES[pick % len(TITLES)], created_hour=pick % 30,
                        tags=["a", f"t{pick % 3}"] if op == "retag" else ["a"],
                        related=[TITLES[(pick + 1) % len(TITLES)]] if op != "retag" else [],
                        status="archived" if op == "archive" else "active"),
            )  # fmt: skip
        elif op == "link":
            self.write("Notes/Plain.md", f"A note linking [[{TITLES[pick % len(TITLES)]}]].\n")
        elif op == "restamp" and rel is not None:
            self.clock += 1_000_000_000
            os.utime(self.vault / rel, ns=(self.clock, self.clock))
        self.engine.fresh()


def _same_table(table: NoteTable, notes: list[Any]) -> None:
    whole = build_table(notes)
    # every note held, in the catalogue's order, as a table built afresh holds them
    assert [table.paths[r] for r in table.live.tolist()] == [n.path for n in notes]
    # kept from the last table's: the rows its lookups hold, in their order
    assert table.live.tolist() == list(table.row_of.values())
    for path, row in whole.row_of.items():
        mine = table.row_of[path]
        # the same note (a restamp, which does not move the counters, may leave an older
        # object of the same bytes)
        assert table.notes[mine].sha256 == whole.notes[row].sha256, path
        code, fresh_code = table.status[mine], whole.status[row]
        assert (code == NOTE) == (fresh_code == NOTE)
        if code != NOTE:
            assert table.status_names[code] == whole.status_names[fresh_code]
        for name in ("use_base", "last_used", "strength", "created"):
            a, b = getattr(table, name)[mine], getattr(whole, name)[row]
            assert a == b or (math.isnan(a) and math.isnan(b)), (path, name)


def _relations(index: Any) -> tuple[dict[str, str], dict[str, list[tuple[str, str, str]]]]:
    """What a relation index says, by path (a touched memory's note object may be an older one
    of the same relations: that is what the catalogue's counters allow)."""
    by_key = {key: note.path for key, note in index.by_key.items()}
    incoming = {
        key: [
            (note.path, kind, value) for _, note, kind, value in sorted(found, key=lambda f: f[0])
        ]
        for key, found in index.incoming.items()
    }
    return by_key, incoming


def _check(world: World) -> None:
    engine = world.engine
    notes = engine.catalog.notes()
    _same_table(note_table(engine), notes)
    assert _relations(relation_index(engine)) == _relations(relation_index_of(notes))
    mine, fresh = episodes(engine), _built_episodes(engine)[1]
    assert (list(mine.paths), list(mine.times)) == (list(fresh.paths), list(fresh.times))
    cfg = ranking_config(engine.config)
    links, whole = links_of(engine), episode_links(fresh, cfg.context_reach, cfg.context_gap)
    assert links.index == whole.index and links.distance == whole.distance
    assert np.array_equal(links.times, whole.times) and np.array_equal(links.near, whole.near)
    _same_rows(world)


def _same_rows(world: World) -> None:
    """The rows a search reads, kept from one table to the next (the episode position and the
    vector row of each note), are those looked up afresh at every row a path reaches."""
    from cortexgraph_vault.handlers.search.relevance_arrays import _episode_rows

    engine = world.engine
    table, links = note_table(engine), links_of(engine)
    by_row = _episode_rows(table, links)
    sem = engine.catalog.semantic
    engine.catalog.sync_vectors()
    with sem.lock:
        vector_rows = sem.rows_of(table.paths, table.paths, table.row_of)
        held = sem._notes.row_of if sem._notes is not None else {}
    for path, row in table.row_of.items():
        memory = not math.isnan(table.created[row])
        assert by_row[row] == (links.index.get(path, -1) if memory else -1), path
        assert vector_rows[row] == held.get(path, -1), path


OPS = ["touch", "save", "delete", "rename", "relate", "retag", "new", "link", "restamp", "archive",
       "read"]  # fmt: skip


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 60)), max_size=14))
def test_kept_values_follow_any_changes_as_a_rebuild_would(
    tmp_path: Path, steps: list[tuple[str, int]]
) -> None:
    world = World(Path(tempfile.mkdtemp(dir=tmp_path)))
    _check(world)  # made once, then brought up to date
    for op, pick in steps:
        if op == "read":
            _check(world)
        else:
            world.act(op, pick)
    _check(world)


def test_a_touch_shares_the_columns_it_leaves_as_they_were(tmp_path: Path) -> None:
    """Under load a touch comes every few ms: its table copies only the columns it changes."""
    world = World(tmp_path)
    engine = world.engine
    first = note_table(engine)
    live = first.live  # worked out (a list's rows of a status read it): kept by the next table
    world.act("touch", 3)
    touched = note_table(engine)
    assert touched.status is first.status and touched.created is first.created
    assert touched.use_base is not first.use_base and touched.live is live
    world.act("archive", 3)  # a status that changed: its column is copied
    archived = note_table(engine)
    assert archived.status is not touched.status
    assert touched.status_names[touched.status[touched.row_of[world.memories()[3]]]] == "active"
    _check(world)


def test_the_log_says_which_paths_changed_and_when_it_no_longer_knows(tmp_path: Path) -> None:
    world = World(tmp_path)
    catalog = world.engine.catalog
    start = catalog.generation
    saved = world.service.save("Kettle descaling every month", title="Kettle")
    (world.vault / "_stm" / "Rain.md").unlink()
    world.engine.fresh()
    changes = catalog.changes_since(start)
    assert changes is not None and changes.generation == catalog.generation
    assert changes.changes == [(saved.path, ADDED | 4), ("_stm/Rain.md", REMOVED | 4)]
    assert changes.notes == {saved.path: catalog.note(saved.path), "_stm/Rain.md": None}
    assert catalog.changes_since(catalog.generation) is not None
    assert catalog.changes_since(catalog.generation).changes == []  # type: ignore[union-attr]
    catalog.replace_with(catalog)  # taken over whole: what came before is unknown
    assert catalog.changes_since(start) is None


def test_a_bounded_log_forgets_the_oldest_changes() -> None:
    log = ChangeLog()
    for generation in range(1, 3 * LIMIT):
        log.record(generation, f"n{generation}.md", 0)
    assert log.since(0) is None  # trimmed: a value that old is built again
    assert log.since(3 * LIMIT - 3) == [(f"n{3 * LIMIT - 2}.md", 0), (f"n{3 * LIMIT - 1}.md", 0)]
    log.record(3 * LIMIT, "restamped.md", 0)
    log.record(3 * LIMIT + 2, "after a gap.md", 0)  # a generation not seen: unknown before it
    assert log.since(3 * LIMIT) is None
    assert log.since(3 * LIMIT + 1) == [("after a gap.md", 0)]


@settings(max_examples=examples(300), deadline=None)
@given(
    times=st.lists(st.integers(0, 40), max_size=12),
    more=st.lists(st.integers(0, 50), max_size=4),
    gone=st.sets(st.integers(0, 14), max_size=3),
    reach=st.integers(0, 3),
    gap=st.sampled_from([0.0, 1.0, 5.0, 100.0]),
)
def test_links_of_changed_episodes_are_those_made_afresh(
    times: list[int], more: list[int], gone: set[int], reach: int, gap: float
) -> None:
    """Links made from the last ones (a save, most often among the newest, or several the
    same second; a memory gone; one put back elsewhere) equal the links made afresh."""
    from cortexgraph_vault.core.ranking import Episodes
    from cortexgraph_vault.handlers.search.relevance_arrays import links_after

    timed = sorted((float(t), f"m{i:02}.md") for i, t in enumerate(times))
    before = Episodes([p for _, p in timed], [t for t, _ in timed])
    added = [(float(t), f"m{i:02}.md" if i % 2 else f"n{i}.md") for i, t in enumerate(more)]
    gone_paths = {f"m{i:02}.md" for i in gone} | {p for _, p in added if p in before.paths}
    after = before.changed(gone_paths, added)
    # as sorted afresh: by save time, then path
    kept = [(t, p) for t, p in zip(before.times, before.paths, strict=True) if p not in gone_paths]
    assert list(zip(after.times, after.paths, strict=True)) == sorted(kept + added)
    mine = links_after(episode_links(before, reach, gap), after, reach, gap)
    whole = episode_links(after, reach, gap)
    assert mine.index == whole.index and mine.distance == whole.distance
    assert np.array_equal(mine.times, whole.times) and np.array_equal(mine.near, whole.near)


@settings(max_examples=examples(300), deadline=None)
@given(
    times=st.lists(st.integers(0, 30), min_size=0, max_size=20),
    start=st.integers(0, 20),
    reach=st.integers(0, 3),
    gap=st.sampled_from([0.0, 1.0, 5.0, 100.0]),
)
def test_neighbours_of_a_few_rows_are_those_worked_out_in_arrays(
    times: list[int], start: int, reach: int, gap: float
) -> None:
    from cortexgraph_vault.handlers.search.relevance_arrays import _near, _near_few

    at = np.array(sorted(float(t) / 2 for t in times), dtype=np.float64)
    start = min(start, len(at))
    few, few_distance = _near_few(at, start, len(at), reach, gap)
    whole, distance = _near(at, np.arange(start, len(at)), reach, gap)
    assert few_distance == distance
    assert few.dtype == whole.dtype and few.shape == whole.shape
    assert np.array_equal(few, whole)
