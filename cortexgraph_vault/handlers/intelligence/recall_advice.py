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

import numpy as np

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.enrich import extract_entities
from cortexgraph_vault.core.fact_slots import SLOT_SEEDS
from cortexgraph_vault.core.intent import Intent, analyze_recall, analyze_save, recall_query, topics
from cortexgraph_vault.core.use_relevance import (
    Judged,
    MessageView,
    Use,
    WordWeights,
    content_words,
    idf_rarity,
    judge,
    pick,
)
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.browse import reads
from cortexgraph_vault.handlers.browse.size_budget import answer_within
from cortexgraph_vault.handlers.writes import writes
from cortexgraph_vault.handlers.writes.vocabulary import enrichment_for, vocabulary
from cortexgraph_vault.index.text.text_index import stems
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
from cortexgraph_vault.requests.intelligence import (
    AutoRecallRequest,
    MessageRequest,
    ReviewMemoriesRequest,
)
from cortexgraph_vault.requests.memories import SearchMemoryRequest

PREVIEW = 200


def check_message(message: str) -> str:
    if not message.strip():
        raise InvalidArgument("message: give the text of a message")
    return message


def _signals(intent: Intent) -> list[PhraseSignal]:
    return [
        PhraseSignal(kind=s.kind, phrase=s.phrase, weight=s.weight, meaning=s.meaning)
        for s in intent.signals
    ]


def analyze_message(engine: VaultEngine, req: MessageRequest) -> MessageAnalysis:
    text = check_message(req.message)
    engine.fresh()
    intent = analyze_save(text)
    enriched = enrichment_for(engine, text)
    return MessageAnalysis(
        should_save=intent.should,
        confidence=intent.confidence,
        decision=intent.decision,
        suggested_entities=enriched.entity_names,
        suggested_tags=list(enriched.tags),
        suggested_strength=enriched.strength,
        suggested_links=enriched.links,
        reasoning=intent.reasoning,
        phrase_signals=_signals(intent),
    )


def analyze_for_recall(engine: VaultEngine, req: MessageRequest) -> RecallAnalysis:
    text = check_message(req.message)
    engine.fresh()
    entities = extract_entities(text, vocabulary(engine).names)
    mentions = [e.name for e in entities if e.source == "vault"]
    found = relevant_memories(engine, text, engine.config.auto_recall_max_results)
    intent = analyze_recall(text, mentions, [c.hit.title for c in found])
    return RecallAnalysis(
        should_search=intent.should,
        confidence=intent.confidence,
        decision=intent.decision,
        suggested_query=recall_query(text),
        suggested_entities=[e.name for e in entities],
        reasoning=intent.reasoning,
        phrase_signals=_signals(intent),
    )


@dataclass
class _Candidate:
    hit: SearchHit
    use: Use
    created: datetime | None
    topics: list[str] = field(default_factory=list)

    @property
    def relevance(self) -> float:
        return self.use.relevance


def _word_weights(engine: VaultEngine, view_text: str) -> WordWeights:
    """Stems as the search index makes them; rarity from the vault's document frequencies."""
    found = stems(content_words(view_text))
    documents, frequencies = engine.catalog.document_frequencies(found)
    return WordWeights(stems, idf_rarity(documents, frequencies))


def _cosine(engine: VaultEngine, text: str, path: str) -> float | None:
    if not engine.config.semantic_search:
        return None
    sem = engine.catalog.semantic
    query = sem.query_vector(text)
    own = sem.vector_of(path) if query is not None else None
    return None if query is None or own is None else float(np.dot(query, own))


def relevant_memories(engine: VaultEngine, text: str, limit: int) -> list[_Candidate]:
    """The memories a message is really about (core/use_relevance.py decides), best first.

    Found through the search index — by the message's own words, and for a question about
    the person's own facts by the words that state the slot it asks for — then judged one
    by one. A question about a slot holding one value at a time ("where do I live?") is
    answered by the newest memory stating it, not by every memory that ever did.
    """
    weights = _word_weights(engine, text)
    view = MessageView.of(text, weights)
    queries = [q for q in [recall_query(text)] if q]
    queries += [SLOT_SEEDS[s] for s in sorted(view.asked) if s in SLOT_SEEDS]
    hits: dict[str, SearchHit] = {}
    for query in queries:
        asked = SearchMemoryRequest(
            query=query, top_k=10, preview_length=PREVIEW, include_review_candidates=False
        )
        for hit in reads.search_memory(engine, asked).results:
            hits.setdefault(hit.path, hit)
    judged: dict[str, _Candidate] = {}
    for path, hit in hits.items():
        note = engine.catalog.note(path)
        m = note.memory if note is not None else None
        if m is None:
            continue
        use = judge(view, f"{m.title}\n{m.body}", weights, _cosine(engine, text, path))
        judged[path] = _Candidate(hit, use, m.created, [use.why])
    chosen = pick(
        [
            Judged(path, c.use, c.created.timestamp() if c.created else 0.0)
            for path, c in judged.items()
        ],
        engine.config.auto_recall_relevance_threshold,
    )
    return [judged[j.key] for j in chosen[:limit]]


