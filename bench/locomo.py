"""LoCoMo conversations read from the dataset's JSON, and one vault of memories per conversation.

The protocol (issue 14, so figures compare across tools): one memory note in `_stm/` per
dialogue turn, body `Speaker: text` (plus ` [shares <blip_caption>]` when the turn shares an
image), `created` and `last_used` at the session's date-time plus 30 s per turn, `use_count` 1,
`strength` 1.0; the clock one day after the last session; questions of categories 1–4 that name
at least one evidence turn (category 5 is adversarial and has none).

Notes are written as files (the way a person's or a sync tool's notes arrive), named as
`save_memory` names them (the content's first words, made unique), each with a real `id` and
its turn in the frontmatter key `dia_id`, which the product keeps as an unknown key.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cortexgraph_vault.core.note import render_note
from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.vault.layout import title_from_content, unique_name

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
TURN_STEP = timedelta(seconds=30)
# Stable ids: the same data gives the same vault, run after run.
ID_NAMESPACE = uuid.UUID("6f1d2c3b-8a4e-4f6b-9c1d-2e3f4a5b6c7d")
_SESSION = re.compile(r"session_(\d+)")
# The dataset names turns `D<session>:<turn>`; a few evidence entries are mistyped
# ("D:11:26", "D8:6; D9:17"): read every well-formed id they contain.
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    at: datetime
    caption: str | None = None

    @property
    def body(self) -> str:
        shared = f" [shares {self.caption}]" if self.caption else ""
        return f"{self.speaker}: {self.text}{shared}"


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: frozenset[str]


@dataclass(frozen=True)
class Conversation:
    name: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    now: datetime  # one day after the last session


def parse_session_time(text: str) -> datetime:
    """`1:56 pm on 8 May, 2023` (the dataset's format), read as UTC."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(
            f"session date-time {text!r}: expected e.g. '1:56 pm on 8 May, 2023'"
        ) from None


def evidence_ids(entries: Iterable[str]) -> frozenset[str]:
    return frozenset(f"D{s}:{t}" for entry in entries for s, t in _DIA_ID.findall(entry))


def conversation_from(item: dict, name: str) -> Conversation:
    talk = item["conversation"]
    turns: list[Turn] = []
    session_times = []
    sessions = sorted(int(m.group(1)) for k in talk if (m := _SESSION.fullmatch(k)))
    for number in sessions:
        if not talk[f"session_{number}"]:
            continue
        start = parse_session_time(talk[f"session_{number}_date_time"])
        session_times.append(start)
        for index, turn in enumerate(talk[f"session_{number}"]):
            turns.append(
                Turn(turn["dia_id"], turn["speaker"], turn["text"], start + index * TURN_STEP,
                     turn.get("blip_caption") or None)
            )  # fmt: skip
    if not turns:
        raise ValueError(f"{name}: the conversation has no dialogue turns")
    questions = tuple(
        Question(qa["question"], qa["category"], evidence_ids(qa.get("evidence") or []))
        for qa in item.get("qa", [])
        if qa.get("category") in CATEGORIES and qa.get("evidence")
    )
    return Conversation(name, tuple(turns), questions, max(session_times) + timedelta(days=1))


def load_conversations(path: Path) -> list[Conversation]:
    """Every conversation in a LoCoMo JSON file (the `locomo10.json` layout)."""
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"{path}: cannot read the LoCoMo data ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise SystemExit(f"{path}: not JSON ({exc})") from None
    if not isinstance(items, list):
        raise SystemExit(f"{path}: expected a list of conversations (locomo10.json layout)")
    try:
        return [
            conversation_from(item, str(item.get("sample_id", f"conversation {i}")))
            for i, item in enumerate(items)
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise SystemExit(f"{path}: not in the locomo10.json layout ({exc!r})") from None


def write_vault(conversation: Conversation, root: Path, stm: str = "_stm") -> dict[str, str]:
    """One memory note per turn under `root/stm`; returns vault-relative path → dia_id."""
    folder = root / stm
    folder.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    paths: dict[str, str] = {}
    for turn in conversation.turns:
        body = turn.body
        name = unique_name(title_from_content(body), lambda n: name_key(n) in taken)
        taken.add(name_key(name))
        fields = {
            "id": str(uuid.uuid5(ID_NAMESPACE, f"{conversation.name}/{turn.dia_id}")),
            "created": turn.at,
            "last_used": turn.at,
            "use_count": 1,
            "strength": 1.0,
            "status": "active",
            "dia_id": turn.dia_id,
        }
        (folder / name).write_text(render_note(fields, body + "\n"), encoding="utf-8")
        paths[f"{stm}/{name}"] = turn.dia_id
    return paths
