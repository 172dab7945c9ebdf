"""The labelled recall set (recall_memories.json) run through the service: every memory saved
as a model would save it, then each message through silent auto-recall, hours apart so no
cooldown hides a use. What it reinforces is compared with what the message is about."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.core.times import format_time
from tests.conftest import NOW
from tests.intelligence.vaults import service_for

SET = Path(__file__).with_name("recall_memories.json")
HELD_OUT = Path(__file__).with_name("recall_memories_heldout.json")
START = NOW - timedelta(days=120)


@dataclass
class Figures:
    pairs: int = 0  # messages × memories judged
    relevant: int = 0  # labelled relevant pairs
    reinforced: int = 0
    right: int = 0  # reinforced and labelled relevant
    wrong: list[tuple[str, str]] = field(default_factory=list)  # (message, memory key)
    missed: list[tuple[str, str]] = field(default_factory=list)
    analysis_disagrees: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.reinforced if self.reinforced else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.relevant if self.relevant else 1.0


def saved_vault(root: Path, source: Path = SET) -> dict[str, str]:
    """The set's memories saved into a new vault at `root`: memory id → key."""
    data = json.loads(source.read_text("utf-8"))
    (root / "_stm").mkdir(parents=True)
    keys: dict[str, str] = {}
    for m in data["memories"]:
        when = format_time(START + timedelta(days=m["day"]))
        saved = service_for(root, now=when, git_commit_writes="false").save(m["text"])
        keys[saved.memory_id] = m["key"]
    return keys


def measure(root: Path, *, analysis: bool = True, source: Path = SET) -> Figures:
    data = json.loads(source.read_text("utf-8"))
    keys = saved_vault(root, source)
    figures = Figures()
    for i, msg in enumerate(data["messages"]):
        when = format_time(START + timedelta(days=60, hours=i))
        service = service_for(root, now=when, git_commit_writes="false")
        if analysis:
            told = service.analyze_for_recall(msg["text"])
        result = service.auto_recall(msg["text"], mode="silent")
        got = {keys[r] for r in result.reinforced_ids}
        wanted = set(msg["relevant"])
        figures.pairs += len(keys)
        figures.relevant += len(wanted)
        figures.reinforced += len(got)
        figures.right += len(got & wanted)
        figures.wrong += [(msg["text"], k) for k in sorted(got - wanted)]
        figures.missed += [(msg["text"], k) for k in sorted(wanted - got)]
        if analysis and bool(got) and not told.should_search:
            figures.analysis_disagrees.append(msg["text"])
    return figures
