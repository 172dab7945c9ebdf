"""Helpers for index tests: a catalogue, a fresh index to compare with, file hashes, waiting."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cortexgraph_vault.config import load_config
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.index.text.text_index import TextIndex
from cortexgraph_vault.vault.layout import VaultLayout


def catalog_of(root: Path) -> VaultCatalog:
    catalog = VaultCatalog(VaultLayout(root))
    catalog.refresh()
    return catalog


def signature(catalog: VaultCatalog) -> dict[str, Any]:
    """Everything the index knows, in a form two indexes of the same files compare equal in."""
    with catalog.lock:
        notes = {
            n.path: (n.sha256, n.size, n.mtime_ns, n.links, n.tags, n.aliases, n.entities,
                     n.memory.id if n.memory else None, n.problems)
            for n in catalog.notes()
        }  # fmt: skip
        return {
            "notes": notes,
            "graph": graph_signature(catalog),
            "unresolved": catalog.graph.unresolved(),
            "words": words_signature(catalog.text),
        }


def words_signature(index: TextIndex) -> dict[str, dict[str, float]]:
    """Every live term with its postings: equal for two word indexes of the same notes."""
    found = {term: index.postings_of(term) for term, p in index._postings.items() if p.df}
    return {term: postings for term, postings in found.items() if postings}


def words_found(index: TextIndex, terms: list[str]) -> dict[str, float]:
    """Path → similarity of every note matching `terms`."""
    return index.search_expanded(terms)[0]


def graph_signature(catalog: VaultCatalog) -> dict[str, tuple[tuple[str, str | None], ...]]:
    """Every note's links with what they resolve to: equal for two graphs of the same notes."""
    graph = catalog.graph
    return {
        path: tuple((e.link.target, e.target) for e in graph.outgoing(path))
        for path in sorted(n.path for n in catalog.notes())
    }


def fresh_signature(root: Path) -> dict[str, Any]:
    return signature(catalog_of(root))


def file_hashes(root: Path) -> dict[str, str]:
    """Every file under root (hidden ones included) → sha256 of its bytes."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """Poll `condition` until it holds (the watcher works asynchronously)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")
        time.sleep(0.01)


# every field a note shows, hot and cold: a cached note must equal a fresh parse in each
FIELDS = ("path", "title", "size", "mtime_ns", "ctime_ns", "sha256", "frontmatter", "body",
          "problems", "memory", "kind", "links", "tags", "aliases", "entities", "memory_id",
          "memory_state")  # fmt: skip


def engine_for(vault: Path) -> VaultEngine:
    return VaultEngine(load_config({"vault": str(vault)}))


def fields(note: IndexedNote) -> tuple[object, ...]:
    return tuple(getattr(note, name) for name in FIELDS)
