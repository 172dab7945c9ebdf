"""Importing a CortexGraph store into a real vault (real files, real git)."""

from __future__ import annotations

import json
import math
import random
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cortexgraph_vault.errors import NotFound
from tests.conftest import NOW, git
from tests.importers.helpers import (
    CORTEXGRAPH,
    append,
    commits,
    copy_store,
    fixture_records,
    service,
    snapshot,
)

COFFEE = """---
id: m-coffee
created: 2026-11-01T09:00:00Z
last_used: 2026-11-28T07:00:00Z
use_count: 4
strength: 1.0
status: active
tags: [preferences, food]
entities: [Maya]
source: chat
related: ["[[Jonas works from Berlin (CET) and prefers meetings after 10 00]]"]
related_meta: {Jonas works from Berlin (CET) and prefers meetings after 10 00: {id: r-1, strength: 0.9, created: 2026-11-20T18:45:00Z, metadata: {why: both about Maya's team}}}
---
Maya drinks her coffee black, no sugar.
"""


def test_each_surviving_memory_becomes_a_note_in_the_folder_of_its_status(vault: Path) -> None:
    result = service(vault).import_cortexgraph(str(CORTEXGRAPH))
    assert (result.created, result.updated, result.skipped) == (5, 0, 0)
    assert sorted(snapshot(vault)) == [
        "_archive/Project Falcon ran on Python 3.8.md",
        "_stm/Café Crème im Büro Jürgen trinkt 🍵 grünen Tee.md",
        "_stm/Jonas works from Berlin (CET) and prefers meetings after 10 00.md",
        "_stm/Maya drinks her coffee black, no sugar.md",
        "memories/Commit style.md",
    ]
    # The later of its two lines, its relation as a typed link with the relation's own
    # strength, id and metadata beside it; the relation to the deleted memory is gone.
    assert (vault / "_stm/Maya drinks her coffee black, no sugar.md").read_text() == COFFEE


