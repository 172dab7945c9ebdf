"""Export back to CortexGraph (and to JSON); import → export → import leaves the vault unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument
from tests.conftest import NOW_ISO
from tests.importers.helpers import (
    CORTEXGRAPH,
    MEMORY_JSON,
    commits,
    empty_git_vault,
    fixture_records,
    service,
    snapshot,
)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_import_export_import_into_a_fresh_vault_gives_the_same_bytes(tmp_path: Path) -> None:
    first = empty_git_vault(tmp_path / "first")
    service(first).import_cortexgraph(str(CORTEXGRAPH))
    service(first).export_cortexgraph(str(tmp_path / "out"))
    second = empty_git_vault(tmp_path / "second")
    result = service(second).import_cortexgraph(str(tmp_path / "out"))
    assert result.problems == [] and result.created == 5
    assert snapshot(second) == snapshot(first)


def test_importing_the_export_into_the_same_vault_changes_nothing(tmp_path: Path) -> None:
    vault = empty_git_vault(tmp_path / "vault")
    service(vault).import_cortexgraph(str(CORTEXGRAPH))
    service(vault).import_memory_json(str(MEMORY_JSON))
    before, count = snapshot(vault), commits(vault)
    service(vault).export_cortexgraph(str(tmp_path / "out"))
    result = service(vault).import_cortexgraph(str(tmp_path / "out"))
    assert (result.created, result.updated, result.unchanged) == (0, 0, 8)
    assert snapshot(vault) == before and commits(vault) == count


def test_the_export_holds_what_cortexgraph_had(tmp_path: Path) -> None:
    """A person going back gets their records: same ids, times, counts, strengths, statuses."""
    vault = empty_git_vault(tmp_path / "vault")
    service(vault).import_cortexgraph(str(CORTEXGRAPH))
    result = service(vault).export_cortexgraph(str(tmp_path / "out"))
    assert (result.memories, result.relations) == (5, 3)
    exported = {r["id"]: r for r in lines(tmp_path / "out" / "memories.jsonl")}
    originals = fixture_records()
    assert sorted(exported) == sorted(originals)
    same = ("content", "created_at", "last_used", "use_count", "strength", "status", "promoted_at",
            "promoted_to", "entities", "review_count", "last_review_at", "cross_domain_count")  # fmt: skip
    for mid, original in originals.items():
        mine = exported[mid]
        assert {k: mine[k] for k in same} == {k: original.get(k) for k in same}, mid
        meta = mine["meta"]
        assert isinstance(meta, dict)
        assert (meta["source"], meta["context"], meta["extra"]) == (
            original["meta"]["source"], original["meta"]["context"], original["meta"]["extra"],
        )  # fmt: skip
        assert mine["embed"] is None
    assert exported["m-unicode"]["meta"]["tags"] == ["café_crème", "日本"]  # type: ignore[index]
    relations = {r["id"]: r for r in lines(tmp_path / "out" / "relations.jsonl")}
    assert relations["r-1"] == {
        "id": "r-1", "from_memory_id": "m-coffee", "to_memory_id": "m-tz",
        "relation_type": "related", "strength": 0.9, "created_at": 1795200300,
        "metadata": {"why": "both about Maya's team"},
    }  # fmt: skip
    assert sorted(relations) == ["r-1", "r-2", "r-5"]


def test_relations_made_in_the_vault_are_exported_with_their_strength(
    git_vault: Path, tmp_path: Path
) -> None:
    svc = service(git_vault)
    svc.relate(
        "Time zone", "Standup moved later", "supports", strength=0.4, metadata={"why": "timing"}
    )
    result = svc.export_cortexgraph(str(tmp_path / "out"))
    assert result.memories == 24
    relations = lines(tmp_path / "out" / "relations.jsonl")
    made = [r for r in relations if r["relation_type"] == "supports"]
    assert len(made) == 1
    assert (made[0]["strength"], made[0]["metadata"]) == (0.4, {"why": "timing"})
    # Links from memories to ordinary notes are not CortexGraph relations.
    ids = {r["id"] for r in lines(tmp_path / "out" / "memories.jsonl")}
    assert all(r["to_memory_id"] in ids for r in relations)
    assert "links to notes that are not memories" in result.message


def test_an_export_never_replaces_files_unless_forced(tmp_path: Path) -> None:
    vault = empty_git_vault(tmp_path / "vault")
    svc = service(vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    store = tmp_path / "theirs"
    store.mkdir()
    (store / "memories.jsonl").write_text("their precious data\n")
    with pytest.raises(InvalidArgument, match="already exists"):
        svc.export_cortexgraph(str(store))
    assert (store / "memories.jsonl").read_text() == "their precious data\n"
    assert not (store / "relations.jsonl").exists()
    svc.export_cortexgraph(str(store), force=True)
    assert len(lines(store / "memories.jsonl")) == 5


def test_the_json_export_is_one_file_with_every_memory_and_link(
    git_vault: Path, tmp_path: Path
) -> None:
    svc = service(git_vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    result = svc.export_json(str(tmp_path / "all.json"))
    document = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert document["format"] == "cortexgraph-vault-export" and document["version"] == 1
    assert document["exported_at"] == NOW_ISO
    assert len(document["memories"]) == result.memories == 29
    unicode = next(m for m in document["memories"] if m["id"] == "m-unicode")
    assert unicode["content"].startswith("Café Crème")
    assert unicode["frontmatter"]["created"] == "2026-11-10T08:15:00Z"
    assert unicode["score"] > 0
    link = next(r for r in document["relations"] if r["from_memory_id"] == "m-coffee")
    assert (link["relation_type"], link["to_memory_id"], link["meta"]["strength"]) == (
        "related",
        "m-tz",
        0.9,
    )
    with pytest.raises(InvalidArgument, match="already exists"):
        svc.export_json(str(tmp_path / "all.json"))
