"""Tools that read a message for what to save and what to recall."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.mcp.tool_calls import READ_ONLY, WRITES
from cortexgraph_vault.models import AutoRecallResult, MessageAnalysis, RecallAnalysis, ReviewResult
from cortexgraph_vault.operations.params import Message

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry


def register(tool: ToolRegistry) -> None:
    service = tool.service

    @tool(READ_ONLY, title="Should this be saved?")
    def analyze_message(message: Message) -> MessageAnalysis:
        """Judge whether a message holds something worth remembering, with suggested tags,
        entities and strength to pass to save_memory."""
        return service.analyze_message(message)

    @tool(READ_ONLY, title="Should memory be searched?")
    def analyze_for_recall(message: Message) -> RecallAnalysis:
        """Judge whether answering a message needs the user's memories, with a suggested query."""
        return service.analyze_for_recall(message)

    @tool(WRITES, title="Recall and reinforce")
    def auto_recall_process_message(
        message: Message,
        mode: Annotated[
            Literal["silent", "subtle", "interactive"] | None,
            Field(
                description="silent: reinforce, list without text; subtle: with text; interactive: ask before reinforcing (default: configured)"
            ),
        ] = None,
    ) -> AutoRecallResult:
        """Find the memories a message's topics touch, and reinforce them so they do not fade."""
        return service.auto_recall(message, mode=mode)

    @tool(READ_ONLY, title="Memories due for review")
    def review_memories(
        limit: Annotated[int, Field(ge=1, le=100, description="how many memories to list")] = 20,
    ) -> ReviewResult:
        """Memories fading into the danger zone, most urgent first: mention one naturally when it
        fits the conversation, then call observe_memory_usage so it is reinforced."""
        return service.review(limit)
