"""The labelled recall set (recall_memories.json) run through the service: every memory saved
as a model would save it, then each message through silent auto-recall, hours apart so no
cooldown hides a use. What it reinforces is compared with what the message is about."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW

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


class Running:
    """One service over a vault, as a model's MCP server runs for months, with a clock the
    test moves on."""

    def __init__(self, root: Path) -> None:
        self.now = START
        config = load_config({"vault": str(root), "git_commit_writes": "false"})
        self.service = MemoryService(config, clock=lambda: self.now)

    def at(self, when: datetime) -> MemoryService:
        self.now = when
        return self.service


def saved_vault(root: Path, source: Path = SET) -> tuple[dict[str, str], Running]:
    """The set's memories saved into a new vault at `root`: memory id → key, and the service
    that saved them."""
    data = json.loads(source.read_text("utf-8"))
    (root / "_stm").mkdir(parents=True)
    running = Running(root)
    keys: dict[str, str] = {}
    for m in data["memories"]:
        saved = running.at(START + timedelta(days=m["day"])).save(m["text"])
        keys[saved.memory_id] = m["key"]
    return keys, running


def measure(root: Path, *, analysis: bool = True, source: Path = SET) -> Figures:
    data = json.loads(source.read_text("utf-8"))
    keys, running = saved_vault(root, source)
    figures = Figures()
    for i, msg in enumerate(data["messages"]):
        service = running.at(START + timedelta(days=60, hours=i))
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
