"""The memories a new save likely replaces (core/replacement.py judges), found through the
index: the memories sharing the save's topic words, and those stating the same slots.

Only current memories are weighed (active or promoted, not already replaced by another), and
only a few dozen of them: the search index hands over the candidates, so a save in a vault
of 10k notes reads a handful of notes, not all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from cortexgraph_vault.core.fact_slots import SLOT_SEEDS, slots_stated
from cortexgraph_vault.core.replacement import Replacement, Statement, likely_replaced
from cortexgraph_vault.core.use_relevance import WordWeights, content_words, idf_rarity
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.text.text_index import stems

CANDIDATES = 12  # memories taken from each look-up
TERMS = 6  # the rarest words of a save (or of its slots) looked up
SELECTIVE_MIN = 50
LISTED = 5  # at most this many in an answer: beyond, the slot is too crowded to tell
CURRENT = ("active", "promoted")


def likely_replacements(
    engine: VaultEngine, text: str, *, besides: Container[str] = ()
) -> list[tuple[Replacement, str]]:
    """(verdict, path) of each current memory `text` likely replaces, surest first;
    `besides`: paths not to weigh (the save itself)."""
    catalog = engine.catalog
    own = list(dict.fromkeys(stems(content_words(text))))
    seeds = [
        t
        for slot in sorted(slots_stated(text))
        if slot in SLOT_SEEDS
        for t in stems(SLOT_SEEDS[slot].split())
    ]
    documents, frequencies = catalog.document_frequencies({*own, *seeds})
    rarity = idf_rarity(documents, frequencies)
    paths = _holders(catalog, _selective(own, frequencies, documents), rarity)
    for path, weight in _holders(
        catalog, _selective(seeds, frequencies, documents), rarity
    ).items():
        paths[path] = max(paths.get(path, 0.0), weight)
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
    documents, frequencies = catalog.document_frequencies(
        {s for o in olds for s in stems(content_words(o.text))} | set(own)
    )
    weights = WordWeights(stems, idf_rarity(documents, frequencies))
    return [(r, where[r.key]) for r in likely_replaced(text, olds, weights)[:LISTED]]


def _selective(terms: list[str], frequencies: dict[str, int], documents: int) -> list[str]:
    """The rarest few terms held by at least one note and by few enough to tell (a word in a
    tenth of the vault or more finds nothing in particular)."""
    cap = max(SELECTIVE_MIN, documents // 10)
    held = [t for t in dict.fromkeys(terms) if 0 < frequencies.get(t, 0) <= cap]
    return sorted(held, key=lambda t: (frequencies[t], t))[:TERMS]


def _holders(
    catalog: VaultCatalog, terms: list[str], rarity: Callable[[str], float]
) -> dict[str, float]:
    """The notes holding the terms (exact stems, no prefixes or typos: a save is no query),
    each weighed by the rarity of the terms it holds, the weightiest CANDIDATES of them."""
    weight: dict[str, float] = {}
    with catalog.lock:
        for term in terms:
            r = rarity(term)
            for path in catalog.text.postings_of(term):
                weight[path] = weight.get(path, 0.0) + r
    best = sorted(weight.items(), key=lambda h: (-h[1], h[0]))[:CANDIDATES]
    return dict(best)


def _replaced(frontmatter: object) -> bool:
    """Already replaced by another memory (the `superseded_by` property): the newer one is
    the fact a save might replace now."""
    return isinstance(frontmatter, dict) and bool(frontmatter.get("superseded_by"))
