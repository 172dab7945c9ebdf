"""The memories a new save likely replaces (core/replacement.py judges), found through the
index: the memories sharing the save's topic words, and those stating the same slots.

Only current memories are weighed (active or promoted, not already replaced by another), and
only a few dozen of them: the search index hands over the candidates, so a save in a vault
of 10k notes reads a handful of notes, not all of them.
"""

from __future__ import annotations

from collections.abc import Container

from cortexgraph_vault.core.fact_slots import SLOT_SEEDS, slots_stated
from cortexgraph_vault.core.replacement import Replacement, Statement, likely_replaced
from cortexgraph_vault.core.use_relevance import WordWeights, content_words, idf_rarity
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.text_index import stems

CANDIDATES = 12  # memories taken from each search
CURRENT = ("active", "promoted")


def likely_replacements(
    engine: VaultEngine, text: str, *, besides: Container[str] = ()
) -> list[tuple[Replacement, str]]:
    """(verdict, path) of each current memory `text` likely replaces, surest first;
    `besides`: paths not to weigh (the save itself)."""
    catalog = engine.catalog
    found_stems = stems(content_words(text))
    queries = [found_stems] + [
        stems(SLOT_SEEDS[s].split()) for s in sorted(slots_stated(text)) if s in SLOT_SEEDS
    ]
    paths: dict[str, float] = {}
    for terms in queries:
        if not terms:
            continue
        hits, _ = catalog.search_text(list(dict.fromkeys(terms)))
        best = sorted(hits.items(), key=lambda h: (-h[1], h[0]))[:CANDIDATES]
        for path, sim in best:
            paths[path] = max(paths.get(path, 0.0), sim)
    olds: list[Statement] = []
    where: dict[str, str] = {}
    for path in paths:
        if path in besides:
            continue
        note = catalog.note(path)
        if note is None or note.memory is None:
            continue
        m = note.memory
        if m.status not in CURRENT or _replaced(note.frontmatter):
            continue
        key = m.id or path
        where[key] = path
        olds.append(Statement(key, m.title, f"{m.body}", m.created.timestamp()))
    if not olds:
        return []
    texts = [text, *(o.text for o in olds)]
    documents, frequencies = catalog.document_frequencies(
        {s for t in texts for s in stems(content_words(t))}
    )
    weights = WordWeights(stems, idf_rarity(documents, frequencies))
    return [(r, where[r.key]) for r in likely_replaced(text, olds, weights)]


def _replaced(frontmatter: object) -> bool:
    """Already replaced by another memory (the `superseded_by` property): the newer one is
    the fact a save might replace now."""
    return isinstance(frontmatter, dict) and bool(frontmatter.get("superseded_by"))
