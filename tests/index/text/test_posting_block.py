"""A block of postings built where notes are parsed holds exactly what one list append per
posting gave: the same terms in the same order, the same documents and weights, each list in
the smallest type that holds it."""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest

from cortexgraph_vault.index.text.document_terms import TermStats, indexed_weights
from cortexgraph_vault.index.text.posting_lists import PostingBlock, posting_block
from cortexgraph_vault.index.text.text_index import DocumentText, TextIndex, term_stats
from tests.index.index_helpers import words_signature

VOCABULARY = [f"w{i}" for i in range(300)] + ["café", "日本語", "run", "running"]


def appended_block(docs: list[tuple[str, TermStats]]) -> PostingBlock:
    """The block built one posting at a time (the way it was built before): the oracle."""
    paths: list[str] = []
    by_term: dict[str, tuple[list[int], list[float]]] = {}
    for path, stats in docs:
        for term, tf in indexed_weights(stats).items():
            entry = by_term.setdefault(term, ([], []))
            entry[0].append(len(paths))
            entry[1].append(tf)
        paths.append(path)
    ends, numbers, weights = array("I"), array("I"), array("d")
    for term_docs, term_tfs in by_term.values():
        numbers.extend(term_docs)
        weights.extend(term_tfs)
        ends.append(len(numbers))
    whole = all(w == int(w) and w >= 0 for w in weights)
    top = max(weights, default=0)
    code = "d" if not whole else "B" if top <= 0xFF else "H" if top <= 0xFFFF else "I"
    tfs: array[Any] = array(code, [w if code == "d" else int(w) for w in weights])
    norms = array("d", [stats.norm for _, stats in docs])
    return PostingBlock(paths, list(by_term), ends, numbers, tfs, norms)


def random_docs(rng: random.Random, count: int) -> list[tuple[str, TermStats]]:
    docs = []
    for i in range(count):
        words = rng.choices(VOCABULARY, k=rng.randint(0, 60))
        title = " ".join(rng.choices(VOCABULARY, k=rng.randint(0, 4)))
        tags = rng.choices(VOCABULARY, k=rng.randint(0, 3))
        docs.append((f"n{i}.md", term_stats(DocumentText(title, (), tags, (), " ".join(words)))))
    return docs


def same(block: PostingBlock, expected: PostingBlock) -> None:
    assert block.paths == expected.paths
    assert block.terms == expected.terms
    assert block.ends == expected.ends and block.ends.typecode == expected.ends.typecode
    assert block.docs == expected.docs and block.docs.typecode == expected.docs.typecode
    assert block.tfs == expected.tfs and block.tfs.typecode == expected.tfs.typecode
    assert block.norms == expected.norms


@pytest.mark.parametrize("seed", range(20))
def test_a_block_holds_what_one_append_per_posting_gave(seed: int) -> None:
    rng = random.Random(seed)
    docs = random_docs(rng, rng.randint(1, 80))
    same(posting_block(docs), appended_block(docs))


def test_weights_beyond_a_byte_and_fractions_widen_the_lists() -> None:
    loud = TermStats({"echo": 300.0, "quiet": 1.0}, 1.0)
    huge = TermStats({"echo": 70_000.0}, 1.2)
    odd = TermStats({"half": 0.5, "echo": 2.0}, 0.9)
    for docs in ([("a", loud)], [("a", loud), ("b", huge)], [("a", loud), ("c", odd)]):
        block = posting_block(docs)
        same(block, appended_block(docs))
    assert posting_block([("a", loud)]).tfs.typecode == "H"
    assert posting_block([("a", loud), ("b", huge)]).tfs.typecode == "I"
    assert posting_block([("a", loud), ("c", odd)]).tfs.typecode == "d"


def test_no_documents_or_no_words_make_an_empty_block() -> None:
    same(posting_block([]), appended_block([]))
    empty = [("blank.md", term_stats(DocumentText("")))]
    block = posting_block(empty)
    same(block, appended_block(empty))
    assert block.terms == [] and block.paths == ["blank.md"]


def test_an_index_built_from_blocks_equals_one_built_note_by_note() -> None:
    rng = random.Random(7)
    docs = random_docs(rng, 120)
    one_by_one = TextIndex()
    for path, stats in docs:
        one_by_one.put(path, stats)
    in_blocks = TextIndex()
    for start in range(0, len(docs), 25):
        in_blocks.put_block(posting_block(docs[start : start + 25]))
    assert words_signature(in_blocks) == words_signature(one_by_one)


def test_a_block_of_more_terms_than_16_bits_number() -> None:
    docs = [
        (f"big{d}.md", TermStats({f"t{d}x{i}": float(1 + i % 3) for i in range(18_000)}, 1.0))
        for d in range(4)
    ] + [("shared.md", TermStats({"t0x5": 2.0, "t3x17999": 1.0}, 1.1))]
    block = posting_block(docs)
    assert len(block.terms) == 72_000
    same(block, appended_block(docs))
