"""A page of search results within its size budget, and the cursor that continues it.

The ranked list is cut into the requested page (count), then into whole hits while they fit
the answer's budget in characters (handlers/browse/size_budget.py); the cursor of a cut answer carries
the instant the list was ranked at, so the continuation sees the same order and every hit of
the page comes exactly once.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.browse.paging import paginate
from cortexgraph_vault.handlers.browse.size_budget import (
    Continuation,
    continuation_cursor,
    fill_within,
    json_size,
    page_notice,
    read_continuation,
    request_digest,
    shrink_text,
)
from cortexgraph_vault.handlers.request_checks import asks_for_history
from cortexgraph_vault.handlers.search.candidates import CandidatePool
from cortexgraph_vault.handlers.search.matched_terms import matched_in
from cortexgraph_vault.handlers.search.relevance import (
    ONLY_COMMON_WORDS,
    Matches,
    only_common_words,
    search_terms,
)
from cortexgraph_vault.handlers.search.search import Ranked, blend, explain_hit, hit, rank
from cortexgraph_vault.models import SearchHit, SearchResult
from cortexgraph_vault.requests.memories import SearchMemoryRequest

if TYPE_CHECKING:  # search_memory's call never builds the unified search's request models
    from cortexgraph_vault.requests.vault import SearchUnifiedRequest

    SearchRequest = SearchMemoryRequest | SearchUnifiedRequest


class PageRequest(NamedTuple):
    page: int | None
    size: int
    preview_length: int
    review: bool
    explain: bool
    stm_weight: float = 1.0
    ltm_weight: float = 1.0
    by_memory_score: bool = False
    budget: PageBudget | None = None

    @staticmethod
    def asked(
        request: SearchRequest, size: int, budget: PageBudget, weights: tuple[float, float]
    ) -> PageRequest:
        """The page a search request asks for: `size` results (unless it gives page_size),
        short-term and long-term weighted so, by memory score when it searches memories."""
        return PageRequest(
            request.page,
            request.page_size or size,
            request.preview_length,
            request.include_review_candidates,
            request.explain,
            *weights,
            by_memory_score=isinstance(request, SearchMemoryRequest),
            budget=budget,
        )


class PageBudget(NamedTuple):
    """The size budget of one search answer and where a cursor continues (handlers/browse/size_budget.py)."""

    max_chars: int
    digest: str  # of the request's arguments: a cursor continues only the same search
    tool: str
    place: Continuation | None = None

    @staticmethod
    def of(engine: VaultEngine, tool: str, request: SearchRequest) -> PageBudget:
        digest = request_digest(tool, request)
        cursor = request.cursor
        place = read_continuation(cursor, digest, tool) if cursor is not None else None
        return PageBudget(engine.config.result_max_chars, digest, tool, place)

    def now(self, engine: VaultEngine) -> datetime:
        """The instant to rank at: a continuation ranks as the call it continues did."""
        if self.place is None or not self.place.instant:
            return engine.now()
        try:
            return datetime.fromisoformat(self.place.instant)
        except ValueError:
            raise InvalidArgument(f"cursor: not one {self.tool} returned") from None


def _cut_tail(kept: int, total: int) -> str:
    return f"…[{total - kept} more characters cut to fit the answer; read_note(path) for all]"


def page_of(
    engine: VaultEngine,
    ranked: CandidatePool,
    matches: Matches | None,
    req: PageRequest,
    *,
    now: datetime,
) -> SearchResult:
    """The requested page of the ranked list, as whole hits while they fit the budget; a
    cursor continues at the first hit not given, up to the end of the same page."""
    start, end, info = paginate(len(ranked), req.page, req.size)
    budget = req.budget or PageBudget(engine.config.result_max_chars, "", "search")
    if budget.place is not None:
        start, end = budget.place.offset, budget.place.end
    ratio = engine.config.review_blend_ratio if req.review else 0.0
    catalog = engine.catalog
    expansions = matches.expansions if matches else {}
    chosen = blend(ranked, ratio, end)[start:end]

    def make(place: int) -> SearchHit | None:
        (score, path, sim, memory_score, priority), as_review = chosen[place]
        note = catalog.note(path)
        if note is None:
            return None
        r = Ranked(score, path, note, sim, memory_score, priority, as_review)
        parts = matches.found.get(path) if matches else None
        by_words = parts is None or parts.lexical > 0
        fields, terms = matched_in(note, expansions, by_words=by_words, catalog=catalog)
        found = hit(engine, r, now, req.preview_length, expansions, by_words, fields)
        if req.explain:
            found.explain = explain_hit(
                engine,
                r,
                start + place + 1,
                matches,
                terms,
                now,
                req.stm_weight,
                req.ltm_weight,
                req.by_memory_score,
            )
        return found

    notices = [f"searched by words alone: {matches.problem}"] if matches and matches.problem else []
    result = SearchResult(
        count=end,
        results=[],
        pagination=info,
        semantic=matches.semantic if matches else None,
        notice="; ".join([*notices, page_notice(budget.max_chars, end, end)]),
        next_cursor=continuation_cursor(Continuation(end, end, now.isoformat()), budget.digest),
    )
    room = budget.max_chars - json_size(result)
    shrink = functools.partial(shrink_text, field="content", tail=_cut_tail)
    results, covered = fill_within(len(chosen), make, room, lambda h, r: shrink(h, room=r))
    result.results, result.count = results, len(results)
    if covered < len(chosen):
        place = Continuation(start + covered, end, now.isoformat())
        result.next_cursor = continuation_cursor(place, budget.digest)
        notices.append(page_notice(budget.max_chars, len(results), start + 1))
    else:
        result.next_cursor = None
    result.notice = "; ".join(notices) or None
    return result


def searched(
    engine: VaultEngine,
    req: SearchRequest,
    statuses: set[str],
    *,
    folder: str | None = None,
    weights: tuple[float, float] = (1.0, 1.0),
) -> SearchResult:
    """A search request answered: the notes of `statuses` its words match, ranked (rank), the
    page it asks for within the result_max_chars setting, `cursor` continuing. A search of
    memories ranks every memory by its score when there is no query, and `min_score` bounds
    the memory score; a unified search bounds the final score."""
    memories = isinstance(req, SearchMemoryRequest)
    budget = PageBudget.of(engine, "search_memory" if memories else "search_unified", req)
    query = req.query or ""
    if query and only_common_words(query):
        return SearchResult(count=0, results=[], notice=ONLY_COMMON_WORDS)
    terms = search_terms(query) if query.strip() else []
    if query.strip() and not terms:
        return SearchResult(count=0, results=[])
    now = budget.now(engine)
    ranked, matches = rank(
        engine,
        query,
        terms,
        statuses=statuses,
        tags=req.tags,
        folder=folder,
        used_since=req.used_since(now),
        now=now,
        stm_weight=weights[0],
        ltm_weight=weights[1],
        by_memory_score=memories,
        include_superseded=asks_for_history(req.status),
    )
    if req.min_score is not None:
        scores = ranked.memory_scores_or_zero() if memories else ranked.score
        ranked = ranked.where(scores >= req.min_score)
    size = req.top_k if isinstance(req, SearchMemoryRequest) else req.limit
    return page_of(engine, ranked, matches, PageRequest.asked(req, size, budget, weights), now=now)
