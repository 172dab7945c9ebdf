"""A few texts (an edited note, a save) are embedded from the model's mapped rows and the
query tables' ids: neither the whole float32 table (33 MB) nor the parsed tokenizer is made and
kept for them, and their vectors are those the whole table gives, bit for bit. Up to TABLE_MIN
texts (the memories saved since a daemon's last search) are tokenized by the tokenizer but still
gathered from the mapped rows: no table. After embedding many notes a catalogue lets go of
both, unless it needed the tokenizer again soon after letting it go: it then keeps that."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cortexgraph_vault.index.vectors.embedder import (
    REUSED_WITHIN,
    SMALL_BATCH,
    TABLE_MIN,
    load_embedder,
)
from cortexgraph_vault.index.vectors.semantic import note_text
from tests.index.index_helpers import catalog_of, engine_for


def _texts(vault: Path) -> list[str]:
    notes = catalog_of(vault).notes()
    texts = [note_text(n.title, n.aliases, n.body) for n in notes]
    texts += ["", "   ", "café, naïve, 東京 and 🎉", "x" * 3000, "tabs\tand\nlines"]
    assert len(texts) > SMALL_BATCH
    return texts


def test_a_few_texts_are_embedded_without_the_table_or_the_tokenizer_and_equal_it(
    sample_vault: Path, tmp_path: Path
) -> None:
    texts = _texts(sample_vault)
    model = load_embedder(tables=tmp_path / "tables")
    assert model.query_tokens is not None
    few = np.concatenate([model.embed(texts[i : i + 3]) for i in range(0, len(texts), 3)])
    assert "table" not in model.__dict__ and "tokenizer" not in model.__dict__
    some = model.embed(texts)  # more than a few: by the tokenizer, still without the table
    assert "tokenizer" in model.__dict__ and "table" not in model.__dict__
    assert len(texts) <= TABLE_MIN
    copies = TABLE_MIN // len(texts) + 1
    many = model.embed(texts * copies)[: len(texts)]  # very many: the whole table, once
    assert "table" in model.__dict__ and "tokenizer" in model.__dict__
    assert many.dtype == some.dtype == few.dtype == np.float32
    assert np.array_equal(few, many)
    assert np.array_equal(some, many)
    assert np.array_equal(model.embed(texts[:2]), many[:2])  # the table kept: used as is
    model.let_go(0.0)
    assert "table" not in model.__dict__ and "tokenizer" not in model.__dict__
    assert np.array_equal(model.embed(texts[5:9]), many[5:9])
    assert few[0].any() and not few[len(texts) - 5].any()  # a vector; the empty text zero


def test_a_tokenizer_needed_again_soon_after_it_was_let_go_is_kept(
    sample_vault: Path, tmp_path: Path
) -> None:
    texts = _texts(sample_vault)
    model = load_embedder(tables=tmp_path / "tables")
    first = model.embed(texts)
    model.let_go(100.0)  # a big embedding, then none for a while: let go
    assert "tokenizer" not in model.__dict__
    model.embed(texts)
    model.let_go(100.0 + REUSED_WITHIN + 1)  # needed again, but a long while later
    assert "tokenizer" not in model.__dict__
    model.embed(texts)
    model.let_go(100.0 + REUSED_WITHIN + 2)  # needed again at once: batches keep coming
    assert "tokenizer" in model.__dict__
    kept = model.__dict__["tokenizer"]
    assert np.array_equal(model.embed(texts), first)
    model.let_go(100.0 + 10 * REUSED_WITHIN)  # kept from then on, whenever let go
    assert model.__dict__["tokenizer"] is kept and "table" not in model.__dict__


def test_a_text_the_query_tables_leave_to_the_tokenizer_is_embedded_by_it(
    tmp_path: Path,
) -> None:
    texts = ["a note that names <s> the start token", "and another"]
    model = load_embedder(tables=tmp_path / "tables")
    few = model.embed(texts)
    assert "tokenizer" in model.__dict__ and "table" not in model.__dict__
    assert np.array_equal(few, model.embed(texts * SMALL_BATCH)[:2])


def test_a_catalogue_lets_go_of_the_table_after_embedding_many_notes(sample_vault: Path) -> None:
    engine = engine_for(sample_vault)
    catalog = engine.catalog
    model = catalog.semantic.embedder()
    assert model is not None
    model._drops.clear()  # the model is the process's: earlier tests' embeddings forgotten
    sem = catalog.semantic
    for note in catalog.notes():  # every vector made, whatever a cache held
        sem.mark(note.path)
    if sem._notes is not None:
        sem._notes.keys[:] = 0  # (no text has this key)
    assert catalog.sync_vectors() == len(catalog) > SMALL_BATCH
    assert "table" not in model.__dict__ and "tokenizer" not in model.__dict__
    rel = next(n.path for n in catalog.notes() if not n.has_memory)
    path = sample_vault / rel
    path.write_text(path.read_text(encoding="utf-8") + "\nA line about sourdough.\n", "utf-8")
    catalog.reload(rel)
    assert catalog.sync_vectors() == 1
    assert "table" not in model.__dict__  # one edited note: from the mapped rows
    text = catalog.vector_text(rel)
    assert text is not None
    vector = catalog.semantic.vector_of(rel)
    assert vector is not None
    assert np.array_equal(vector, model.embed([text] * (SMALL_BATCH + 1))[0])
