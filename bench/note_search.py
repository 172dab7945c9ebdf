"""Note search on a real vault nobody here wrote: Obsidian's own help (its English notes).

The vault is not in this repository: fetch it and give its `en/` folder to the bench.

    git clone --depth 1 https://github.com/obsidianmd/obsidian-help /tmp/obsidian-help
    python -m bench recall --help-vault /tmp/obsidian-help/en

(or set CGV_HELP_VAULT). Protocol: the folder's Markdown notes are copied into a temporary
vault (nothing else: attachments do not take part); each question — written in other words than
its note — goes through MCP `search_unified` (the real server, the SDK's in-memory client,
limit 10); hit@3 and hit@10 count the questions whose note (any of the accepted ones) is among
the first 3 and 10 results. Five sets, each its own row, asked of one server:
bench/help_questions.json is the dev set (ranking was tuned on it);
bench/help_questions_heldout.json was written once and committed before it was ever measured,
and is never edited after a rank is seen: it tells whether the dev figures hold on sentences
nobody tuned to. Its misses have been studied since, so bench/help_questions_heldout2.json,
written and committed the same way afterwards, judges a change chosen with them; and
bench/help_questions_heldout3.json, on notes none of the others asks about, judges a change to
what the sentence encoder reads of a page; bench/help_questions_heldout4.json, in a user's
everyday words over the whole vault, judges ranking changes that are not about the encoder. A
hidden set of other questions on the same vault checks the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

QUESTIONS = Path(__file__).resolve().parent / "help_questions.json"
HELD_OUT = Path(__file__).resolve().parent / "help_questions_heldout.json"
HELD_OUT_2 = Path(__file__).resolve().parent / "help_questions_heldout2.json"
HELD_OUT_3 = Path(__file__).resolve().parent / "help_questions_heldout3.json"
HELD_OUT_4 = Path(__file__).resolve().parent / "help_questions_heldout4.json"
SETS = {
    "dev": QUESTIONS,
    "held-out": HELD_OUT,
    "held-out 2": HELD_OUT_2,
    "held-out 3": HELD_OUT_3,
    "held-out 4": HELD_OUT_4,
}
ENV = "CGV_HELP_VAULT"
HOW_TO_GET = (
    "the help vault is not here: `git clone --depth 1 https://github.com/obsidianmd/obsidian-help "
    "DIR` and pass `--help-vault DIR/en` (or set CGV_HELP_VAULT)"
)
LIMIT = 10


@dataclass(frozen=True)
class NoteQuestion:
    text: str
    notes: frozenset[str]  # vault-relative paths, any of which answers it


@dataclass
class NoteMetrics:
    questions: int = 0
    hits3: int = 0
    hits10: int = 0
    vectors_s: float = 0.0  # until every note had its sentence-encoder vector
    reciprocal: float = 0.0
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add(self, question: NoteQuestion, ranked: Sequence[str]) -> None:
        rank = next((i for i, p in enumerate(ranked[:LIMIT], 1) if p in question.notes), None)
        self.questions += 1
        self.hits3 += rank is not None and rank <= 3
        self.hits10 += rank is not None
        self.reciprocal += 1 / rank if rank else 0.0
        self.rows.append({"question": question.text, "notes": sorted(question.notes),
                          "rank": rank, "top": list(ranked[:LIMIT])})  # fmt: skip

    def summary(self) -> dict[str, Any]:
        n = max(1, self.questions)
        return {"questions": self.questions, "hit@3": self.hits3, "hit@10": self.hits10,
                "mrr@10": self.reciprocal / n, "vectors_s": self.vectors_s}  # fmt: skip


def load_questions(path: Path = QUESTIONS) -> list[NoteQuestion]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [NoteQuestion(q["q"], frozenset(q["notes"])) for q in data["questions"]]


def help_vault(given: Path | None) -> Path | None:
    """The help vault's folder from the flag or CGV_HELP_VAULT; None when neither names one."""
    found = given or (Path(os.environ[ENV]) if os.environ.get(ENV) else None)
    if found is None:
        return None
    if not found.is_dir() or not any(found.rglob("*.md")):
        raise SystemExit(f"{found}: not a folder of Markdown notes; {HOW_TO_GET}")
    return found


def copy_notes(source: Path, target: Path) -> int:
    count = 0
    for path in sorted(source.rglob("*.md")):
        rel = path.relative_to(source)
        if any(part.startswith(".") for part in rel.parts):
            continue
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / rel)
        count += 1
    return count


async def _ask(
    root: Path, sets: Mapping[str, Sequence[NoteQuestion]], settings: Mapping[str, object]
) -> dict[str, NoteMetrics]:
    from mcp import Client

    from bench.recall import BASE_SETTINGS, meaning_ready
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.mcp import build_server
    from cortexgraph_vault.service import MemoryService

    values = {**BASE_SETTINGS, **settings, "vault": str(root), "now": "2026-12-01T12:00:00Z"}
    config = load_config(values, env={}, user_file=root.parent / "no-user-config.toml")
    service = MemoryService(config)
    vectors_s = meaning_ready(service)
    results = {name: NoteMetrics(vectors_s=vectors_s) for name in sets}
    async with Client(build_server(service)) as client:
        for name, questions in sets.items():
            for question in questions:
                result = await client.call_tool(
                    "search_unified", {"query": question.text, "limit": LIMIT}
                )
                if result.is_error or result.structured_content is None:
                    text = " ".join(getattr(b, "text", "") for b in result.content)
                    raise RuntimeError(f"search_unified failed for {question.text!r}: {text}")
                hits = result.structured_content["results"]
                results[name].add(question, [h["path"] for h in hits])
    return results


def evaluate_notes(
    source: Path,
    sets: Mapping[str, Sequence[NoteQuestion]] | None = None,
    settings: Mapping[str, object] | None = None,
) -> dict[str, NoteMetrics]:
    """Every set's questions through MCP `search_unified` on one copy of `source`'s notes (the
    notes are encoded once for all sets); by default the dev and the held-out sets."""
    from bench.recall import _isolated_dirs

    asked = sets if sets is not None else {name: load_questions(p) for name, p in SETS.items()}
    with tempfile.TemporaryDirectory(prefix="cgv-notes-") as tmp, _isolated_dirs():
        root = Path(tmp) / "vault"
        copy_notes(source, root)
        named = {n for questions in asked.values() for q in questions for n in q.notes}
        missing = sorted(n for n in named if not (root / n).is_file())
        if missing:
            raise SystemExit(f"{source}: the questions name notes it lacks: {missing[:3]}")

        async def run() -> dict[str, NoteMetrics]:
            return await _ask(root, asked, settings or {})

        return anyio.run(run)
