"""The note table holds what ranking reads of each note, and follows changes: a touch, a new
note and a removed one are in the next search's table."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.handlers.search.note_table import NOTE, NoteTable, build_table, note_table
from tests.builders import a_vault, service_for


def test_the_table_holds_each_note_and_follows_changes(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", {"Notes/Plain.md": "Just a note about tea.\n"})
    service = service_for(vault)
    saved = service.save("Prefers green tea in the morning", tags=["tea"])
    engine = service.engine
    table = note_table(engine)
    assert sorted(table.paths) == sorted(n.path for n in engine.catalog.notes())
    plain = table.row_of["Notes/Plain.md"]
    assert table.status[plain] == NOTE and math.isnan(table.created[plain])
    memory = engine.catalog.note(saved.path)
    assert memory is not None and memory.memory is not None
    row = table.row_of[saved.path]
    assert table.status_names[table.status[row]] == "active"
    assert table.last_used[row] == memory.memory.last_used.timestamp()
    assert table.use_base[row] == 1.0
    assert table.created[row] == memory.memory.created.timestamp()
    assert note_table(engine) is table  # nothing changed: the same table

    service.touch(saved.memory_id)
    (vault / "Notes" / "Plain.md").unlink()
    (vault / "Notes" / "New.md").write_text("Another note.\n", encoding="utf-8")
    engine.fresh()
    after = note_table(engine)
    assert after is not table
    assert "Notes/Plain.md" not in after.row_of and "Notes/New.md" in after.row_of
    assert plain not in after.live.tolist() and len(after.live) == len(after.row_of)
    assert after.use_base[after.row_of[saved.path]] == 2.0
    assert after.rows(["Notes/New.md", "Notes/Plain.md"]).tolist() == [
        after.row_of["Notes/New.md"],
        -1,
    ]
    # updated from the last table, it says what a table built afresh says of every note
    whole = build_table(engine.catalog.notes())
    assert sorted(after.row_of) == sorted(whole.row_of)

    def status(table: NoteTable, row: int) -> str | None:
        code = table.status[row]
        return None if code == NOTE else table.status_names[code]

    for path, row in whole.row_of.items():
        mine = after.row_of[path]
        assert after.notes[mine] is whole.notes[row]
        assert status(after, mine) == status(whole, row)
        for name in ("use_base", "last_used", "strength", "created"):
            a, b = getattr(after, name)[mine], getattr(whole, name)[row]
            assert a == b or (math.isnan(a) and math.isnan(b)), (path, name)


def test_a_search_ranks_with_one_table_even_when_a_newer_one_is_built_meanwhile(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A touch by another client builds a newer table — compacted, its rows elsewhere — while a
    search runs. The search's rows must all come from one table: each table it asks for here
    holds the notes in another order, and the answer stays what it is without that."""
    from cortexgraph_vault.handlers.search import relevance, search

    service = service_for(sample_vault)
    queries = ["standup tuesday", "coffee", "project deadline", "tea"]
    expected = [service.search_unified(q, limit=20).model_dump() for q in queries]
    turn = [0]

    def another_order(engine: Any) -> NoteTable:
        turn[0] += 1
        notes = list(engine.catalog.notes())
        random.Random(turn[0]).shuffle(notes)
        return build_table(notes)

    monkeypatch.setattr(search, "note_table", another_order)
    monkeypatch.setattr(relevance, "note_table", another_order)
    assert [service.search_unified(q, limit=20).model_dump() for q in queries] == expected
    assert turn[0] >= len(queries)


def _id_rows(table: NoteTable) -> dict[int, int]:
    """id() of each live note object the table holds → its row."""
    found = dict(zip(map(id, table.notes), range(len(table.notes)), strict=True))
    for row in table.dead:
        if found.get(id(table.notes[row])) == row:
            del found[id(table.notes[row])]
    return found


def _same_as_fresh(table: NoteTable, notes: list[Any]) -> None:
    whole = build_table(notes)
    assert sorted(table.row_of) == sorted(whole.row_of)
    # the live rows are those of the notes held, removed notes' rows left out
    assert sorted(table.paths[r] for r in table.live) == sorted(whole.row_of)
    assert len(_id_rows(table)) == len(notes)  # every live note, none of the removed
    for path, row in whole.row_of.items():
        mine = table.row_of[path]
        assert table.notes[mine] is whole.notes[row]
        assert _id_rows(table)[id(whole.notes[row])] == mine
        for name in ("use_base", "last_used", "strength", "created"):
            a, b = getattr(table, name)[mine], getattr(whole, name)[row]
            assert a == b or (math.isnan(a) and math.isnan(b)), (path, name)


