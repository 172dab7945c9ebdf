"""Human output of memory intelligence: the decision first, then what it rests on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.cli.text_layout import listed, short, short_id, table
from cortexgraph_vault.core import wording

if TYPE_CHECKING:
    from cortexgraph_vault.models import (
        AutoRecallResult,
        MessageAnalysis,
        RecallAnalysis,
        ReviewResult,
    )


def _message_analysis(result: MessageAnalysis) -> str:
    lines = [
        f"save: {'yes' if result.should_save else 'no'} ({result.decision}, "
        f"confidence {result.confidence:.2f})",
        f"why: {result.reasoning}",
        f"strength {wording.decimal(result.suggested_strength)}",
    ]
    lines += listed("entities: ", result.suggested_entities)
    lines += listed("links: ", result.suggested_links)
    lines += listed("tags: ", result.suggested_tags)
    return "\n".join(lines)


def _recall_analysis(result: RecallAnalysis) -> str:
    lines = [
        f"search memory: {'yes' if result.should_search else 'no'} ({result.decision}, "
        f"confidence {result.confidence:.2f})",
        f"why: {result.reasoning}",
    ]
    if result.suggested_query:
        lines.append(f"query: {result.suggested_query}")
    lines += listed("entities: ", result.suggested_entities)
    return "\n".join(lines)


def _auto_recall_result(result: AutoRecallResult) -> str:
    lines = [f"{result.message} (mode {result.mode})"]
    lines += listed("topics: ", result.topics_found)
    if result.memories:
        # what happened to each memory: reinforced, or why not (used too recently)
        rows = [
            (
                f"{m.relevance:.2f}",
                "reinforced"
                if m.reinforced
                else "not again yet (used recently)"
                if m.cooling_down
                else "not reinforced",
                short(m.title, 40),
                short_id(m.memory_id),
            )
            for m in result.memories
        ]
        lines.append(table(rows, ["relevance", "use", "title", "id"]))
    elif result.reinforced_ids:
        lines.append("reinforced: " + ", ".join(short_id(i) for i in result.reinforced_ids))
    if result.suggestion:
        lines.append(result.suggestion)
    return "\n".join(lines)


def _review_result(result: ReviewResult) -> str:
    lines = [result.message]
    if result.memories:
        rows = [
            (
                f"{m.review_priority:.2f}",
                wording.decimal(m.score),
                m.days_until_forgotten,
                short(m.title, 40),
                short_id(m.memory_id),
            )
            for m in result.memories
        ]
        lines.append(table(rows, ["priority", "score", "days left", "title", "id"]))
    return "\n".join(lines)
