"""The parts of every match's relevance (core/ranking.py) as arrays, one entry a match.

The formulas of core/ranking.py, worked out for tens of thousands of matches without a Python
step per match: each value is made by the same IEEE operations in the same order as the plain
match-by-match `fuse` and `lend_context` of tests/handlers/search/ranking_reference.py, so the
results are bit for bit theirs (tests/handlers/search/test_rank_arrays.py compares them on
random vaults). The matches keep the order the plain `fuse` gives them, and context is summed
in the order `lend_context` sums it.
"""

from __future__ import annotations

import weakref
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from cortexgraph_vault.core.ranking import (
    Episodes,
    RankingConfig,
    Relevance,
    asks,
    label_credit,
    leading_label,
    long_share,
    reply_credit,
)
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.graph.catalog_memo import CatalogMemo, NoteMemo
from cortexgraph_vault.handlers.search.note_table import NoteTable
from cortexgraph_vault.index.notes.indexed_note import IndexedNote
from cortexgraph_vault.index.text.document_terms import text_tokens


@dataclass(eq=False)
class FoundArrays(Mapping[str, Relevance]):
    """Every match (path → the parts of its relevance), held as arrays."""

    paths: list[str]
    rows: np.ndarray  # the note table's row of each; -1 for a path it does not hold
    lexical: np.ndarray
    vector: np.ndarray
    context: np.ndarray
    lengths: np.ndarray  # each note's indexed length (core/ranking.py `vector_share`)
    row_of: dict[str, int] | None = None  # the note table's
    pages: np.ndarray | None = None  # whether each is a page (not a memory); None: none is
    _index: dict[str, int] | None = None

    def own(self, cfg: RankingConfig) -> np.ndarray:
        w = vector_shares(self.lengths, cfg, self.pages)
        own: np.ndarray = (1 - w) * self.lexical + w * np.maximum(0.0, self.vector)
        return own

    def total(self, cfg: RankingConfig) -> np.ndarray:
        total: np.ndarray = self.own(cfg) + self.context
        return total

    def __getitem__(self, path: str) -> Relevance:
        # a page asks for ten of 50k matches: no dict of every path for that
        if self._index is None:
            self._index = {}
        i = self._index.get(path)
        if i is None:
            row = self.row_of.get(path, -1) if self.row_of is not None else -1
            at = np.flatnonzero(self.rows == row) if row >= 0 else np.zeros(0, np.int64)
            if len(at):
                i = int(at[0])
            elif path in self.paths:
                i = self.paths.index(path)
            else:
                raise KeyError(path)
            self._index[path] = i
        return Relevance(
            float(self.lexical[i]),
            float(self.vector[i]),
            float(self.context[i]),
            float(self.lengths[i]),
            bool(self.pages[i]) if self.pages is not None else False,
        )

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def vector_shares(
    lengths: np.ndarray, cfg: RankingConfig, pages: np.ndarray | None = None
) -> np.ndarray | float:
    """`vector_share` of each length and kind (`pages`: whether each is a page; None: none
    is), one float when every text gets the same."""
    long: np.ndarray | float = cfg.long_vector_weight
    if pages is not None and long_share(cfg, True) != cfg.long_vector_weight:
        long = np.where(pages, long_share(cfg, True), cfg.long_vector_weight)
    elif cfg.long_vector_weight == cfg.vector_weight:
        return cfg.vector_weight
    span = cfg.long_text - cfg.short_text
    if span <= 0:
        return long
    t = np.clip((lengths - cfg.short_text) / span, 0.0, 1.0)
    shares: np.ndarray = cfg.vector_weight + t * (long - cfg.vector_weight)
    return shares


