"""The labelled evaluation set: precision and recall of the save and recall decisions.

`messages.jsonl` is the development set; `messages_heldout.jsonl` (about 30 % of the messages,
split off at random before any tuning) is only evaluated, never tuned on. Run with `-s` to see
the figures.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cortexgraph_vault.core.intent import analyze_recall, analyze_save

HERE = Path(__file__).parent
MIN_PRECISION = 0.90
MIN_RECALL = 0.85


def load(name: str) -> list[dict[str, object]]:
    return [
        json.loads(line) for line in (HERE / name).read_text("utf-8").splitlines() if line.strip()
    ]


def precision_recall(predicted: list[bool], expected: list[bool]) -> tuple[float, float]:
    tp = sum(p and e for p, e in zip(predicted, expected, strict=True))
    fp = sum(p and not e for p, e in zip(predicted, expected, strict=True))
    fn = sum(e and not p for p, e in zip(predicted, expected, strict=True))
    return (tp / (tp + fp) if tp + fp else 0.0), (tp / (tp + fn) if tp + fn else 0.0)


def test_the_sets_are_large_varied_and_disjoint() -> None:
    dev, held = load("messages.jsonl"), load("messages_heldout.jsonl")
    assert len(dev) >= 150 and 0.25 <= len(held) / (len(dev) + len(held)) <= 0.35
    assert not {m["text"] for m in dev} & {m["text"] for m in held}
    kinds = {m["kind"] for m in dev + held}
    assert {
        "preference",
        "decision",
        "fact",
        "question",
        "smalltalk",
        "request",
        "musing",
        "recall",
    } <= kinds
    for m in dev + held:
        assert isinstance(m["save"], bool) and isinstance(m["recall"], bool)


@pytest.mark.parametrize("name", ["messages.jsonl", "messages_heldout.jsonl"])
def test_precision_and_recall_of_both_decisions(name: str) -> None:
    rows = load(name)
    figures = {}
    for decision, judge in (("save", analyze_save), ("recall", analyze_recall)):
        predicted = [judge(str(m["text"])).should for m in rows]
        expected = [bool(m[decision]) for m in rows]
        figures[decision] = precision_recall(predicted, expected)
        wrong = [m["text"] for m, p, e in zip(rows, predicted, expected, strict=True) if p != e]
        p, r = figures[decision]
        print(
            f"{name} {decision}: precision {p:.3f} recall {r:.3f} ({len(rows)} messages; wrong: {wrong})"
        )
    for decision, (p, r) in figures.items():
        assert p >= MIN_PRECISION, (name, decision, p)
        assert r >= MIN_RECALL, (name, decision, r)
