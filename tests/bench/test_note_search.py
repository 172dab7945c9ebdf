"""The note-search bench asks each question set of its own through MCP `search_unified` and
counts each set apart, on a made-up folder of notes (never Obsidian's help vault itself)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.note_search import (
    HELD_OUT,
    HELD_OUT_2,
    HELD_OUT_3,
    HELD_OUT_4,
    QUESTIONS,
    NoteQuestion,
    evaluate_notes,
    load_questions,
)
from bench.recall import _print_extra

NOTES = {
    "Plugins/Cello lessons.md": "How to book a cello lesson with a teacher near you.\n",
    "Plugins/Greyhound care.md": "Feeding and walking a greyhound every day.\n",
    "Garden/Tomatoes.md": "Tomatoes need sun, water and a stake to climb.\n",
    ".obsidian/ignored.md": "cello greyhound tomatoes\n",  # a hidden folder takes no part
}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    root = tmp_path / "en"
    for rel, text in NOTES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_each_set_is_a_row_of_its_own(source: Path) -> None:
    sets = {
        "dev": [
            NoteQuestion("cello teacher", frozenset({"Plugins/Cello lessons.md"})),
            NoteQuestion("walking a greyhound", frozenset({"Plugins/Greyhound care.md"})),
        ],
        "held-out": [
            NoteQuestion("tomatoes in the sun", frozenset({"Garden/Tomatoes.md"})),
            NoteQuestion("quantum chromodynamics", frozenset({"Garden/Tomatoes.md"})),
        ],
    }
    # words alone: the bench's protocol, without the encoder's minute
    found = evaluate_notes(source, sets, settings={"meaning_search": False})
    assert list(found) == ["dev", "held-out"]
    dev, held = found["dev"].summary(), found["held-out"].summary()
    assert (dev["questions"], dev["hit@3"], dev["hit@10"], dev["mrr@10"]) == (2, 2, 2, 1.0)
    assert (held["questions"], held["hit@3"], held["hit@10"]) == (2, 1, 1)
    assert held["mrr@10"] == 0.5
    rows = found["held-out"].rows
    assert rows[0]["rank"] == 1 and rows[0]["top"][0] == "Garden/Tomatoes.md"
    assert rows[1]["rank"] is None
    assert not any(p.startswith(".obsidian") for r in rows for p in r["top"])


def test_a_question_naming_a_note_the_folder_lacks_is_named(source: Path) -> None:
    sets = {"held-out": [NoteQuestion("cello", frozenset({"Plugins/Harp.md"}))]}
    with pytest.raises(
        SystemExit, match=r"the questions name notes it lacks: \['Plugins/Harp.md'\]"
    ):
        evaluate_notes(source, sets, settings={"meaning_search": False})


def test_both_rows_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    row = {"questions": 30, "hit@3": 22, "hit@10": 25, "mrr@10": 0.717, "vectors_s": 41.0}
    extra = {"notes": {"vault": "/x/en", "sets": {"dev": {**row, "questions": 41, "hit@3": 38},
                                                  "held-out": row}}}  # fmt: skip
    _print_extra(extra, as_json=False)
    out = capsys.readouterr().out
    assert "| dev | 41 | 38/41 | 25/41 | 0.717 |" in out
    assert "| held-out | 30 | 22/30 | 25/30 | 0.717 |" in out
    assert "made in 41 s" in out


def test_the_held_out_sets_ask_what_the_dev_set_does_not() -> None:
    asked = {q.text.lower() for q in load_questions(QUESTIONS)}
    for path, count in ((HELD_OUT, 30), (HELD_OUT_2, 25), (HELD_OUT_3, 25), (HELD_OUT_4, 25)):
        held = load_questions(path)
        assert len(held) == count, path.name
        assert not [q.text for q in held if q.text.lower() in asked], path.name
        asked |= {q.text.lower() for q in held}
        for q in held:
            assert q.notes and all(n.endswith(".md") and not n.startswith("/") for n in q.notes)
        about = json.loads(path.read_text(encoding="utf-8"))["about"]
        assert "before" in about and "never edited" in about, path.name
