"""Operations that read a message for what to save and what to recall, and what to review."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
from cortexgraph_vault.models import AutoRecallResult, MessageAnalysis, RecallAnalysis, ReviewResult
from cortexgraph_vault.operations.operation import Effect, Operation, Rest, declared_in
from cortexgraph_vault.requests.intelligence import (
    AutoRecallRequest,
    MessageRequest,
    ReviewMemoriesRequest,
)

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.intelligence import recall_advice as intelligence
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    intelligence = deferred_functions("cortexgraph_vault.handlers.intelligence.recall_advice")

ANALYZE_MESSAGE = Operation(
    name="analyze_message",
    title="Should this be saved?",
    description="Judge whether a message holds something worth remembering, with suggested tags,\nentities and strength to pass to save_memory.",
    request=MessageRequest,
    result=MessageAnalysis,
    effect=Effect.READ,
    invoke=intelligence.analyze_message,
    rest=(
        Rest(
            "POST",
            "/api/v1/analyze",
            "Should this message be remembered",
            name="analyze",
            tag="vault",
            errors=(400, 422),
            body="Analyze",
        ),
    ),
)

ANALYZE_FOR_RECALL = Operation(
    name="analyze_for_recall",
    title="Should memory be searched?",
    description="Judge whether a message needs the user's memories, with a suggested query.",
    request=MessageRequest,
    result=RecallAnalysis,
    effect=Effect.READ,
    invoke=intelligence.analyze_for_recall,
    rest=(
        Rest(
            "POST",
            "/api/v1/analyze/recall",
            "Should memory be searched for this message",
            name="analyze_recall",
            tag="vault",
            errors=(400, 422),
            body="Analyze",
        ),
    ),
)

AUTO_RECALL_PROCESS_MESSAGE = Operation(
    name="auto_recall_process_message",
    title="Recall and reinforce",
    description="Reinforce the memories a message is about, so they do not fade.",
    request=AutoRecallRequest,
    result=AutoRecallResult,
    effect=Effect.WRITE,
    invoke=intelligence.auto_recall,
    rest=(
        Rest(
            "POST",
            "/api/v1/recall",
            "Recall and reinforce the memories a message is about",
            name="recall",
            tag="vault",
            errors=(400, 422),
            body="Recall",
        ),
    ),
)

REVIEW_MEMORIES = Operation(
    name="review_memories",
    title="Memories due for review",
    description="Memories fading into the danger zone, most urgent first: mention one naturally when it\nfits the conversation, then call observe_memory_usage so it is reinforced.",
    request=ReviewMemoriesRequest,
    result=ReviewResult,
    effect=Effect.READ,
    invoke=intelligence.review,
    rest=(
        Rest(
            "GET",
            "/api/v1/review",
            "Memories due for review, most urgent first",
            name="review",
            tag="vault",
            errors=(400, 422),
        ),
    ),
)

OPERATIONS = declared_in(vars())
