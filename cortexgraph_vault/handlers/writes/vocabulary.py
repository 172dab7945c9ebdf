"""The vault's own vocabulary for enrichment: its notes' titles and aliases, and its tags.

Building the name lookup for a big vault is slow, so it is built once and kept until a note
other than a memory changes (memories come and go with every save and are not names: their
titles are made from their first words).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from cortexgraph_vault.core.enrich import Enrichment, enrich
from cortexgraph_vault.core.gazetteer import Gazetteer, Name
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.graph.catalog_memo import CatalogMemo


@dataclass(frozen=True)
class Vocabulary:
    names: Gazetteer


def build_vocabulary(engine: VaultEngine) -> tuple[int, Vocabulary]:
    generation, every = engine.catalog.notes_now()
    # Two notes with one title: link by path, as Obsidian does, so the link is not ambiguous.
    counts = Counter(n.title.casefold() for n in every)
    shared = {t for t, c in counts.items() if c > 1}

    def names() -> Iterator[Name]:
        # one at a time into the lookup; a memory is told without decoding it
        for n in every:
            if n.has_memory:
                continue
            link = n.path.removesuffix(".md") if n.title.casefold() in shared else n.title
            yield Name(n.title, n.title, link, True)
            yield from (Name(alias, n.title, link, False) for alias in n.aliases)

    return generation, Vocabulary(Gazetteer(names()))


# Rebuilt only when a note other than a memory changed, which the catalogue counts.
vocabulary = CatalogMemo(lambda catalog: catalog.note_generation, build_vocabulary)


def enrichment_for(engine: VaultEngine, text: str) -> Enrichment:
    return enrich(text, vocabulary(engine).names, engine.catalog.tags_in_use())
