"""How well each note matches a query: words (stemmed, prefixes, typos, everyday synonyms
and two words the vault writes as one), the note's vector, and the memories saved around it
(core/ranking.py).

Whatever path a note took to change — our write, a person's edit, a checkout, an import —
its vector is brought up to date here before the search looks (`sync_vectors`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from cortexgraph_vault.config import Config
from cortexgraph_vault.core.ranking import Episodes, RankingConfig
from cortexgraph_vault.core.relevance import QUERY_STOP_WORDS, compound_pairs
from cortexgraph_vault.core.synonyms import synonym_map
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.graph.catalog_memo import CatalogMemo
from cortexgraph_vault.handlers.search.note_table import NoteTable, note_table, note_table_at
from cortexgraph_vault.handlers.search.relevance_arrays import (
    FoundArrays,
    credit_labels,
    fuse_arrays,
    lend_context_arrays,
    lend_to_replies,
    links_of,
)
from cortexgraph_vault.index.catalog.change_log import ADDED, RELATIONS, Changes
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.text.text_index import stems, words

SYNONYM_WEIGHT = 0.7  # a synonym matches like the query word, at this weight
# two query words the vault holds as one word match it for the first of them, at this weight
COMPOUND_WEIGHT = 0.5
MEANING_SHORT_TEXT, MEANING_LONG_TEXT = 40.0, 120.0  # indexed words (core/ranking.py)
SYNONYMS = synonym_map(stems)


def ranking_config(config: Config) -> RankingConfig:
    return RankingConfig(
        prior_floor=config.search_prior_floor,
        vector_weight=config.search_vector_weight if config.semantic_search else 0.0,
        long_vector_weight=config.search_long_note_vector_weight if config.semantic_search else 0.0,
        context_weight=config.search_context_weight,
        episode_discount=config.search_episode_discount,
        reply_weight=config.search_reply_weight,
        label_weight=config.search_label_weight,
    )


def meaning_config(config: Config, cfg: RankingConfig) -> RankingConfig:
    """The ranking by the sentence encoder's vectors. It reads a note's first 128 tokens
    (~100 words), so a note is long to it sooner than to the word vectors."""
    return replace(
        cfg,
        vector_weight=config.meaning_weight,
        long_vector_weight=config.meaning_long_note_weight,
        page_vector_weight=config.meaning_long_page_weight,
        vector_min=config.meaning_min_cosine,
        short_text=MEANING_SHORT_TEXT,
        long_text=MEANING_LONG_TEXT,
    )


ONLY_COMMON_WORDS = (
    "the query has only common words (the, and, of, ...); add a word that names the topic"
)


# Stop words that are their own stem stand for their inflections too: "thinking", "things"
# and "mentioned" are dropped as "think", "thing" and "mention" are. (A stop word whose stem
# is another word is not: "lately" is filler, "late" is not.)
STOP_STEMS = frozenset(w for w in QUERY_STOP_WORDS if stems([w]) == [w])


def _meaningful(found: list[str]) -> list[tuple[str, str]]:
    """(word, stem) of the words that carry meaning."""
    return [
        (w, s)
        for w, s in zip(found, stems(found), strict=True)
        if w not in QUERY_STOP_WORDS and s not in STOP_STEMS
    ]


def only_common_words(query: str) -> bool:
    found = words(query)
    return bool(found) and not _meaningful(found)


def search_terms(query: str | None) -> list[str]:
    """The stems of the query words that carry meaning (of all of them if every word is a
    stop word)."""
    found = words(query or "")
    meaningful = [s for _, s in _meaningful(found)]
    return list(dict.fromkeys(meaningful or stems(found)))


def keywords(query: str, most: int) -> list[str] | None:
    """The stems of a query of a few keywords — at most `most` words, none of them filler —
    or None for a sentence, a question or a longer query."""
    found = words(query)
    meaningful = _meaningful(found)
    if not found or len(found) > most or len(meaningful) != len(found):
        return None
    return list(dict.fromkeys(s for _, s in meaningful))


def settled_by_words(catalog: VaultCatalog, query: str, most: int) -> bool:
    """Whether the query's own words settle what it asks, so the sentence encoder need not
    read it: a few keywords each held by some note as it is. The encoder earns its cost on
    what words leave open: a sentence (read in context), a word the vault does not hold (a
    paraphrase: "woollen handicrafts" for the knitting note). Decided by the query and the
    vault alone, so a query gets the same answer whatever else the process is doing."""
    stems_ = keywords(query, most)
    if stems_ is None:
        return False
    _, frequencies = catalog.document_frequencies(stems_)
    return all(frequencies[s] > 0 for s in stems_)


def compound_terms(catalog: VaultCatalog, query: str, terms: Sequence[str]) -> dict[str, list[str]]:
    """Query term → the stems of the words the vault holds that it and the next query word
    make when written as one ("spell check": "spell" → "spellcheck"). People write some
    words both ways, and each way is one word to the index; neither the vectors nor a typo
    match bridges them, for a word of their own ("spell") matches only itself. The compound
    stands in for the first word alone: a note saying both words apart matches better."""
    pairs = compound_pairs(words(query))
    if not pairs:
        return {}
    firsts = stems([first for first, _ in pairs])
    joined = stems([both for _, both in pairs])
    _, frequencies = catalog.document_frequencies(joined)
    wanted = set(terms)
    found: dict[str, list[str]] = {}
    for first, both in zip(firsts, joined, strict=True):
        if first in wanted and both != first and frequencies[both] > 0:
            found.setdefault(first, []).append(both)
    return found


def _built_episodes(engine: VaultEngine) -> tuple[int, Episodes]:
    # Save times and paths from the note table (its `created` is each memory's
    # `created.timestamp()`, nan for a plain note): decoding every memory of the catalogue
    # for them was most of this, and it is rebuilt after every save (a daemon under load).
    generation, table = note_table_at(engine)
    live = table.live
    rows = live[~np.isnan(table.created[live])].tolist()
    paths = table.paths
    timed = sorted(zip(table.created[rows].tolist(), [paths[r] for r in rows], strict=True))
    return generation, Episodes([p for _, p in timed], [t for t, _ in timed])


def _updated_episodes(before: Episodes, changes: Changes) -> Episodes:
    """`before` after `changes`: the memories whose relations, names, place or save time may
    have changed (the RELATIONS flag) are taken out and put back where their save time is.
    One added since (a save) was not in it: none is looked for."""
    held: dict[str, bool] = {}  # changed path → whether `before` may hold it
    for path, flags in changes.changes:
        if flags & RELATIONS and path not in held:
            held[path] = not flags & ADDED
    if not held:
        return before
    added = []
    for path in held:
        note = changes.notes[path]
        state = note.memory_state if note is not None else None
        if state is not None and state.created is not None:
            added.append((state.created.timestamp(), path))
    gone = {path for path, maybe in held.items() if maybe}
    return before.changed(gone, added)


# Save times do not change when a memory is used, so the order is made again only when
# memories come, go or move (relation_generation), not on every touch: from the last one.
episodes = CatalogMemo(
    lambda catalog: catalog.relation_generation, _built_episodes, _updated_episodes
)


@dataclass
class Matches:
    """Every note the query matches, with the parts of its relevance."""

    found: FoundArrays
    expansions: dict[str, list[str]]  # query term → vocabulary terms it matched
    config: RankingConfig
    semantic: bool = False  # vectors took part
    problem: str | None = None  # why they did not, when they could not
    # term → its synonyms' stems and the words it makes with the next one (compound_terms)
    related: dict[str, list[str]] = field(default_factory=dict)


def match(
    engine: VaultEngine,
    catalog: VaultCatalog,
    query: str,
    terms: Sequence[str],
    query_vector: np.ndarray | None = None,
    table: NoteTable | None = None,
) -> Matches:
    """`query_vector`: a vector to search by instead of the query's (a note's own). `table`:
    the note table the caller ranks with — rows are positions in one table, and another
    search's touch may have built a newer (compacted) one meanwhile."""
    cfg = ranking_config(engine.config)
    sem = catalog.semantic
    use_vectors = engine.config.semantic_search and (bool(terms) or query_vector is not None)
    related = {t: [(s, SYNONYM_WEIGHT) for s in SYNONYMS[t]] for t in terms if t in SYNONYMS}
    for term, compounds in compound_terms(catalog, query, terms).items():
        related[term] = [*related.get(term, ()), *((c, COMPOUND_WEIGHT) for c in compounds)]
    qvec = None
    if use_vectors:
        catalog.sync_vectors()
        # the sentence encoder's vectors once every note has one; the word vectors meanwhile
        reads = (
            query_vector is None
            and engine.config.meaning_search
            and not settled_by_words(catalog, query, engine.config.meaning_query_words)
        )
        meaning = catalog.meaning.ready() if reads else None
        if reads:
            catalog.meaning.ranked(by_encoder=meaning is not None)
        if meaning is not None:
            sem, cfg = meaning, meaning_config(engine.config, cfg)
        qvec = query_vector if query_vector is not None else sem.query_vector(query)
    sized = qvec is not None and cfg.long_vector_weight != cfg.vector_weight
    if sized:  # the share of a note's vector depends on its length
        lexical, expansions, lengths = catalog.search_text_sized(list(terms), related)
    else:
        (lexical, expansions), lengths = catalog.search_text(list(terms), related), None
    nearest: list[tuple[str, float]] = []
    cosines = None
    if table is None:
        table = note_table(engine)
    rows = table.rows(list(lexical))
    if qvec is not None:
        with sem.lock:  # the rows asked for are those of the vectors looked at
            # by the table's list of paths, not the table: the tables that follow touches
            # share it (each touch makes a new table)
            vector_rows = sem.rows_of(table.paths, table.paths, table.row_of)
            also = np.where(rows >= 0, vector_rows[np.maximum(rows, 0)], -1)
            nearest, cosines = sem.nearest_arrays(qvec, cfg.vector_candidates, cfg.vector_min, also)
    found = fuse_arrays(
        lexical,
        rows,
        nearest,
        cosines,
        cfg,
        table,
        lengths,
        catalog.text_lengths if sized else None,
    )
    if len(found) and cfg.context_weight > 0:
        lend_context_arrays(found, links_of(engine), table, cfg)
    if len(found) and cfg.reply_weight > 0:
        found = lend_to_replies(found, links_of(engine), table, cfg)
    credit_labels(found, table, cfg, terms)
    return Matches(
        found,
        expansions,
        cfg,
        semantic=qvec is not None,
        problem=sem.problem if use_vectors else None,
        related={t: [c for c, _ in r] for t, r in related.items()},
    )
