"""Note vectors kept without copies: embedded a slice at a time, handed to the cache writer as
they are, restored from the cache as loaded. What a search by meaning finds never changes."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from cortexgraph_vault.index.vectors import semantic
from cortexgraph_vault.index.vectors.embedder import shared_embedder
from cortexgraph_vault.index.vectors.semantic import SemanticIndex
from tests.index.vectors.nearest_reference import nearest

TEXTS = {
    "coffee.md": "Coffee\nI drink a flat white every morning before work.",
    "tea.md": "Tea\nGreen tea in the afternoon, never after six.",
    "manager.md": "Manager\nMy manager is Dana; weekly one-to-one on Tuesdays.",
    "race.md": "Race\nRunning the city half marathon in April.",
    "db.md": "Database\nWe chose Postgres over MySQL for the billing service.",
    "cat.md": "Pet\nOur cat Miso sleeps on the radiator.",
}
QUERIES = ["morning drink", "who is my boss", "running event", "which database", "animal"]


def index_of(texts: dict[str, str]) -> SemanticIndex:
    index = SemanticIndex(shared_embedder)
    for path in texts:
        index.mark(path)
    index.sync(texts.get)
    return index


def answers(index: SemanticIndex) -> list[dict[str, float]]:
    out = []
    for q in QUERIES:
        vec = index.query_vector(q)
        assert vec is not None
        out.append(nearest(index, vec, 3, -1.0, also=["cat.md", "gone.md"]))
    return out


def test_notes_embedded_a_slice_at_a_time_are_found_as_when_embedded_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at_once = answers(index_of(TEXTS))
    monkeypatch.setattr(semantic, "EMBED_SLICE", 2)
    sliced = index_of(TEXTS)
    assert sliced.count == len(TEXTS)
    assert answers(sliced) == at_once


def test_exported_vectors_stay_as_exported_while_the_index_changes() -> None:
    texts = dict(TEXTS)
    index = index_of(texts)
    exported = index.export()
    assert exported is not None
    before = exported["notes"].copy()
    index.drop("tea.md")  # zeroes its row: in a copy, not in what the writer holds
    texts["new.md"] = "New\nA note about sourdough bread."
    texts["coffee.md"] = "Coffee\nNow I only drink decaf."
    index.mark("new.md")
    index.mark("coffee.md")
    index.sync(texts.get)
    assert np.array_equal(exported["notes"], before)
    assert sorted(exported["paths"]) == sorted(TEXTS)


def test_vectors_restored_from_the_cache_find_what_the_live_index_finds() -> None:
    texts = dict(TEXTS)
    live = index_of(texts)
    live.drop("tea.md")  # a free row in the matrix
    del texts["tea.md"]
    texts["bread.md"] = "Bread\nSourdough starter fed twice a day."
    live.mark("bread.md")
    live.sync(texts.get)
    cached = pickle.loads(pickle.dumps(live.export(), protocol=pickle.HIGHEST_PROTOCOL))
    restored = SemanticIndex(shared_embedder)
    restored.restore(cached, [p for p in texts if p != "cat.md"])  # cat.md gone since
    assert restored.pending == 0
    assert restored.count == len(texts) - 1
    live.drop("cat.md")
    assert answers(restored) == answers(live)
    assert all("tea.md" not in found and "cat.md" not in found for found in answers(restored))
    # a note the cache lacks is embedded by the next sync; a changed one again
    restored.mark("cat.md")
    assert restored.sync(texts.get) == 1
    assert restored.count == len(texts)


class _Version:
    """A state of a list of notes, as a table of every note names it."""


def test_rows_of_a_list_do_not_keep_its_version_alive() -> None:
    import gc
    import weakref

    index = index_of(TEXTS)
    paths = ["tea.md", "gone.md", "cat.md"]
    first = _Version()
    with index.lock:
        rows = index.rows_of(paths, first)
        assert index.rows_of(paths, first) is rows  # kept while the version lives
    assert rows.tolist()[1] == -1 and min(rows.tolist()[0], rows.tolist()[2]) >= 0
    gone = weakref.ref(first)
    del first
    gc.collect()
    assert gone() is None  # a replaced table is not held by the rows made for it
    second = _Version()
    with index.lock:
        again = index.rows_of(paths, second)
    assert again is not rows and again.tolist() == rows.tolist()
    plain = "a version without weak references"
    with index.lock:
        assert index.rows_of(paths, plain).tolist() == rows.tolist()
        assert index.rows_of(paths, plain) is index.rows_of(paths, plain)


def test_rows_of_a_list_grown_at_its_end_are_the_rows_looked_up_afresh() -> None:
    """Saves (paths added at the end), removals (a path's row no longer named), a path put
    back (a second place in the list), vectors made or dropped while the list stays: rows
    brought up to date from the last ones are those of every path looked up again, at each
    place the lookup (`index`) names."""
    import random

    rng = random.Random(3)
    texts = dict(TEXTS)
    index = index_of(texts)
    paths = list(texts)
    places = {p: i for i, p in enumerate(paths)}
    pool = [f"n{i}.md" for i in range(40)]
    for step in range(120):
        kind = rng.choice(["save", "remove", "back", "embed", "drop", "same"])
        if kind == "save":  # a new note: a new list, the path at its end, its vector made
            name = rng.choice(pool)
            texts[name] = f"Note {step}\nabout {rng.choice(QUERIES)}"
            paths = [*paths, name]
            places[name] = len(paths) - 1
            index.mark(name)
            index.sync(texts.get)
        elif kind == "remove" and places:  # its place left in the list, unreachable
            name = rng.choice(sorted(places))
            del places[name]
            texts.pop(name, None)
            index.drop(name)
        elif kind == "back":  # a removed path saved again: its new place at the end
            name = rng.choice([p for p in paths if p not in places] or pool)
            texts[name] = f"Back {step}"
            paths = [*paths, name]
            places[name] = len(paths) - 1
            index.mark(name)
            index.sync(texts.get)
        elif kind == "embed" and places:  # the same list; a vector made (or made again)
            name = rng.choice(sorted(places))
            texts[name] = f"Edited {step}"
            index.mark(name)
            index.sync(texts.get)
        elif kind == "drop" and places:  # the same list; a vector dropped
            index.drop(rng.choice(sorted(places)))
        with index.lock:
            rows = index.rows_of(paths, paths, places)
            row_of = index._notes.row_of if index._notes is not None else {}
        assert len(rows) == len(paths)
        for path, at in places.items():
            assert rows[at] == row_of.get(path, -1), (step, kind, path)


def test_rows_of_are_looked_up_afresh_when_the_list_is_not_the_last_one_grown() -> None:
    index = index_of(TEXTS)
    paths = list(TEXTS)
    places = {p: i for i, p in enumerate(paths)}
    with index.lock:
        first = index.rows_of(paths, paths, places)
        other = paths[::-1]  # another order: not the last list with paths added
        again = index.rows_of(other, other, {p: i for i, p in enumerate(other)})
    assert again.tolist() == first.tolist()[::-1]
