"""Operations that read a message for what to save and what to recall, and what to review."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import Effect, Rest, declared_in, operation

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import (
        AutoRecallResult,
        MessageAnalysis,
        RecallAnalysis,
        ReviewResult,
    )
    from cortexgraph_vault.requests.intelligence import (
        AutoRecallRequest,
        MessageRequest,
        ReviewMemoriesRequest,
    )


@operation(
    "Should this be saved?",
    Effect.READ,
    rest=Rest(
        "POST",
        "/api/v1/analyze",
        "Should this message be remembered",
        name="analyze",
        tag="vault",
        errors=(400, 422),
    ),
)
def analyze_message(engine: VaultEngine, request: MessageRequest) -> MessageAnalysis:
    """Judge whether a message holds something worth remembering, with suggested tags,
    entities and strength to pass to save_memory."""
    from cortexgraph_vault.handlers.intelligence import recall_advice as intelligence

    return intelligence.analyze_message(engine, request)


@operation(
    "Should memory be searched?",
    Effect.READ,
    rest=Rest(
        "POST",
        "/api/v1/analyze/recall",
        "Should memory be searched for this message",
        name="analyze_recall",
        tag="vault",
        errors=(400, 422),
        body="Analyze",
    ),
)
def analyze_for_recall(engine: VaultEngine, request: MessageRequest) -> RecallAnalysis:
    """Judge whether a message needs the user's memories, with a suggested query."""
    from cortexgraph_vault.handlers.intelligence import recall_advice as intelligence

    return intelligence.analyze_for_recall(engine, request)


@operation(
    "Recall and reinforce",
    Effect.WRITE,
    rest=Rest(
        "POST",
        "/api/v1/recall",
        "Recall and reinforce the memories a message is about",
        name="recall",
        tag="vault",
        errors=(400, 422),
    ),
)
def auto_recall_process_message(
    engine: VaultEngine, request: AutoRecallRequest
) -> AutoRecallResult:
    """Reinforce the memories a message is about, so they do not fade."""
    from cortexgraph_vault.handlers.intelligence import recall_advice as intelligence

    return intelligence.auto_recall(engine, request)


@operation(
    "Memories due for review",
    Effect.READ,
    rest=Rest(
        "GET",
        "/api/v1/review",
        "Memories due for review, most urgent first",
        name="review",
        tag="vault",
        errors=(400, 422),
    ),
)
def review_memories(engine: VaultEngine, request: ReviewMemoriesRequest) -> ReviewResult:
    """Memories fading into the danger zone, most urgent first: mention one naturally when it
    fits the conversation, then call observe_memory_usage so it is reinforced."""
    from cortexgraph_vault.handlers.intelligence import recall_advice as intelligence

    return intelligence.review(engine, request)


OPERATIONS = declared_in(vars())