def fuse_arrays(
    lexical: dict[str, float],
    rows: np.ndarray,
    nearest: list[tuple[str, float]],
    cosines: np.ndarray | None,
    cfg: RankingConfig,
    table: NoteTable,
    lengths: np.ndarray | None = None,
    length_of: Callable[[list[str]], np.ndarray] | None = None,
) -> FoundArrays:
    """`fuse`: every note matched by words (in their order, with its note table row in
    `rows`, its cosine in `cosines`, None when vectors took no part, and its indexed length
    in `lengths`), then every note of `nearest` near enough in meaning alone, in its order
    (its length from `length_of`). No lengths: every note counts as short."""
    paths = list(lexical)
    extra = [(p, cos) for p, cos in nearest if cos >= cfg.vector_min and p not in lexical]
    n, m = len(paths), len(extra)
    lex = np.zeros(n + m)
    lex[:n] = np.fromiter(lexical.values(), np.float64, n)
    vec = np.zeros(n + m)
    if cosines is not None:
        vec[:n] = cosines
    vec[n:] = [cos for _, cos in extra]
    paths.extend(p for p, _ in extra)
    size = np.zeros(n + m)
    if lengths is not None:
        size[:n] = lengths
    if m and length_of is not None:
        size[n:] = length_of(paths[n:])
    rows = np.concatenate([rows, table.rows(paths[n:])])
    # a page: a note of the table with no save time (a memory has one)
    pages = (rows >= 0) & np.isnan(table.created[np.maximum(rows, 0)])
    return FoundArrays(paths, rows, lex, vec, np.zeros(n + m), size, table.row_of, pages)


@dataclass(frozen=True)
class EpisodeLinks:
    """Episodes with each memory's neighbours worked out once: `near[i, slot]` is the
    position of the neighbour at `distance[slot]` (before, then after) or -1. Links made
    from earlier ones (`links_after`) name them (`prior`, weakly) and the paths whose
    position may differ (`moved`): what is derived from their positions follows them."""

    episodes: Episodes
    index: dict[str, int]
    times: np.ndarray
    near: np.ndarray
    distance: list[int]
    prior: weakref.ref[EpisodeLinks] | None = None
    moved: tuple[str, ...] = ()


def episode_links(episodes: Episodes, reach: int, gap: float) -> EpisodeLinks:
    times = np.asarray(episodes.times, dtype=np.float64)
    near, distance = _near(times, np.arange(len(times)), reach, gap)
    paths = list(episodes.paths)
    return EpisodeLinks(
        episodes, dict(zip(paths, range(len(times)), strict=True)), times, near, distance
    )


def links_after(before: EpisodeLinks, episodes: Episodes, reach: int, gap: float) -> EpisodeLinks:
    """`episode_links(episodes, ...)`, from the links of earlier episodes: the rows before the
    first position that differs are kept, and only the later ones (and those within `reach`
    before it, whose later neighbours may differ) are worked out again. A save most often
    lands at the end (the newest save time; or among the last, saved the same second)."""
    old = before.episodes
    n_old, n = len(old.paths), len(episodes.paths)
    if len(before.distance) != 2 * reach:
        return episode_links(episodes, reach, gap)
    both = min(n_old, n)
    if n >= n_old and _starts_with(episodes.times, old.times):
        # saves at the end (the most common): the times held already are not converted again
        # (the lists' items compared by identity first: one pass in C)
        added = np.asarray(episodes.times[n_old:], dtype=np.float64)
        times = np.concatenate([before.times, added])
        first = both
    else:
        times = np.asarray(episodes.times, dtype=np.float64)
        differ = np.flatnonzero(times[:both] != before.times[:both])
        first = int(differ[0]) if len(differ) else both
    if first:  # paths may differ from where the run of equal times before `first` starts
        first = bisect_left(episodes.times, episodes.times[first - 1], 0, first)
    if not _starts_with(episodes.paths[:first], old.paths[:first]) and list(
        episodes.paths[:first]
    ) != list(old.paths[:first]):
        return episode_links(episodes, reach, gap)
    start = max(0, first - reach)  # earlier rows' neighbours are all before `first`: kept
    if n - start <= FEW_ROWS:
        tail, distance = _near_few(times, start, n, reach, gap)
    else:
        tail, distance = _near(times, np.arange(start, n), reach, gap)
    near = np.concatenate([before.near[:start], tail])
    index = dict(before.index)
    gone, came = old.paths[first:], episodes.paths[first:]
    for path in gone:
        del index[path]
    for i in range(first, n):
        index[came[i - first]] = i
    return EpisodeLinks(episodes, index, times, near, distance, weakref.ref(before), (*gone, *came))


def _starts_with(seq: Sequence[object], head: Sequence[object]) -> bool:
    """Whether `seq` begins with every item of `head` (lists compared in C; other sequences
    are not: the caller works it out with arrays)."""
    if not isinstance(seq, list) or not isinstance(head, list):
        return False
    return seq[: len(head)] == head


FEW_ROWS = 32  # rows whose neighbours are worked out one by one: fewer steps than in arrays