def test_unicode_tags_meta_and_review_fields_survive(vault: Path) -> None:
    svc = service(vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    [view] = svc.open(["m-unicode"]).memories
    assert view.content == "Café Crème im Büro: Jürgen trinkt 🍵 grünen Tee — 日本語のメモ."
    assert view.tags == ["café_crème", "日本"]
    assert view.entities == ["Jürgen"]
    assert view.context == "Gespräch über Getränke"
    assert view.review_count == 2
    assert [(r.relation_type, r.to_memory_id) for r in view.relations.outgoing] == [
        ("contradicts", "m-coffee")
    ]
    text = (vault / view.path).read_text()
    assert "meta: {mood: ruhig, priority: 2}" in text
    assert "last_review_at: 2026-11-28T07:00:00Z" in text and "cross_domain_count: 1" in text


def test_promoted_and_archived_memories_keep_their_status(vault: Path) -> None:
    svc = service(vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    [promoted, archived] = svc.open(["m-promoted", "m-archived"]).memories
    assert (promoted.status, promoted.path) == ("promoted", "memories/Commit style.md")
    assert promoted.promoted_at == "2026-10-15T12:00:00Z"
    assert (archived.status, archived.path) == (
        "archived",
        "_archive/Project Falcon ran on Python 3.8.md",
    )
    assert "has_decision" in [
        r.relation_type for r in svc.open(["m-archived"]).memories[0].relations.outgoing
    ]


def test_bad_lines_are_reported_with_their_numbers_and_stop_nothing(vault: Path) -> None:
    result = service(vault).import_cortexgraph(str(CORTEXGRAPH))
    assert [(p.file, p.line) for p in result.problems] == [
        ("memories.jsonl", 9),
        ("memories.jsonl", 11),
        ("memories.jsonl", 12),
        ("relations.jsonl", 3),
        ("relations.jsonl", 8),
    ]
    reasons = {(p.file, p.line): p.reason for p in result.problems}
    assert reasons["memories.jsonl", 12].startswith("truncated last line")
    assert "m-temp" in reasons["relations.jsonl", 3]
    assert (result.superseded, result.tombstones, result.relations) == (2, 2, 3)


def test_scores_equal_cortexgraphs_formula_for_the_same_records(vault: Path) -> None:
    """Theirs: (use_count+1)^0.6 · strength · e^(−λΔt) with use_count 0 at save; ours counts the
    save as a use. With the same λ (exponential model), the numbers must agree."""
    # the records' own era (their times are fixed Unix seconds), not the tests' moving clock
    now = datetime(2026, 12, 1, 12, tzinfo=UTC).timestamp()
    svc = service(vault, now="2026-12-01T12:00:00Z", decay_model="exponential")
    svc.import_cortexgraph(str(CORTEXGRAPH))
    lam = math.log(2) / (3 * 86400)
    records = fixture_records()
    views = svc.open(sorted(records)).memories
    assert len(views) == 5
    for view in views:
        r = records[view.id]
        theirs = (
            (r["use_count"] + 1) ** 0.6 * r["strength"] * math.exp(-lam * (now - r["last_used"]))
        )
        assert view.score == pytest.approx(theirs, abs=1e-6), view.id


def test_one_git_commit_records_exactly_the_imported_notes(vault: Path) -> None:
    before = commits(vault)
    result = service(vault).import_cortexgraph(str(CORTEXGRAPH))
    assert commits(vault) == before + 1
    assert result.commit is not None
    files = git(vault, "-c", "core.quotepath=off", "show", "--name-only", "--format=", "HEAD")
    assert sorted(files.splitlines()) == sorted(snapshot(vault))
    message = git(vault, "log", "-1", "--format=%B")
    assert message.startswith("import: 5 memories from CortexGraph")
    assert "Cortexgraph-Memory: m-unicode" in message
    assert git(vault, "status", "--porcelain") == ""


def test_a_dry_run_shows_the_plan_and_writes_nothing(vault: Path) -> None:
    result = service(vault).import_cortexgraph(str(CORTEXGRAPH), dry_run=True)
    assert result.dry_run and result.created == 5
    assert "memories/Commit style.md" in [i.path for i in result.items]
    assert snapshot(vault) == {} and commits(vault) == 0


def test_importing_again_creates_no_duplicate_and_changes_nothing(vault: Path) -> None:
    svc = service(vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    first, count = snapshot(vault), commits(vault)
    again = service(vault).import_cortexgraph(str(CORTEXGRAPH))
    assert (again.created, again.updated, again.unchanged) == (0, 0, 5)
    assert again.commit is None
    assert snapshot(vault) == first and commits(vault) == count


def test_a_newer_source_record_updates_the_note_and_moves_it_when_promoted(
    vault: Path, tmp_path: Path
) -> None:
    store = copy_store(tmp_path / "store")
    service(vault).import_cortexgraph(str(store))
    records = fixture_records()
    # A person added a property of their own meanwhile: it must survive the update.
    note = vault / "_stm/Maya drinks her coffee black, no sugar.md"
    note.write_text(note.read_text().replace("source: chat\n", "source: chat\nmood: cosy\n"))
    later = 1796032800  # 2026-11-30T10:00Z
    append(
        store / "memories.jsonl",
        {**records["m-coffee"], "use_count": 5, "last_used": later},
        {**records["m-tz"], "status": "promoted", "promoted_at": later, "last_used": later},
    )
    result = service(vault).import_cortexgraph(str(store))
    assert (result.updated, result.unchanged) == (2, 3)
    text = note.read_text()
    assert "use_count: 6" in text and "last_used: 2026-11-30T10:00:00Z" in text
    assert "mood: cosy" in text
    moved = next(i for i in result.items if i.id == "m-tz")
    assert (
        moved.moved_from == "_stm/Jonas works from Berlin (CET) and prefers meetings after 10 00.md"
    )
    assert (
        moved.path == "memories/Jonas works from Berlin (CET) and prefers meetings after 10 00.md"
    )
    assert not (vault / moved.moved_from).exists() and (vault / moved.path).exists()
    assert git(vault, "status", "--porcelain") == ""


def test_the_vaults_newer_copy_is_kept_unless_told_to_overwrite(
    vault: Path, tmp_path: Path
) -> None:
    store = copy_store(tmp_path / "store")
    service(vault).import_cortexgraph(str(store))
    # Used in the vault after the import: the vault's copy is now the newer one.
    service(vault, now="2026-12-01T13:00:00Z").touch("m-coffee")
    append(store / "memories.jsonl", {**fixture_records()["m-coffee"], "strength": 1.8})
    kept = service(vault).import_cortexgraph(str(store))
    item = next(i for i in kept.items if i.id == "m-coffee")
    assert item.action == "kept" and "--overwrite" in (item.reason or "")
    assert service(vault).open(["m-coffee"]).memories[0].strength == 1.0
    forced = service(vault).import_cortexgraph(str(store), overwrite=True)
    assert next(i for i in forced.items if i.id == "m-coffee").action == "updated"
    assert service(vault).open(["m-coffee"]).memories[0].strength == 1.8


def test_imports_into_a_vault_with_notes_of_its_own(git_vault: Path) -> None:
    before = snapshot(git_vault)
    result = service(git_vault).import_cortexgraph(str(CORTEXGRAPH))
    after = snapshot(git_vault)
    assert result.created == 5
    assert all(after[path] == data for path, data in before.items())
    assert len(after) == len(before) + 5


def test_a_missing_store_is_a_clear_error_and_changes_nothing(vault: Path, tmp_path: Path) -> None:
    with pytest.raises(NotFound, match=r"memories\.jsonl"):
        service(vault).import_cortexgraph(str(tmp_path / "nowhere"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotFound, match=r"neither memories\.jsonl nor relations\.jsonl"):
        service(vault).import_cortexgraph(str(tmp_path / "empty"))
    assert snapshot(vault) == {}


def test_the_created_time_orders_file_names_whatever_the_line_order(
    vault: Path, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "memories.jsonl").write_text("")
    same = {
        "content": "Same words",
        "meta": {},
        "use_count": 0,
        "strength": 1.0,
        "status": "active",
    }
    append(
        store / "memories.jsonl",
        {**same, "id": "late", "created_at": 1795000000, "last_used": 1795000000},
        {**same, "id": "early", "created_at": 1794000000, "last_used": 1794000000},
    )
    result = service(vault).import_cortexgraph(str(store))
    paths = {i.id: i.path for i in result.items}
    assert paths == {"early": "_stm/Same words.md", "late": "_stm/Same words 2.md"}


def test_a_file_that_appears_under_a_planned_name_is_left_alone_and_links_follow(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cortexgraph_vault.importers import writer

    real = writer.write_new_unsynced
    theirs = "Jonas works from Berlin (CET) and prefers meetings after 10 00.md"

    def person_types_first(path: Path, data: bytes) -> bool:
        if path.name == theirs and not path.exists():
            path.write_text("a person's own note\n")  # made in Obsidian, between plan and write
        return real(path, data)

    monkeypatch.setattr(writer, "write_new_unsynced", person_types_first)
    result = service(vault).import_cortexgraph(str(CORTEXGRAPH))
    assert (vault / "_stm" / theirs).read_text() == "a person's own note\n"
    moved = next(i for i in result.items if i.id == "m-tz")
    assert moved.path == "_stm/Jonas works from Berlin (CET) and prefers meetings after 10 00 2.md"
    coffee = (vault / "_stm/Maya drinks her coffee black, no sugar.md").read_text()
    assert (
        'related: ["[[Jonas works from Berlin (CET) and prefers meetings after 10 00 2]]"]'
        in coffee
    )
    assert (
        "related_meta: {Jonas works from Berlin (CET) and prefers meetings after 10 00 2: {id: r-1"
        in coffee
    )
    [view] = service(vault).open(["m-coffee"]).memories
    assert [r.to_memory_id for r in view.relations.outgoing] == ["m-tz"]


def test_a_title_a_file_name_cannot_hold_is_kept_as_an_alias(vault: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "memories.jsonl").write_text("")
    append(
        store / "memories.jsonl",
        {"id": "m-standup", "content": "Standup is at 9:30 on weekdays", "created_at": 1793523600,
         "last_used": 1793523600, "use_count": 0, "strength": 1.0, "status": "active"},
    )  # fmt: skip
    service(vault).import_cortexgraph(str(store))
    note = vault / "_stm" / "Standup is at 9 30 on weekdays.md"
    assert "aliases: [Standup is at 9:30 on weekdays]" in note.read_text(encoding="utf-8")
    shown = service(vault).open(["m-standup"]).memories[0]
    assert shown.title == "Standup is at 9:30 on weekdays"
    before = snapshot(vault)
    again = service(vault).import_cortexgraph(str(store))
    assert again.unchanged == 1 and snapshot(vault) == before


def _uuid_store(folder: Path, count: int, seed: int) -> list[str]:
    """A CortexGraph store whose every id is a random UUID (seeded), as real stores have;
    each memory names the next one by id in its text and links to it by a relation."""
    rng = random.Random(seed)
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(count)]
    ids[0] = "d6755870-be0a-5297-9123-723605b93ccf"  # an id an import once refused as a card
    folder.mkdir()
    created = int(NOW.timestamp()) - 86_400
    memories = [
        {"id": mid, "content": f"Memory {i} of the import; see {ids[(i + 1) % count]}.",
         "meta": {"tags": ["imported"], "source": f"session {mid}", "extra": {"ref": mid}},
         "created_at": created, "last_used": created, "use_count": 1}
        for i, mid in enumerate(ids)
    ]  # fmt: skip
    relations = [
        {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "from_memory_id": mid,
         "to_memory_id": ids[(i + 1) % count], "relation_type": "related",
         "metadata": {"via": ids[(i + 2) % count]}}
        for i, mid in enumerate(ids)
    ]  # fmt: skip
    (folder / "memories.jsonl").write_text("".join(json.dumps(m) + "\n" for m in memories))
    (folder / "relations.jsonl").write_text("".join(json.dumps(r) + "\n" for r in relations))
    return ids


def test_no_memory_of_a_large_import_is_refused_for_its_uuids(vault: Path, tmp_path: Path) -> None:
    ids = _uuid_store(tmp_path / "store", 3_000, seed=33)
    planned = service(vault).import_cortexgraph(str(tmp_path / "store"), dry_run=True)
    assert planned.problems == []
    assert planned.created == len(ids)


def test_every_memory_with_uuids_everywhere_is_imported(vault: Path, tmp_path: Path) -> None:
    ids = _uuid_store(tmp_path / "store", 300, seed=7)
    result = service(vault).import_cortexgraph(str(tmp_path / "store"))
    assert (result.created, result.problems) == (len(ids), [])
    texts = "".join(p.read_text() for p in (vault / "_stm").glob("*.md"))
    assert all(f"id: {mid}\n" in texts for mid in ids)
