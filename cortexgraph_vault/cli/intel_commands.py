"""CLI commands for memory intelligence: analyze a message, recall from it, the review list."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.render import short, table

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


def _message(a: argparse.Namespace) -> str:
    return sys.stdin.read() if a.message == "-" else a.message


def _analyze(s: MemoryService, a: argparse.Namespace) -> Any:
    result = s.analyze_for_recall(_message(a)) if a.for_recall else s.analyze_message(_message(a))
    return result if a.json else describe(result)


def _recall(s: MemoryService, a: argparse.Namespace) -> Any:
    result = s.auto_recall(_message(a), mode=a.mode)
    return result if a.json else describe(result)


def _review(s: MemoryService, a: argparse.Namespace) -> Any:
    result = s.review(limit=a.limit)
    return result if a.json else describe(result)


def describe(result: object) -> str:
    """For people: the decision first, then what it rests on."""
    # imported here, not at the top: `--help` builds the parser without pydantic
    from cortexgraph_vault.models import (
        AutoRecallResult,
        MessageAnalysis,
        RecallAnalysis,
        ReviewResult,
    )

    if isinstance(result, MessageAnalysis):
        lines = [
            f"save: {'yes' if result.should_save else 'no'} ({result.decision}, "
            f"confidence {result.confidence:.2f})",
            f"why: {result.reasoning}",
            f"strength {result.suggested_strength:g}",
        ]
        if result.suggested_entities:
            lines.append(f"entities: {', '.join(result.suggested_entities)}")
        if result.suggested_links:
            lines.append(f"links: {', '.join(result.suggested_links)}")
        if result.suggested_tags:
            lines.append(f"tags: {', '.join(result.suggested_tags)}")
        return "\n".join(lines)
    if isinstance(result, RecallAnalysis):
        lines = [
            f"search memory: {'yes' if result.should_search else 'no'} ({result.decision}, "
            f"confidence {result.confidence:.2f})",
            f"why: {result.reasoning}",
        ]
        if result.suggested_query:
            lines.append(f"query: {result.suggested_query}")
        if result.suggested_entities:
            lines.append(f"entities: {', '.join(result.suggested_entities)}")
        return "\n".join(lines)
    if isinstance(result, AutoRecallResult):
        lines = [f"{result.message} (mode {result.mode})"]
        if result.topics_found:
            lines.append(f"topics: {', '.join(result.topics_found)}")
        if result.memories:
            rows = [(f"{m.relevance:.2f}", "yes" if m.reinforced else "cooling" if m.cooling_down
                     else "no", short(m.title, 40), (m.memory_id or "")[:8]) for m in result.memories]  # fmt: skip
            lines.append(table(rows, ["relevance", "reinforced", "title", "id"]))
        elif result.reinforced_ids:
            lines.append("reinforced: " + ", ".join(i[:8] for i in result.reinforced_ids))
        if result.suggestion:
            lines.append(result.suggestion)
        return "\n".join(lines)
    if isinstance(result, ReviewResult):
        lines = [result.message]
        if result.memories:
            rows = [(f"{m.review_priority:.2f}", f"{m.score:.3f}", m.days_until_forgotten,
                     short(m.title, 40), (m.memory_id or "")[:8]) for m in result.memories]  # fmt: skip
            lines.append(table(rows, ["priority", "score", "days left", "title", "id"]))
        return "\n".join(lines)
    return str(result)


def register(sub: argparse._SubParsersAction) -> dict[str, Any]:  # type: ignore[type-arg]
    c = sub.add_parser("analyze", help="should this message be saved (or --for-recall: searched)?")
    c.add_argument("message", help="the message, or - to read it from stdin")
    c.add_argument("--for-recall", action="store_true", help="judge whether to search memory")

    c = sub.add_parser("recall", help="recall and reinforce memories a message is about")
    c.add_argument("message", help="the message, or - to read it from stdin")
    c.add_argument(
        "--mode", choices=["silent", "subtle", "interactive"],
        help="silent: only reinforce; subtle: also list them; interactive: suggest, reinforce nothing",
    )  # fmt: skip

    c = sub.add_parser("review", help="fading memories worth revisiting, most urgent first")
    c.add_argument("--limit", type=int, default=20)
    return {"analyze": _analyze, "recall": _recall, "review": _review}
