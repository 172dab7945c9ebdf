"""Importing the reference MCP memory server's memory.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import NOW_ISO
from tests.importers.helpers import MEMORY_JSON, commits, service, snapshot

MAYA = """---
id: {id}
created: {now}
last_used: {now}
use_count: 1
strength: 1.0
status: promoted
tags: [person]
entities: [Maya Lindqvist]
source: mcp-memory
works_at: ["[[Kestrel Labs]]"]
---
- Leads the platform team
- Prefers written status updates
- Allergic to peanuts
- Lives in Lund
"""


def test_each_entity_becomes_one_note_with_its_observations_as_list_items(vault: Path) -> None:
    svc = service(vault)
    result = svc.import_memory_json(str(MEMORY_JSON))
    assert (result.created, result.skipped) == (3, 0)
    assert sorted(snapshot(vault)) == [
        "memories/Jürgen Groß.md",
        "memories/Kestrel Labs.md",
        "memories/Maya Lindqvist.md",
    ]
    maya_id = svc.open(["Maya Lindqvist"]).memories[0].id
    # The entity appears twice in the file: its observations are merged, none twice.
    assert (vault / "memories/Maya Lindqvist.md").read_text() == MAYA.format(
        id=maya_id, now=NOW_ISO
    )
    assert result.commit is not None and commits(vault) == 1


def test_relations_are_typed_links_and_an_unknown_target_stays_a_link_by_name(vault: Path) -> None:
    svc = service(vault)
    result = svc.import_memory_json(str(MEMORY_JSON))
    jurgen = (vault / "memories/Jürgen Groß.md").read_text()
    assert 'reports_to: ["[[Maya Lindqvist]]"]' in jurgen
    assert "reports_to_meta: {Maya Lindqvist: {type: reports to}}" in jurgen
    assert "tags: [person]" in jurgen  # "Person" and "person" are one tag
    assert 'runs: ["[[Atlas Project]]"]' in (vault / "memories/Kestrel Labs.md").read_text()
    assert any("Atlas Project" in w.reason and w.line == 6 for w in result.warnings)
    detail = svc.read_graph(status="promoted")
    kinds = {(r.from_path, r.relation_type, r.to_path) for r in detail.relations}
    assert ("memories/Maya Lindqvist.md", "works_at", "memories/Kestrel Labs.md") in kinds


def test_bad_lines_are_reported_with_their_numbers(vault: Path) -> None:
    result = service(vault).import_memory_json(str(MEMORY_JSON))
    assert [(p.line, p.reason.split(";")[0]) for p in result.problems] == [
        (8, "relation from 'Nobody': no such entity in the file"),
        (9, "not valid JSON (Expecting value at column 1)"),
        (10, "unknown type 'thing' (expected entity or relation)"),
    ]


def test_importing_again_adds_only_what_is_new_and_keeps_a_persons_edits(
    vault: Path, tmp_path: Path
) -> None:
    service(vault).import_memory_json(str(MEMORY_JSON))
    first, count = snapshot(vault), commits(vault)
    again = service(vault, now="2026-12-05T09:00:00Z").import_memory_json(str(MEMORY_JSON))
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)
    assert snapshot(vault) == first and commits(vault) == count

    note = vault / "memories/Kestrel Labs.md"
    note.write_text(note.read_text() + "- Founded in 2019 (added by hand)\n")
    source = tmp_path / "memory.json"
    shutil.copy(MEMORY_JSON, source)
    with source.open("a") as fh:
        entity = {
            "type": "entity",
            "name": "Kestrel Labs",
            "entityType": "company",
            "observations": ["Hiring in Lund"],
        }
        fh.write(json.dumps(entity) + "\n")
    result = service(vault).import_memory_json(str(source))
    assert (result.created, result.updated) == (0, 1)
    text = note.read_text()
    assert text.endswith("- Office in Malmö\n- Founded in 2019 (added by hand)\n- Hiring in Lund\n")
    assert "tags: [organization, company]" in text


def test_the_older_single_object_form_is_read_too(vault: Path, tmp_path: Path) -> None:
    source = tmp_path / "memory.json"
    graph = {
        "entities": [{"name": "Lund", "entityType": "city", "observations": ["In Skåne"]}],
        "relations": [{"from": "Lund", "to": "Malmö", "relationType": "near"}],
    }
    source.write_text(json.dumps(graph, indent=2))
    result = service(vault).import_memory_json(str(source), status="active")
    assert result.created == 1
    text = (vault / "_stm/Lund.md").read_text()
    assert "status: active" in text and 'near: ["[[Malmö]]"]' in text and "- In Skåne\n" in text


def test_a_dry_run_writes_nothing(vault: Path) -> None:
    result = service(vault).import_memory_json(str(MEMORY_JSON), dry_run=True)
    assert result.dry_run and result.created == 3
    assert snapshot(vault) == {}


def test_an_entity_named_with_a_control_character_is_reported_and_the_rest_imported(
    vault: Path, tmp_path: Path
) -> None:
    source = tmp_path / "memory.json"
    lines = [
        {"type": "entity", "name": "Lund", "entityType": "city", "observations": ["In Skåne"]},
        {"type": "entity", "name": "Mal\u0000mö", "entityType": "city", "observations": ["x"]},
        {"type": "entity", "name": "Ystad", "entityType": "city", "observations": ["By the sea"]},
        {"type": "relation", "from": "Ystad", "to": "Simris\u001bhamn", "relationType": "near"},
    ]
    source.write_text("\n".join(json.dumps(line) for line in lines))
    result = service(vault).import_memory_json(str(source), status="active")
    reasons = [p.reason for p in result.problems]
    assert any("title: holds the control character U+0000 (NUL)" in r for r in reasons), reasons
    assert any("relations[0].target: holds the control character U+001B" in r for r in reasons)
    assert result.created == 1
    assert sorted(p.name for p in (vault / "_stm").iterdir()) == ["Lund.md"]