def _near_few(
    times: np.ndarray, start: int, end: int, reach: int, gap: float
) -> tuple[np.ndarray, list[int]]:
    """`_near` of the rows from `start` to `end`, row by row: after a save, a few rows at the
    end, where each array step of `_near` cost more than its work. The same values: a
    neighbour is kept while every step to it stays within `gap` (float64 differences)."""
    n = len(times)
    found: list[int] = []
    for i in range(start, end):
        for step in (-1, 1):
            ok, prev = True, i
            for k in range(1, reach + 1):
                nxt = i + step * k
                ok = ok and 0 <= nxt < n and not abs(float(times[nxt]) - float(times[prev])) > gap
                found.append(nxt if ok else -1)
                prev = nxt
    distance = [*range(1, reach + 1), *range(1, reach + 1)]
    near = np.array(found, dtype=np.int64).reshape(end - start, 2 * reach)
    return near, distance


def _near(
    times: np.ndarray, here: np.ndarray, reach: int, gap: float
) -> tuple[np.ndarray, list[int]]:
    """The neighbours (position or -1) of the rows `here`, by slot, and each slot's distance."""
    n = len(times)
    slots: list[np.ndarray] = []
    distance: list[int] = []
    for step in (-1, 1):
        prev = here
        ok = np.ones(len(here), dtype=bool)
        for k in range(1, reach + 1):
            nxt = here + step * k
            inside = (nxt >= 0) & (nxt < n)
            safe = np.clip(nxt, 0, max(0, n - 1))
            ok = ok & inside & ~(np.abs(times[safe] - times[np.clip(prev, 0, max(0, n - 1))]) > gap)
            slots.append(np.where(ok, nxt, -1))
            distance.append(k)
            prev = nxt
    near = np.stack(slots, axis=1) if slots else np.zeros((len(here), 0), dtype=np.int64)
    return near, distance


def lend_context_arrays(
    found: FoundArrays, links: EpisodeLinks, table: NoteTable, cfg: RankingConfig
) -> None:
    """`lend_context`: each memory matched by words lends part of its relevance to its
    episode neighbours that match too, summed per neighbour in the plain function's order
    (lender by lender in match order, nearest neighbour first, before then after)."""
    if cfg.context_weight <= 0 or cfg.context_reach <= 0 or not len(found):
        return
    own = found.own(cfg)
    rows = found.rows
    created = np.where(rows >= 0, table.created[np.maximum(rows, 0)], np.nan)
    by_row = _episode_rows(table, links)
    at = np.where(~np.isnan(created), by_row[np.maximum(rows, 0)], -1)
    in_episodes = at >= 0
    # which match each episode position is (by path, as `own_of.get(other)` finds it)
    match_at = np.full(len(links.times), -1, dtype=np.int64)
    match_at[at[in_episodes]] = np.nonzero(in_episodes)[0]
    known = in_episodes & ~np.isnan(created)
    # `position`: a lender is found at its place only when the save time is the one there
    known[known] = links.times[at[known]] == created[known]
    lenders = np.nonzero(known & (own > 0) & (found.lexical > 0))[0]
    if not len(lenders) or not links.near.shape[1]:
        return
    near = links.near[at[lenders]]  # (lenders, slots), episode positions or -1
    other = np.where(near >= 0, match_at[np.maximum(near, 0)], -1)
    mine = own[lenders][:, None]
    gain = mine - np.where(other >= 0, own[np.maximum(other, 0)], mine)
    coef = np.array([cfg.context_weight * 0.5 ** (k - 1) for k in links.distance])
    amount = coef[None, :] * gain
    lent = (other >= 0) & (gain > 0)
    lent_to = other[lent]  # row-major: lender by lender, slots in order
    totals = np.zeros(len(found))
    np.add.at(totals, lent_to, amount[lent])
    # each receiver once, in order (np.unique would import numpy.ma: a tenth of numpy's load)
    lent_mask = np.zeros(len(found), dtype=bool)
    lent_mask[lent_to] = True
    receivers = np.flatnonzero(lent_mask)
    found.context[receivers] = totals[receivers]


@dataclass(frozen=True)
class TextCues:
    """What ranking reads in a memory's text beyond its words: whether it asks something,
    and the stems of the label it opens with."""

    asks: bool
    label: frozenset[str]


def _text_cues(note: IndexedNote) -> TextCues:
    text = note.body_text()
    label = leading_label(text)
    return TextCues(asks(text), frozenset(text_tokens(label)) if label else frozenset())


