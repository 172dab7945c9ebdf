"""Operations that read a message for what to save and what to recall, and what to review."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cortexgraph_vault.models import AutoRecallResult, MessageAnalysis, RecallAnalysis, ReviewResult
from cortexgraph_vault.operations.operation import AnyOperation, Effect, Operation, Request
from cortexgraph_vault.operations.params import Message

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


class MessageRequest(Request):
    message: Message


def _analyze_message(service: MemoryService, r: MessageRequest) -> MessageAnalysis:
    return service.analyze_message(r.message)


ANALYZE_MESSAGE = Operation(
    name="analyze_message",
    title="Should this be saved?",
    description="Judge whether a message holds something worth remembering, with suggested tags,\nentities and strength to pass to save_memory.",
    request=MessageRequest,
    result=MessageAnalysis,
    effect=Effect.READ,
    invoke=_analyze_message,
)


def _analyze_for_recall(service: MemoryService, r: MessageRequest) -> RecallAnalysis:
    return service.analyze_for_recall(r.message)


ANALYZE_FOR_RECALL = Operation(
    name="analyze_for_recall",
    title="Should memory be searched?",
    description="Judge whether a message needs the user's memories, with a suggested query.",
    request=MessageRequest,
    result=RecallAnalysis,
    effect=Effect.READ,
    invoke=_analyze_for_recall,
)


class AutoRecallRequest(Request):
    message: Message
    mode: Annotated[
        Literal["silent", "subtle", "interactive"] | None,
        Field(
            description="silent: reinforce, list without text; subtle: with text; interactive: ask before reinforcing (default: configured)"
        ),
    ] = None


def _auto_recall(service: MemoryService, r: AutoRecallRequest) -> AutoRecallResult:
    return service.auto_recall(r.message, mode=r.mode)


AUTO_RECALL_PROCESS_MESSAGE = Operation(
    name="auto_recall_process_message",
    title="Recall and reinforce",
    description="Reinforce the memories a message is about, so they do not fade.",
    request=AutoRecallRequest,
    result=AutoRecallResult,
    effect=Effect.WRITE,
    invoke=_auto_recall,
)


class ReviewMemoriesRequest(Request):
    limit: Annotated[int, Field(ge=1, le=100, description="how many memories to list")] = 20


def _review_memories(service: MemoryService, r: ReviewMemoriesRequest) -> ReviewResult:
    return service.review(r.limit)


REVIEW_MEMORIES = Operation(
    name="review_memories",
    title="Memories due for review",
    description="Memories fading into the danger zone, most urgent first: mention one naturally when it\nfits the conversation, then call observe_memory_usage so it is reinforced.",
    request=ReviewMemoriesRequest,
    result=ReviewResult,
    effect=Effect.READ,
    invoke=_review_memories,
)

INTELLIGENCE_OPERATIONS: tuple[AnyOperation, ...] = (
    ANALYZE_MESSAGE,
    ANALYZE_FOR_RECALL,
    AUTO_RECALL_PROCESS_MESSAGE,
    REVIEW_MEMORIES,
)
