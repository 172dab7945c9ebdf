"""The labelled pairs of replacement_pairs.jsonl judged by core/supersession.py: each pair
alone (an old statement, a new one saved later), word rarity from every sentence of the set."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from cortexgraph_vault.core.replacement import Statement, likely_replaced
from cortexgraph_vault.core.use_relevance import WordWeights, content_words, idf_rarity
from cortexgraph_vault.index.text_index import stems

PAIRS = Path(__file__).with_name("replacement_pairs.jsonl")
HELD_OUT = Path(__file__).with_name("replacement_pairs_heldout.jsonl")


def pairs(source: Path = PAIRS) -> list[dict[str, object]]:
    return [json.loads(line) for line in source.read_text("utf-8").splitlines() if line.strip()]


def set_weights(texts: list[str]) -> WordWeights:
    frequencies: dict[str, int] = {}
    for text in dict.fromkeys(texts):
        for s in set(stems(content_words(text))):
            frequencies[s] = frequencies.get(s, 0) + 1
    return WordWeights(stems, idf_rarity(len(set(texts)), frequencies))


@dataclass
class Figures:
    replacements: int = 0
    listed: int = 0
    listed_right: int = 0
    strong: int = 0
    strong_right: int = 0
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def ratio(self, a: int, b: int) -> float:
        return a / b if b else 1.0

    def line(self) -> str:
        r = self.ratio
        return (
            f"{self.replacements} replacements among {self.total} pairs: "
            f"listed precision {r(self.listed_right, self.listed):.2f} recall "
            f"{r(self.listed_right, self.replacements):.2f}; strong precision "
            f"{r(self.strong_right, self.strong):.2f} recall {r(self.strong_right, self.replacements):.2f}"
        )

    total: int = 0


def measure(source: Path = PAIRS) -> Figures:
    data = pairs(source)
    weights = set_weights([str(p["old"]) for p in data] + [str(p["new"]) for p in data])
    f = Figures()
    for p in data:
        f.total += 1
        truth = bool(p["replaces"])
        found = likely_replaced(str(p["new"]), [Statement("old", "old", str(p["old"]))], weights)
        listed, strong = bool(found), bool(found) and found[0].strong
        f.replacements += truth
        f.listed += listed
        f.listed_right += listed and truth
        f.strong += strong
        f.strong_right += strong and truth
        tag = f"{p['old']} → {p['new']}" + (f"  [{found[0].why}]" if found else "")
        if listed and not truth:
            f.wrong.append(("STRONG " if strong else "listed ") + tag)
        if truth and not strong:
            f.missed.append(("unlisted " if not listed else "weak ") + tag)
    return f