def _cooling(engine: VaultEngine, chosen: Sequence[_Candidate], now: datetime) -> set[str]:
    """Paths used within auto_recall_min_interval, judged from the notes as they are on disk."""
    interval = float(engine.config.auto_recall_min_interval)
    cooling: set[str] = set()
    for c in chosen:
        note = engine.catalog.reload(c.hit.path)
        m = note.memory if note is not None else None
        used = max(m.last_used, m.last_review_at or m.last_used) if m is not None else None
        if used is None or (now - used).total_seconds() < interval:
            cooling.add(c.hit.path)
    return cooling


@answer_within("memories", "reinforced_ids")
def auto_recall(engine: VaultEngine, req: AutoRecallRequest) -> AutoRecallResult:
    text = check_message(req.message)
    cfg = engine.config
    mode = req.mode or cfg.auto_recall_mode
    if not cfg.auto_recall_enabled:
        return AutoRecallResult(
            enabled=False,
            mode=mode,
            topics_found=[],
            memories_found=0,
            memories_reinforced=0,
            message="auto-recall is off (CORTEXGRAPH_AUTO_RECALL_ENABLED=false)",
        )
    engine.fresh()
    entities = extract_entities(text, vocabulary(engine).names)
    found = topics(text, [e.name for e in entities])
    chosen = relevant_memories(engine, text, cfg.auto_recall_max_results)
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
                observed = writes.reinforce_uses(engine, refs, found).memories
                reinforced = [o.memory_id for o in observed]
                reinforced_paths = {o.path for o in observed}
    recalled = [
        RecalledMemory(
            memory_id=c.hit.id,
            title=c.hit.title,
            path=c.hit.path,
            content=c.hit.content if mode != "silent" else None,
            relevance=c.relevance,
            score=c.hit.memory_score or 0.0,
            matched_topics=c.topics,
            reinforced=c.hit.path in reinforced_paths,
            cooling_down=c.hit.path in cooling,
        )
        for c in chosen
    ]
    return AutoRecallResult(
        enabled=True,
        mode=mode,
        topics_found=found,
        memories_found=len(chosen),
        memories_reinforced=len(reinforced),
        reinforced_ids=reinforced,
        memories=recalled,
        suggestion=_suggestion(recalled) if mode == "interactive" else None,
        message=_summary(found, recalled, reinforced, cooling, mode),
    )


def _suggestion(recalled: Sequence[RecalledMemory]) -> str | None:
    if not recalled:
        return None
    first = recalled[0]
    about = ", ".join(first.matched_topics[:3])
    return (
        f"Ask the person whether to bring up what they said about {about} "
        f"(“{first.title}”); if they agree, call observe_memory_usage with its id."
    )


def _summary(
    found: Sequence[str],
    recalled: Sequence[RecalledMemory],
    reinforced: Sequence[str],
    cooling: set[str],
    mode: str,
) -> str:
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
def review(engine: VaultEngine, req: ReviewMemoriesRequest) -> ReviewResult:
    """Active memories in the danger zone, the most urgent (mid-zone) first: what to revisit."""
    limit = req.limit
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
            memory_id=v.id,
            title=v.title,
            path=v.path,
            preview=v.content,
            score=v.score or 0.0,
            review_priority=v.review_priority,
            days_until_forgotten=v.days_until_forgotten,
            use_count=v.use_count,
            review_count=v.review_count,
            last_used=v.last_used,
        )
        for v in due[:limit]
    ]
    zone = [rules.danger_zone_min, rules.danger_zone_max]
    message = (
        f"{len(due)} memor{'y is' if len(due) == 1 else 'ies are'} fading "
        f"(score {zone[0]:g}–{zone[1]:g}); using one again keeps it"
    )
    return ReviewResult(
        count=len(items), total_due=len(due), danger_zone=zone, memories=items, message=message
    )
