"""What else in the vault is about the same thing as one note ("Related to this note").

The note itself is the query, ranked as search_unified ranks (cue-first, core/ranking.py):
its own vector finds the notes nearest in meaning, and the words that set it apart — those
its title, aliases, tags, entities and body weigh most (field weights, as the word index
counts them) times how rare they are in the vault (BM25's idf) — find those that share its
words. A word no other note holds finds nothing and is left out; the query stays short
however long the note.
"""

from __future__ import annotations

import math

from cortexgraph_vault.core.relevance import STOP_WORDS
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import NotFound
from cortexgraph_vault.handlers.search.search import rank
from cortexgraph_vault.handlers.search.search_page import PageRequest, page_of
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.index.text.text_index import DocumentText, term_stats
from cortexgraph_vault.models import SearchResult
from cortexgraph_vault.requests.browse import RelatedToNoteRequest

QUERY_TERMS = 16
# Enough of a long note to know what it is about; tokenising megabytes per request is not.
BODY_CHARS = 20_000
MIN_TERM_LENGTH = 3
# Function words search keeps (a query of them alone still finds something) but a note's
# topic never consists of; without them "her", "can" and "all" outrank what the note is about.
_FUNCTION_WORDS = (
    "again all also any because been before being both can could each even ever every few "
    "her hers herself him himself his into just more most much must not now off once only "
    "other ought ours out over own same she should some still such those through too under "
    "until upon very while whom would yet yours"
)
FUNCTION_WORDS = STOP_WORDS | frozenset(_FUNCTION_WORDS.split())


def related_to_note(engine: VaultEngine, req: RelatedToNoteRequest) -> SearchResult:
    """The memories and notes most related to the note at vault path `path`, best first,
    without the note itself (as search_unified ranks them: active, promoted and notes)."""
    rel = engine.safe_rel(req.path)
    catalog = engine.fresh()
    note = catalog.note(rel)
    if note is None:
        raise NotFound(f"{rel}: no such Markdown note in the vault (give a vault-relative path)")
    terms = distinctive_terms(engine, note)
    catalog.sync_vectors()
    vector = catalog.semantic.vector_of(rel) if engine.config.semantic_search else None
    if not terms and vector is None:
        return SearchResult(count=0, results=[])
    now = engine.now()
    cfg = engine.config
    ranked, matches = rank(
        engine,
        "",
        terms,
        statuses={"active", "promoted", "note"},
        now=now,
        stm_weight=cfg.search_stm_weight,
        ltm_weight=cfg.search_ltm_weight,
        query_vector=vector,
    )
    ranked = ranked.without(rel)
    shown = PageRequest(
        None,
        req.limit,
        300,
        review=False,
        explain=False,
        stm_weight=cfg.search_stm_weight,
        ltm_weight=cfg.search_ltm_weight,
    )
    found = page_of(engine, ranked, matches, shown, now=now)
    return SearchResult(count=found.count, results=found.results, semantic=found.semantic)


def distinctive_terms(engine: VaultEngine, note: IndexedNote) -> list[str]:
    """The note's words that say most about it and are shared with at least one other note."""
    doc = DocumentText(note.title, note.aliases, note.tags, note.entities, note.body[:BODY_CHARS])
    weights = {
        term: weight
        for term, weight in term_stats(doc).weights.items()
        if len(term) >= MIN_TERM_LENGTH and term not in FUNCTION_WORDS and not term.isdigit()
    }
    total, df = engine.catalog.document_frequencies(weights)
    # tf·idf, tf damped: a word said five times is more of the topic, not five times more
    scored = [
        ((1.0 + math.log(weight)) * _idf(df[term], total), term)
        for term, weight in weights.items()
        if df[term] > 1  # held by this note alone: would find nothing else
    ]
    scored.sort(key=lambda st: (-st[0], st[1]))
    return [term for _, term in scored[:QUERY_TERMS]]


def _idf(df: int, total: int) -> float:
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))
