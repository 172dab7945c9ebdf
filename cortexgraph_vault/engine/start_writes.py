"""When a starting process makes its notes' vectors and writes the index cache.

A long-lived process (the daemon, the stdio MCP server) makes every missing vector at start,
behind its first answers on a big vault, and writes the cache once they are made. A one-call
process (a CLI command) makes none at start: most commands (`stats`, `show`, `list`) never
look by meaning, and embedding a big vault costs seconds of CPU that the process would wait
for before it exits. It writes the notes and the word
index at once, marked as lacking those vectors; the next search (in any process) or the daemon
makes them, and whoever made many of them writes them to the cache.
"""

from __future__ import annotations

from cortexgraph_vault.index.cache.index_cache import IndexCache
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog


def vectors_and_cache_at_start(
    catalog: VaultCatalog,
    cache: IndexCache,
    *,
    big: bool,
    one_call: bool,
    cached_vectors: bool,
    min_changes: int,
) -> None:
    """`cached_vectors`: the cache the process started from held every note's vector (or
    there was no cache); `min_changes`: notes re-parsed that make rewriting the cache worth it.
    A big vault's cache is written behind the first answers, not before them."""
    if one_call:
        if cache.save_if_changed(catalog, min_changes=min_changes, background=big):
            cached_vectors = not catalog.vectors_waiting()
        catalog.vectors_made = MadeVectorsSaved(
            catalog, cache, min_changes, big=big, cached_all=cached_vectors
        )
        return
    # A big vault answers by words while its new notes are embedded; a search waits for those
    # vectors, so it finds what it always did.
    behind = big and catalog.vectors_waiting()
    vectors = catalog.sync_vectors_behind() if behind else None
    if vectors is None:
        catalog.sync_vectors()
    # vectors the cache lacked are written once made, however few notes changed
    cache.save_if_changed(
        catalog, min_changes=min_changes if cached_vectors else 0, background=big, after=vectors
    )


class MadeVectorsSaved:
    """A one-call process's vectors (made by its search) go to the cache when they are many,
    or complete a cache that lacked some: the next process finds them there instead of
    embedding those notes again. A few, of notes changed since the cache was written, are
    cheaper made again than the whole cache rewritten."""

    def __init__(
        self,
        catalog: VaultCatalog,
        cache: IndexCache,
        min_made: int,
        *,
        big: bool,
        cached_all: bool,
    ) -> None:
        self.catalog = catalog
        self.cache = cache
        self.min_made = min_made
        self.big = big
        self.cached_all = cached_all  # the cache file holds every vector it needs
        self.made = 0

    def __call__(self, count: int) -> None:
        self.made += count
        completes = not self.cached_all and not self.catalog.vectors_waiting()
        if self.made >= self.min_made or completes:
            self.made = 0
            self.cached_all = not self.catalog.vectors_waiting()
            self.cache.save(self.catalog, background=self.big)
