"""Reading CortexGraph's JSONL: pure, bytes in, drafts and problems (with line numbers) out."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from cortexgraph_vault.handlers.writes.secret_check import screen_import
from cortexgraph_vault.importers.cortexgraph import latest, memory_draft, plan_import, read_jsonl
from cortexgraph_vault.importers.records import relation_meta_entry, relation_property

FIXTURES = Path(__file__).parent / "fixtures" / "cortexgraph"


def a_record(**fields: object) -> dict[str, object]:
    record: dict[str, object] = {
        "id": "m-1",
        "content": "Tea, not coffee.",
        "meta": {"tags": ["drinks"], "source": None, "context": None, "extra": {}},
        "created_at": 1793523600,
        "last_used": 1793523600,
        "use_count": 0,
        "strength": 1.0,
        "status": "active",
    }
    record.update(fields)
    return record


def jsonl(*records: object, last_newline: bool = True) -> bytes:
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records)
    return (text + ("\n" if last_newline else "")).encode()


def test_a_truncated_last_line_is_reported_with_its_number_and_the_rest_is_read() -> None:
    data = jsonl(
        a_record(id="a"), a_record(id="b"), '{"id": "c", "content": "cut of', last_newline=False
    )
    entries, problems, count = read_jsonl(data, "memories.jsonl")
    assert [obj["id"] for _, obj in entries] == ["a", "b"]
    assert count == 3
    assert [(p.line, p.reason.split(" (")[0]) for p in problems] == [(3, "truncated last line")]


def test_a_corrupt_line_in_the_middle_is_skipped_and_named_not_truncated() -> None:
    data = jsonl(a_record(id="a"), "{not json", "", "[1, 2]", a_record(id="b"))
    entries, problems, _ = read_jsonl(data, "memories.jsonl")
    assert [n for n, _ in entries] == [1, 5]
    assert [p.line for p in problems] == [2, 4]
    assert problems[0].reason.startswith("not valid JSON")
    assert problems[1].reason == "not a JSON object; skipped"


def test_bytes_that_are_not_utf8_are_a_problem_of_that_line_only() -> None:
    data = jsonl(a_record(id="a")) + b'{"id": "x\xff"}\n' + jsonl(a_record(id="b"))
    entries, problems, _ = read_jsonl(data, "memories.jsonl")
    assert [obj["id"] for _, obj in entries] == ["a", "b"]
    assert problems[0].line == 2 and "not UTF-8" in problems[0].reason


def test_the_last_line_of_an_id_wins_and_a_tombstone_removes_it_until_it_is_saved_again() -> None:
    entries, _, _ = read_jsonl(
        jsonl(
            a_record(id="a", use_count=1),
            a_record(id="b"),
            a_record(id="a", use_count=2),
            {"id": "b", "_deleted": True},
            a_record(id="c"),
            {"id": "c", "_deleted": True},
            a_record(id="c", content="back again"),
        ),
        "memories.jsonl",
    )
    alive, problems, superseded, tombstones = latest(entries, "memories.jsonl")
    assert problems == []
    assert sorted(alive) == ["a", "c"]
    assert alive["a"][0] == 3 and alive["a"][1]["use_count"] == 2
    assert alive["c"][1]["content"] == "back again"
    assert (superseded, tombstones) == (1, 2)


def test_their_use_count_counts_uses_after_the_save_ours_counts_the_save_too() -> None:
    draft, warnings = memory_draft(1, a_record(use_count=3, strength=1.5), "memories.jsonl")
    assert draft is not None and warnings == []
    assert draft.fields["use_count"] == 4
    assert draft.fields["strength"] == 1.5
    assert draft.fields["created"] == datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
    assert draft.body == "Tea, not coffee.\n"
    assert draft.title == "Tea, not coffee"


def test_records_that_cannot_be_memories_say_why() -> None:
    cases = {
        "no content": a_record(content="  "),
        "no 'created_at'": a_record(created_at=None),
        "last_used is not a time": a_record(last_used="yesterday"),
        "use_count is not a count": a_record(use_count=-1),
        "strength is not a finite number": a_record(strength=-0.5),
    }
    for expected, record in cases.items():
        draft, problems = memory_draft(7, record, "memories.jsonl")
        assert draft is None
        assert problems[0].line == 7 and expected in problems[0].reason, problems


def test_a_memory_that_looks_like_a_secret_needs_consent() -> None:
    record = a_record(content="the api key is sk-ant-abcdefghijklmnopqrstuvwx1234")
    data = (json.dumps(record) + "\n").encode()
    plan = screen_import(plan_import(data, None, "store"), allow_secrets=False)
    assert plan.drafts == [] and "--allow-secrets" in plan.problems[0].reason
    assert "content" in plan.problems[0].reason
    taken = screen_import(plan_import(data, None, "store"), allow_secrets=True)
    assert [d.title for d in taken.drafts] == ["the api key is [redacted]"]


def test_odd_values_are_imported_with_a_warning() -> None:
    draft, warnings = memory_draft(4, a_record(strength=3.5, status="frozen"), "memories.jsonl")
    assert draft is not None
    assert draft.fields["strength"] == 2.0 and draft.status == "active"
    assert ["capped" in w.reason or "unknown status" in w.reason for w in warnings] == [True, True]


def test_the_fixture_reads_as_the_records_a_person_would_expect() -> None:
    plan = plan_import(
        (FIXTURES / "memories.jsonl").read_bytes(),
        (FIXTURES / "relations.jsonl").read_bytes(),
        str(FIXTURES),
    )
    assert [d.id for d in plan.drafts] == [
        "m-archived",
        "m-promoted",
        "m-coffee",
        "m-tz",
        "m-unicode",
    ]
    assert {(p.file, p.line) for p in plan.problems} == {
        ("memories.jsonl", 9),
        ("memories.jsonl", 11),
        ("memories.jsonl", 12),
        ("relations.jsonl", 8),
    }
    assert (plan.superseded, plan.tombstones) == (2, 2)
    coffee = next(d for d in plan.drafts if d.id == "m-coffee")
    assert coffee.line == 3 and coffee.fields["use_count"] == 4
    # r-1 was written twice: the later line (strength 0.9, with metadata) wins; r-3 points
    # at the deleted m-temp and is dropped by the writer, not here.
    assert [(r.kind, r.target_id, r.meta and r.meta.get("strength")) for r in coffee.relations] == [
        ("related", "m-temp", None),
        ("related", "m-tz", 0.9),
    ]
    promoted = next(d for d in plan.drafts if d.id == "m-promoted")
    assert promoted.title == "Commit style" and promoted.status == "promoted"


def test_relation_types_become_safe_property_names() -> None:
    assert relation_property("supports") == "supports"
    assert relation_property("Works At") == "works_at"
    assert relation_property("reports-to") == "reports_to"
    assert relation_property("tags") == "rel_tags"
    assert relation_property("2nd") == "rel_2nd"
    assert relation_property("!!!") == "related"


def test_a_companion_entry_reads_the_same_whether_relate_or_an_import_wrote_it() -> None:
    assert relation_meta_entry("strength=0.5; why=tea") == {
        "strength": 0.5,
        "metadata": {"why": "tea"},
    }
    assert relation_meta_entry({"id": "r-1", "strength": 0.9}) == {"id": "r-1", "strength": 0.9}
    assert relation_meta_entry(None) == {}
