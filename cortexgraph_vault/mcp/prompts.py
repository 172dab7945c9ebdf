"""Prompts with the smart-prompting patterns: save without being asked, recall, observe, review."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field


def auto_save() -> str:
    """Save preferences, decisions and facts from the conversation without being asked."""
    return (
        "For the rest of this conversation, remember things about me the way a friend would, "
        "without announcing it. Whenever I state a preference, make a decision, share a fact "
        "about myself, my people or my projects, or say 'remember', call save_memory with that "
        "one idea in my words, tags for its topic and entities for the people, projects or "
        "tools it is about. Use strength 1.5 for decisions and lasting preferences. Before "
        "saving, search_memory for it: if it is already remembered, touch_memory it instead, "
        "or update_memory it (with its content_hash) if it changed. Never save secrets."
    )


def recall_before_answering(
    topic: Annotated[str, Field(max_length=500, description="what the question is about")],
) -> str:
    """Look up what is remembered about a topic before answering, and say what was used."""
    return (
        f"Before you answer about {topic}, call search_memory with query {topic!r} "
        "(and search_unified if my vault notes may help). Use what you find, prefer recent "
        "and high-scoring memories, and mention when a memory may be out of date. After "
        "answering, call observe_memory_usage with the ids of the memories you actually used "
        "and context_tags for this topic, so they stay remembered."
    )


def observe_after_use(
    memory_ids: Annotated[str, Field(max_length=5000, description="comma-separated ids used")],
    topic: Annotated[str, Field(max_length=500, description="the conversation's topic")] = "",
) -> str:
    """Record that memories were used in an answer, so they are reinforced."""
    ids = [i.strip() for i in memory_ids.split(",") if i.strip()]
    tags = f" and context_tags for {topic!r}" if topic else ""
    return f"Call observe_memory_usage with memory_ids {ids}{tags}."


def review_fading_memories() -> str:
    """Go through memories that are about to be forgotten and decide with the user."""
    return (
        "Call gc with dry_run true to list memories about to be forgotten, and search_memory "
        "with a high top_k to find ones with a high review_priority. Show me each briefly and "
        "ask whether to keep it (touch_memory), change it (update_memory), or let it go. Only "
        "run gc for real after I agree; anything forgotten can be brought back with "
        "restore_memory."
    )


# each prompt, by its function, and its title
PROMPTS: dict[Callable[..., str], str] = {
    auto_save: "Remember as we talk",
    recall_before_answering: "Recall before answering",
    observe_after_use: "Observe memories used",
    review_fading_memories: "Review fading memories",
}


def register(server: MCPServer) -> None:
    for prompt, title in PROMPTS.items():
        server.prompt(title=title)(prompt)