def test_touches_and_edits_in_place_then_a_new_note(tmp_path: Path) -> None:
    """Notes replaced at their place (what a touch does under load, many times a second) are
    followed without copying every row's lookups; the table says what one built afresh says,
    and the next change of another kind (a new note) is followed from it too."""
    vault = a_vault(tmp_path / "vault", {"Notes/Plain.md": "Just a note about tea.\n"})
    service = service_for(vault)
    saved = [service.save(f"Memory {i} about tea and more", tags=["tea"]) for i in range(6)]
    engine = service.engine
    first = note_table(engine)
    first_live = first.live
    service.touch(saved[1].memory_id)
    service.touch(saved[4].memory_id)
    service.touch(saved[4].memory_id)
    (vault / "Notes" / "Plain.md").write_text("Now about coffee.\n", encoding="utf-8")
    engine.fresh()
    touched = note_table(engine)
    assert touched is not first and touched.row_of is first.row_of  # rows kept, shared
    assert touched.live is first_live  # and the live rows with them, not worked out again
    assert touched.use_base[touched.row_of[saved[4].path]] == 3.0
    assert first.use_base[first.row_of[saved[4].path]] == 1.0  # the older table unchanged
    _same_as_fresh(touched, engine.catalog.notes())
    (vault / "Notes" / "New.md").write_text("Another note.\n", encoding="utf-8")
    engine.fresh()
    grown = note_table(engine)
    assert grown.row_of is not touched.row_of and "Notes/New.md" in grown.row_of
    assert grown.row_of["Notes/New.md"] in grown.live.tolist()
    _same_as_fresh(grown, engine.catalog.notes())
    service.touch(saved[0].memory_id)
    _same_as_fresh(note_table(engine), engine.catalog.notes())


def test_notes_only_removed_share_the_last_tables_rows(tmp_path: Path) -> None:
    """A gc beside readers: each removal is a change, and each reader builds a table for it.
    When notes only went away, the new table shares the last one's rows (paths, notes,
    arrays) instead of copying them, loses the removed paths, and says what a table built
    afresh says; the table before is left as it was (a search may still rank with it)."""
    vault = a_vault(
        tmp_path / "vault",
        {"Notes/Plain.md": "Just a note about tea.\n", "Notes/Other.md": "Coffee.\n"},
    )
    service = service_for(vault)
    saved = [service.save(f"Memory {i} about tea and more", tags=["tea"]) for i in range(5)]
    engine = service.engine
    first = note_table(engine)
    (vault / saved[2].path).unlink()
    (vault / "Notes" / "Plain.md").unlink()
    engine.fresh()
    fewer = note_table(engine)
    assert fewer is not first
    assert fewer.status is first.status and fewer.use_base is first.use_base  # shared
    assert fewer.paths is first.paths and fewer.notes is first.notes
    assert saved[2].path not in fewer.row_of and "Notes/Plain.md" not in fewer.row_of
    assert saved[2].path in first.row_of and "Notes/Plain.md" in first.row_of  # unchanged
    assert fewer.rows([saved[2].path, saved[3].path]).tolist() == [-1, first.row_of[saved[3].path]]
    assert len(fewer.live) == len(engine.catalog.notes()) == len(first.live) - 2
    _same_as_fresh(fewer, engine.catalog.notes())
    # and the next changes of other kinds follow from it: a touch, a new note
    service.touch(saved[0].memory_id)
    _same_as_fresh(note_table(engine), engine.catalog.notes())
    (vault / "Notes" / "New.md").write_text("Another note.\n", encoding="utf-8")
    engine.fresh()
    grown = note_table(engine)
    assert "Notes/New.md" in grown.row_of and saved[2].path not in grown.row_of
    _same_as_fresh(grown, engine.catalog.notes())
    assert [r.path for r in service.search_unified("tea", limit=20).results].count(
        saved[2].path
    ) == 0
