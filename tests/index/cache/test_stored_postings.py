"""A one-call process (a CLI command) restores the cached word index without making its
posting lists: each list's arrays are made from the file's bytes when first used. What it
finds, and what it changes, are what a process that made them all finds and changes."""

from __future__ import annotations

import io
from array import array
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.index.cache.cache_records import (
    posting_parts,
    read_postings,
    read_stored_postings,
    write_postings,
)
from cortexgraph_vault.index.text.posting_lists import StoredPostings
from tests.index.index_helpers import engine_for, fresh_signature, signature


def one_call_engine(vault: Path) -> VaultEngine:
    return VaultEngine(load_config({"vault": str(vault)}), one_call=True)


def test_a_one_call_process_finds_what_a_long_lived_one_finds(sample_vault: Path) -> None:
    engine_for(sample_vault)  # writes the cache
    long_lived, one_call = engine_for(sample_vault), one_call_engine(sample_vault)
    for terms in (["coffee"], ["deploy", "postgres"], ["meeting"], ["nothingmatches"]):
        assert one_call.catalog.search_text(terms) == long_lived.catalog.search_text(terms)
    assert signature(one_call.catalog) == signature(long_lived.catalog)


def test_only_the_lists_a_search_reads_are_made(sample_vault: Path) -> None:
    engine_for(sample_vault)
    engine = one_call_engine(sample_vault)
    engine.catalog.search_text(["coffee"])
    lists = engine.catalog.text._postings
    assert lists and all(isinstance(p, StoredPostings) for p in lists.values())
    made = [term for term, p in lists.items() if _made(p)]
    assert 0 < len(made) < len(lists)
    assert all(term.startswith("coffe") for term in made)


def _made(p: StoredPostings) -> bool:
    try:
        object.__getattribute__(p, "docs")
    except AttributeError:
        return False
    return True


def test_a_one_call_process_indexes_an_edit_on_stored_lists(sample_vault: Path) -> None:
    engine_for(sample_vault)
    note = sorted((sample_vault / "_stm").glob("*.md"))[0]
    note.write_text(note.read_text(encoding="utf-8") + "\nzanzibarquill coffee\n", "utf-8")
    engine = one_call_engine(sample_vault)
    found, _ = engine.catalog.search_text(["zanzibarquill"])
    assert list(found) == [note.relative_to(sample_vault).as_posix()]
    assert signature(engine.catalog) == fresh_signature(sample_vault)


def _written(postings: dict[str, tuple[array[int], array[int], int, int]]) -> io.BytesIO:
    out = io.BytesIO()
    write_postings(out, postings, posting_parts(postings))
    out.seek(0)
    return out


def test_stored_lists_hold_what_the_made_ones_hold() -> None:
    postings = {
        "alpha": (array("I", [0, 2, 3]), array("B", [1, 4, 2]), 3, 0),
        "beta": (array("I", [1]), array("H", [300]), 1, 0),
        "gone": (array("I", [2]), array("B", [1]), 0, 1),  # no live document: not kept
    }
    stored = read_stored_postings(_written(postings), 1, 4)
    made = read_postings(_written(postings), 1)
    assert set(stored) == {"alpha", "beta"}
    for term, p in stored.items():
        assert (p.docs, p.tfs, p.df, p.dead) == tuple(made[term])


def test_a_stored_list_naming_an_unknown_document_is_refused() -> None:
    postings = {"alpha": (array("I", [0, 7]), array("B", [1, 1]), 2, 0)}
    with pytest.raises(ValueError, match="unknown document"):
        read_stored_postings(_written(postings), 1, 4)
