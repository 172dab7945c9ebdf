"""Shapes of memory intelligence: save and recall analysis, auto-recall, the review list.

Field names follow CortexGraph's `analyze_message`, `analyze_for_recall` and
`auto_recall_process_message` so existing prompts keep working; the extra fields say more.
"""

from __future__ import annotations

from pydantic import Field

from cortexgraph_vault.models.memory import Model


class PhraseSignal(Model):
    kind: str = Field(description="what the phrase signals, e.g. preference, question, uncertain")
    phrase: str = Field(description="the words that matched ('' for a whole-message signal)")
    weight: float = Field(description="its push towards yes (positive) or no (negative)")
    meaning: str


class MessageAnalysis(Model):
    should_save: bool
    confidence: float = Field(description="0..1, from a logistic function of the signals")
    decision: str = Field(description="auto (≥ 0.7: save), ask (0.4–0.7: ask first), skip (< 0.4)")
    suggested_entities: list[str]
    suggested_tags: list[str]
    suggested_strength: float
    suggested_links: list[str] = Field(
        default_factory=list, description="wikilinks to vault notes the message names"
    )
    reasoning: str
    phrase_signals: list[PhraseSignal]


class RecallAnalysis(Model):
    should_search: bool
    confidence: float
    decision: str = Field(description="auto (≥ 0.7), ask (0.4–0.7), skip (< 0.4)")
    suggested_query: str | None = Field(description="the message without the recall phrasing")
    suggested_entities: list[str]
    reasoning: str
    phrase_signals: list[PhraseSignal]


class RecalledMemory(Model):
    memory_id: str | None
    title: str
    path: str
    content: str | None = Field(description="a preview of its text; null in silent mode")
    relevance: float = Field(description="how well it matches the message's topics, 0..1")
    score: float = Field(description="the memory's decay score before this recall")
    matched_topics: list[str] = Field(description="why it is relevant to the message")
    reinforced: bool
    cooling_down: bool = Field(
        description="used too recently to be reinforced again (auto_recall_min_interval)"
    )


class AutoRecallResult(Model):
    success: bool = True
    enabled: bool
    mode: str
    topics_found: list[str]
    memories_found: int
    memories_reinforced: int
    reinforced_ids: list[str] = Field(default_factory=list)
    memories: list[RecalledMemory] = Field(
        default_factory=list, description="every match (memories_found of them)"
    )
    suggestion: str | None = Field(
        default=None, description="interactive mode: a question to put to the person"
    )
    message: str


class ReviewItem(Model):
    memory_id: str | None
    title: str
    path: str
    preview: str
    score: float
    review_priority: float = Field(description="1 at the middle of the danger zone, 0 at its edges")
    days_until_forgotten: float | None
    use_count: int
    review_count: int
    last_used: str


class ReviewResult(Model):
    success: bool = True
    count: int
    total_due: int = Field(description="memories in the danger zone now, before the limit")
    danger_zone: list[float] = Field(description="[min, max] score of the danger zone")
    memories: list[ReviewItem]
    message: str
