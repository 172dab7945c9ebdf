"""Memory intelligence: what to save, when to recall, auto-recall and the review list.

Auto-recall is natural spaced repetition: a memory that comes up in conversation is used
again and so fades more slowly. A per-memory cooldown keeps one conversation from pumping
the same memory up message after message. The cooldown is read from the memory's own fields
(`last_used`, `last_review_at`), so it holds across calls, restarts and processes alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.enrich import extract_entities
from cortexgraph_vault.core.intent import Intent, analyze_recall, analyze_save, recall_query, topics
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.models import (
    AutoRecallResult,
    MessageAnalysis,
    PhraseSignal,
    RecallAnalysis,
    RecalledMemory,
    ReviewItem,
    ReviewResult,
    SearchHit,
)
from cortexgraph_vault.ops import reads, writes
from cortexgraph_vault.ops.limits import MAX_MESSAGE
from cortexgraph_vault.ops.size_budget import answer_within
from cortexgraph_vault.ops.vocabulary import enrichment_for, vocabulary

RECALL_MODES = ("silent", "subtle", "interactive")
PREVIEW = 200
# A memory matching several of a message's topics is likelier the one meant.
EXTRA_TOPIC_BONUS = 0.15


def check_message(message: object) -> str:
    if not isinstance(message, str) or not message.strip():
        raise InvalidArgument("message: give the text of a message")
    if len(message) > MAX_MESSAGE:
        raise InvalidArgument(f"message: at most {MAX_MESSAGE} characters, got {len(message)}")
    return message


def _signals(intent: Intent) -> list[PhraseSignal]:
    return [PhraseSignal(kind=s.kind, phrase=s.phrase, weight=s.weight, meaning=s.meaning)
            for s in intent.signals]  # fmt: skip


def analyze_message(engine: VaultEngine, message: str) -> MessageAnalysis:
    text = check_message(message)
    engine.fresh()
    intent = analyze_save(text)
    enriched = enrichment_for(engine, text)
    return MessageAnalysis(
        should_save=intent.should, confidence=intent.confidence, decision=intent.decision,
        suggested_entities=enriched.entity_names, suggested_tags=list(enriched.tags),
        suggested_strength=enriched.strength, suggested_links=enriched.links,
        reasoning=intent.reasoning, phrase_signals=_signals(intent),
    )  # fmt: skip


def analyze_for_recall(engine: VaultEngine, message: str) -> RecallAnalysis:
    text = check_message(message)
    engine.fresh()
    entities = extract_entities(text, vocabulary(engine).names)
    mentions = [e.name for e in entities if e.source == "vault"]
    intent = analyze_recall(text, mentions)
    return RecallAnalysis(
        should_search=intent.should, confidence=intent.confidence, decision=intent.decision,
        suggested_query=recall_query(text), suggested_entities=[e.name for e in entities],
        reasoning=intent.reasoning, phrase_signals=_signals(intent),
    )  # fmt: skip


@dataclass
class _Candidate:
    hit: SearchHit
    topics: list[str] = field(default_factory=list)
    best: float = 0.0

    @property
    def relevance(self) -> float:
        return round(min(1.0, self.best + EXTRA_TOPIC_BONUS * (len(self.topics) - 1)), 4)


def _matches(engine: VaultEngine, found: Sequence[str], threshold: float,
             limit: int) -> list[_Candidate]:  # fmt: skip
    """Every memory (through the index's search), matched topic by topic."""
    candidates: dict[str, _Candidate] = {}
    for topic in found:
        found_hits = reads.search_memory(
            engine, topic, top_k=10, preview_length=PREVIEW, include_review_candidates=False
        ).results
        for hit in found_hits:
            if hit.review_candidate or hit.similarity <= 0:
                continue
            c = candidates.setdefault(hit.path, _Candidate(hit))
            c.topics.append(topic)
            c.best = max(c.best, hit.similarity)
    good = [c for c in candidates.values() if c.relevance >= threshold]
    good.sort(key=lambda c: (-c.relevance, -(c.hit.memory_score or 0.0), c.hit.path))
    return good[:limit]


def last_use(m: Memory) -> datetime:
    return max(m.last_used, m.last_review_at) if m.last_review_at else m.last_used


def _cooling(engine: VaultEngine, chosen: Sequence[_Candidate], now: datetime) -> set[str]:
    """Paths used within auto_recall_min_interval, judged from the notes as they are on disk."""
    interval = float(engine.config.auto_recall_min_interval)
    cooling: set[str] = set()
    for c in chosen:
        note = engine.catalog.reload(c.hit.path)
        m = note.memory if note is not None else None
        if m is None or (now - last_use(m)).total_seconds() < interval:
            cooling.add(c.hit.path)
    return cooling


@answer_within("memories", "reinforced_ids")
def auto_recall(engine: VaultEngine, message: str, *, mode: str | None = None) -> AutoRecallResult:
    text = check_message(message)
    cfg = engine.config
    mode = mode or cfg.auto_recall_mode
    if mode not in RECALL_MODES:
        raise InvalidArgument(f"mode: must be one of {', '.join(RECALL_MODES)}, got {mode!r}")
    if not cfg.auto_recall_enabled:
        return AutoRecallResult(
            enabled=False, mode=mode, topics_found=[], memories_found=0, memories_reinforced=0,
            message="auto-recall is off (CORTEXGRAPH_AUTO_RECALL_ENABLED=false)",
        )  # fmt: skip
    engine.fresh()
    entities = extract_entities(text, vocabulary(engine).names)
    found = topics(text, [e.name for e in entities])
    chosen = _matches(
        engine, found, cfg.auto_recall_relevance_threshold, cfg.auto_recall_max_results
    )
    reinforce = mode != "interactive" and cfg.auto_reinforce and bool(chosen)
    # While git is mid-rebase a use is refused (git_states.py): recalled, not reinforced.
    reinforce = reinforce and engine.git_state.state() is None
    cooling: set[str] = set()
    reinforced: list[str] = []
    reinforced_paths: set[str] = set()
    if reinforce:
        # Under the vault lock, so two processes recalling at once cannot both pass the check.
        with engine.lock.held():
            now = engine.now()
            cooling = _cooling(engine, chosen, now)
            refs = [c.hit.id or c.hit.path for c in chosen if c.hit.path not in cooling]
            if refs:
                observed = writes.observe(engine, refs, found).memories
                reinforced = [o.memory_id for o in observed]
                reinforced_paths = {o.path for o in observed}
    recalled = [
        RecalledMemory(
            memory_id=c.hit.id, title=c.hit.title, path=c.hit.path,
            content=c.hit.content if mode != "silent" else None,
            relevance=c.relevance, score=c.hit.memory_score or 0.0, matched_topics=c.topics,
            reinforced=c.hit.path in reinforced_paths, cooling_down=c.hit.path in cooling,
        )
        for c in chosen
    ]  # fmt: skip
    return AutoRecallResult(
        enabled=True, mode=mode, topics_found=found, memories_found=len(chosen),
        memories_reinforced=len(reinforced), reinforced_ids=reinforced,
        memories=recalled,
        suggestion=_suggestion(recalled) if mode == "interactive" else None,
        message=_summary(found, recalled, reinforced, cooling, mode),
    )  # fmt: skip


def _suggestion(recalled: Sequence[RecalledMemory]) -> str | None:
    if not recalled:
        return None
    first = recalled[0]
    about = ", ".join(first.matched_topics[:3])
    return (f"Ask the person whether to bring up what they said about {about} "
            f"(“{first.title}”); if they agree, call observe_memory_usage with its id.")  # fmt: skip


def _summary(found: Sequence[str], recalled: Sequence[RecalledMemory], reinforced: Sequence[str],
             cooling: set[str], mode: str) -> str:  # fmt: skip
    if not found:
        return "no topics in the message"
    if not recalled:
        return f"no memory matches {', '.join(found)}"
    parts = [wording.memories_match(len(recalled))]
    if mode == "interactive":
        parts.append("none reinforced until the person accepts")
    else:
        parts.append(f"{len(reinforced)} reinforced")
        if cooling:
            parts.append(f"{len(cooling)} used too recently to reinforce again")
    return "; ".join(parts)


@answer_within("memories")
def review(engine: VaultEngine, limit: int = 20) -> ReviewResult:
    """Active memories in the danger zone, the most urgent (mid-zone) first: what to revisit."""
    if not 1 <= limit <= 1000:
        raise InvalidArgument(f"limit: must be from 1 to 1000, got {limit}")
    now = engine.now()
    rules = engine.rules
    due = []
    for m in engine.fresh().memories():
        if m.status != "active" or m.superseded:  # done, not fading: gc archives it
            continue
        view = engine.view(m, now=now, preview=PREVIEW)
        if view.review_priority > 0:
            due.append(view)
    due.sort(key=lambda v: (-v.review_priority, v.score or 0.0, v.path))
    items = [
        ReviewItem(
            memory_id=v.id, title=v.title, path=v.path, preview=v.content, score=v.score or 0.0,
            review_priority=v.review_priority, days_until_forgotten=v.days_until_forgotten,
            use_count=v.use_count, review_count=v.review_count, last_used=v.last_used,
        )
        for v in due[:limit]
    ]  # fmt: skip
    zone = [rules.danger_zone_min, rules.danger_zone_max]
    message = (f"{len(due)} memor{'y is' if len(due) == 1 else 'ies are'} fading "
               f"(score {zone[0]:g}–{zone[1]:g}); using one again keeps it")  # fmt: skip
    return ReviewResult(count=len(items), total_due=len(due), danger_zone=zone, memories=items,
                        message=message)  # fmt: skip
