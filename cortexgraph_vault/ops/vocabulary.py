"""The vault's own vocabulary for enrichment: its notes' titles and aliases, and its tags.

Building the name lookup for a 10k-note vault takes tens of milliseconds, so it is built once
and kept until a note other than a memory changes (memories come and go with every save and
are not names: their titles are made from their first words).
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from cortexgraph_vault.core.enrich import Enrichment, enrich
from cortexgraph_vault.core.gazetteer import Gazetteer, Name
from cortexgraph_vault.engine import VaultEngine


@dataclass(frozen=True)
class Vocabulary:
    names: Gazetteer
    note_tags: frozenset[str]


_cache: weakref.WeakKeyDictionary[VaultEngine, tuple[int, Vocabulary]] = weakref.WeakKeyDictionary()
_cache_lock = threading.Lock()
_STATE_KEY = attrgetter("memory", "path", "sha256")


def vocabulary(engine: VaultEngine) -> Vocabulary:
    """The vocabulary of the catalogue as it is (callers make it fresh); rebuilt only when a
    note other than a memory changed. One pass, no parsing: fast enough for every save."""
    keys = map(_STATE_KEY, engine.catalog.notes())
    state = hash(tuple([k for k in keys if k[0] is None]))
    with _cache_lock:
        cached = _cache.get(engine)
        if cached is not None and cached[0] == state:
            return cached[1]
    vocab = build_vocabulary(engine)
    with _cache_lock:
        _cache[engine] = (state, vocab)
    return vocab


def build_vocabulary(engine: VaultEngine) -> Vocabulary:
    every = engine.catalog.notes()
    # Two notes with one title: link by path, as Obsidian does, so the link is not ambiguous.
    counts = Counter(n.title.casefold() for n in every)
    shared = {t for t, c in counts.items() if c > 1}
    names: list[Name] = []
    tags: set[str] = set()
    for n in every:
        if n.memory is not None:
            continue
        link = n.path.removesuffix(".md") if n.title.casefold() in shared else n.title
        names.append(Name(n.title, n.title, link, True))
        names.extend(Name(alias, n.title, link, False) for alias in n.aliases)
        tags.update(n.tags)
    return Vocabulary(Gazetteer(names), frozenset(tags))


def vault_tags(engine: VaultEngine, vocab: Vocabulary) -> set[str]:
    """Tags in use anywhere: the notes' (cached) and the memories' (cheap to gather)."""
    tags = set(vocab.note_tags)
    for n in engine.catalog.notes():
        if n.memory is not None:
            tags.update(n.tags)
    return tags


def enrichment_for(engine: VaultEngine, text: str) -> Enrichment:
    vocab = vocabulary(engine)
    return enrich(text, vocab.names, vault_tags(engine, vocab))
