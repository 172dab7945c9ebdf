"""A parse worker sends its notes in messages of a frame each, its last frame's worth in
smaller ones (what the receiving process adds after the workers end is then little): every
note arrives once, each with its words, and the index is the one a parse here makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.index import parallel_parse
from cortexgraph_vault.index.catalog import VaultCatalog
from cortexgraph_vault.index.parallel_parse import ParseWorkers, frame_bounds, parse_many
from cortexgraph_vault.vault.layout import VaultLayout
from tests.index.index_helpers import fresh_signature, signature
from tests.index.test_early_workers import many_notes


def sizes_of(ends: list[int]) -> list[int]:
    return [end - start for start, end in zip([0, *ends], ends, strict=False)]


@pytest.mark.parametrize(
    ("count", "frame", "sizes"),
    [
        (100, 25, [25, 25, 25, 7, 7, 7, 4]),
        (20, 200, [5, 5, 5, 5]),
        (3, 200, [1, 1, 1]),
        (1, 200, [1]),
        (0, 200, []),
        (60, 25, [25, 9, 9, 9, 8]),
    ],
)
def test_a_workers_share_is_cut_into_frames_its_last_one_in_four(
    count: int, frame: int, sizes: list[int]
) -> None:
    assert sizes_of(frame_bounds(count, frame)) == sizes


def test_every_note_arrives_once_and_the_last_in_smaller_messages(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_notes(link_vault, 200)
    monkeypatch.setattr(parallel_parse, "FRAME_MIN", 10)
    layout = VaultLayout(link_vault)
    rels = sorted(p.relative_to(link_vault).as_posix() for p in link_vault.rglob("*.md"))
    worker_of = {rel: i % 2 for i, rel in enumerate(rels)}  # each worker has every other
    sizes: dict[int, list[int]] = {0: [], 1: []}
    arrived: list[str] = []
    for parsed, block in parse_many(layout, rels, 1 << 20, ParseWorkers(2)):
        paths = [rel for rel, *_ in parsed]
        assert block is not None and block.paths == paths  # every note with its words
        sizes[worker_of[paths[0]]].append(len(paths))
        arrived += paths
    assert sorted(arrived) == rels
    frame = parallel_parse.frame_size(len(rels), 2)
    for worker, got in sizes.items():
        share = len(rels[worker::2])
        assert got == sizes_of(frame_bounds(share, frame))
        assert got[0] == frame and max(got[-3:]) < frame  # the last messages are smaller


def test_the_index_from_smaller_last_messages_is_a_fresh_parse(
    link_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_notes(link_vault, 120)
    parsed_here = fresh_signature(link_vault)  # too few notes for workers
    monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", 10)
    monkeypatch.setattr(parallel_parse, "FRAME_MIN", 7)
    monkeypatch.setattr(parallel_parse, "worker_count", lambda: 2)
    catalog = VaultCatalog(VaultLayout(link_vault))
    catalog.refresh()
    assert catalog.parsed == len(list(link_vault.rglob("*.md")))
    assert signature(catalog) == parsed_here