# the best matches of a query come back across searches, and decoding their texts each time
# cost more than the rest of this step
text_cues = NoteMemo(_text_cues)


def _best(values: np.ndarray, among: np.ndarray, count: int) -> np.ndarray:
    """The `count` positions of `among` with the highest `values` (all when fewer)."""
    if len(among) <= count:
        return among
    picked: np.ndarray = among[np.argpartition(-values[among], count - 1)[:count]]
    return picked


def lend_to_replies(
    found: FoundArrays, links: EpisodeLinks, table: NoteTable, cfg: RankingConfig
) -> FoundArrays:
    """`reply_credit` over the best word matches (`reply_lenders` of them) that ask
    something: each one's reply (the memory saved next in its episode) gains context, and
    joins the matches when it was not one. Only those few notes' texts are read."""
    if cfg.reply_weight <= 0 or not len(found) or not links.near.shape[1]:
        return found
    total = found.total(cfg)
    rows = found.rows
    worded = _best(total, np.flatnonzero((found.lexical > 0) & (rows >= 0)), cfg.reply_lenders)
    if not len(worded):
        return found
    own = found.own(cfg)
    by_row = _episode_rows(table, links)
    after = links.distance.index(1, len(links.distance) // 2)  # the slot saved right after
    questions: list[tuple[str, float]] = []
    reply_of: dict[str, str] = {}
    paths = found.paths
    for i in worded.tolist():
        row = int(rows[i])
        at = int(by_row[row])
        nxt = int(links.near[at, after]) if at >= 0 else -1
        if nxt < 0 or not text_cues(table.notes[row]).asks:
            continue
        questions.append((paths[i], float(own[i])))
        reply_of[paths[i]] = links.episodes.paths[nxt]
    if not questions:
        return found
    replies = list(dict.fromkeys(reply_of.values()))
    reply_rows = table.rows(replies)
    # where each reply is among the matches (one pass over them, not one a reply)
    matched = np.flatnonzero(np.isin(rows, reply_rows[reply_rows >= 0]))
    position: dict[int, int] = {}
    for i in matched.tolist():
        position.setdefault(int(rows[i]), i)
    where: dict[str, int | None] = {
        reply: position.get(row) for reply, row in zip(replies, reply_rows.tolist(), strict=True)
    }
    relevance = {r: float(total[i]) for r, i in where.items() if i is not None}
    gains = reply_credit(questions, reply_of, relevance, cfg.reply_weight)
    new = [r for r in gains if where[r] is None and r in table.row_of]
    for reply, gain in gains.items():
        i = where[reply]
        if i is not None:
            found.context[i] += gain
    if not new:
        return found
    n = len(new)
    return FoundArrays(
        [*paths, *new],
        np.concatenate([rows, table.rows(new)]),
        np.concatenate([found.lexical, np.zeros(n)]),
        np.concatenate([found.vector, np.zeros(n)]),
        np.concatenate([found.context, np.array([gains[r] for r in new])]),
        np.concatenate([found.lengths, np.zeros(n)]),
        found.row_of,
        None if found.pages is None else np.concatenate([found.pages, np.zeros(n, dtype=bool)]),
    )


def credit_labels(
    found: FoundArrays, table: NoteTable, cfg: RankingConfig, terms: Sequence[str]
) -> None:
    """`label_credit` for the best matches (`label_top` of them) that are memories."""
    if cfg.label_weight <= 0 or not len(found) or not terms:
        return
    total = found.total(cfg)
    rows = found.rows
    memory = rows >= 0
    memory[memory] = ~np.isnan(table.created[rows[memory]])
    wanted = frozenset(terms)
    for i in _best(total, np.flatnonzero(memory), cfg.label_top).tolist():
        label = text_cues(table.notes[int(rows[i])]).label
        found.context[i] += label_credit(float(total[i]), label, wanted, cfg.label_weight)


# (the table's paths, the episodes, which rows are memories, the episode row of each)
_last_rows: tuple[list[str], EpisodeLinks, np.ndarray, np.ndarray] | None = None
MOVED_MAX = 256  # rows looked up again from the last ones: past this, all of them


def _episode_rows(table: NoteTable, links: EpisodeLinks) -> np.ndarray:
    """The episode position of each table row's note (-1: none), once per list of paths,
    episodes and memory rows. Episodes hold memories only (with their save times): plain
    notes are not looked up. The tables that follow touches share their list of paths (each
    touch makes a new table); after a save (a list with
    one path more, links made from the last ones) only the rows that may differ are looked
    up (`_rows_after`). The list is held (it takes no weak reference): one at a time, most
    often the newest table's own."""
    global _last_rows
    is_memory = ~np.isnan(table.created)
    cached = _last_rows
    if (
        cached is not None
        and cached[0] is table.paths
        and cached[1] is links
        and np.array_equal(cached[2], is_memory)
    ):
        return cached[3]
    by_row = _rows_after(cached, table, links, is_memory) if cached is not None else None
    if by_row is None:
        memories = np.flatnonzero(is_memory)
        paths = table.paths
        by_row = np.full(len(paths), -1, dtype=np.int64)
        by_row[memories] = np.fromiter(
            map(links.index.get, [paths[i] for i in memories.tolist()], repeat(-1)),
            np.int64,
            len(memories),
        )
    _last_rows = (table.paths, links, is_memory, by_row)
    return by_row


def _rows_after(
    cached: tuple[list[str], EpisodeLinks, np.ndarray, np.ndarray],
    table: NoteTable,
    links: EpisodeLinks,
    is_memory: np.ndarray,
) -> np.ndarray | None:
    """`_episode_rows` from the last ones, when the table's paths are the last list or it
    with paths added at its end and `links` are the last links or made from them; else None.
    Looked up again: the rows added, those whose note became or stopped being a memory, and
    those of the paths whose episode position may have moved. A removed note's row (no
    search reaches it) may keep an older value."""
    before, before_links, was_memory, rows = cached
    if links is before_links:
        moved: tuple[str, ...] = ()
    elif links.prior is not None and links.prior() is before_links:
        moved = links.moved
    else:
        return None
    k, paths = len(before), table.paths
    if paths is not before and (len(paths) < k or paths[:k] != before):
        return None  # (the items are compared by identity first: one pass in C)
    changed = np.flatnonzero(was_memory != is_memory[:k])
    if len(moved) + len(changed) > MOVED_MAX:
        return None
    by_row = np.concatenate([rows, np.full(len(paths) - k, -1, dtype=np.int64)])
    again = [*changed.tolist(), *(np.flatnonzero(is_memory[k:]) + k).tolist()]
    row_of = table.row_of
    again += [row for path in moved if (row := row_of.get(path)) is not None]
    get = links.index.get
    for row in again:
        by_row[row] = get(paths[row], -1) if is_memory[row] else -1
    return by_row


_last_numbers: tuple[EpisodeLinks, float, np.ndarray] | None = None


def episode_numbers(table: NoteTable, links: EpisodeLinks, gap: float) -> np.ndarray:
    """The episode each table row's memory belongs to (-1: a plain note): consecutive saves
    less than `gap` apart share one, as they share neighbours."""
    global _last_numbers
    cached = _last_numbers
    if cached is not None and cached[0] is links and cached[1] == gap:
        numbers = cached[2]
    else:
        times = links.times
        numbers = np.zeros(len(times), dtype=np.int64)
        if len(times) > 1:
            numbers[1:] = np.cumsum(np.diff(times) > gap)
        _last_numbers = (links, gap, numbers)
    at = _episode_rows(table, links)
    if not len(numbers):
        return np.full(len(at), -1, dtype=np.int64)
    out: np.ndarray = np.where(at >= 0, numbers[np.maximum(at, 0)], -1)
    return out


# the last links made for each engine (reach, gap, links): the next are made from them
_last_links: weakref.WeakKeyDictionary[VaultEngine, tuple[int, float, EpisodeLinks]] = (
    weakref.WeakKeyDictionary()
)


def _links(engine: VaultEngine) -> tuple[int, EpisodeLinks]:
    from cortexgraph_vault.handlers.search.relevance import episodes, ranking_config

    cfg = ranking_config(engine.config)
    reach, gap = cfg.context_reach, cfg.context_gap
    generation, found = episodes.at(engine)
    last = _last_links.get(engine)  # (CatalogMemo makes one at a time)
    if last is None or last[:2] != (reach, gap):
        links = episode_links(found, reach, gap)
    elif last[2].episodes is found:
        links = last[2]
    else:
        links = links_after(last[2], found, reach, gap)
    _last_links[engine] = (reach, gap, links)
    return generation, links


# Rebuilt when memories come, go or move, as the episodes themselves are.
links_of = CatalogMemo(lambda catalog: catalog.relation_generation, _links)
