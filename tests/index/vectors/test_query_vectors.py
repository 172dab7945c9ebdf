"""The last few query vectors, remembered by their text (index/vectors/query_vectors.py)."""

from __future__ import annotations

import numpy as np
import pytest

from cortexgraph_vault.index.vectors.query_vectors import QueryVectors
from cortexgraph_vault.index.vectors.semantic import SemanticIndex


class _Model:
    """Embeds a text as its letters' codes (what matters: a pure function, counted)."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_one(self, text: str) -> np.ndarray:
        self.embedded.append(text)
        return np.array([float(ord(c)) for c in text[:4].ljust(4)], dtype=np.float32)


def test_a_query_asked_again_is_not_embedded_again_and_cannot_be_changed() -> None:
    model, vectors = _Model(), QueryVectors()
    first = vectors.of(model, "tea garden")  # type: ignore[arg-type]
    again = vectors.of(model, "tea garden")  # type: ignore[arg-type]
    assert model.embedded == ["tea garden"]
    assert np.array_equal(first, model.embed_one("tea garden")) and again is first
    with pytest.raises(ValueError):
        again[0] = 0.0  # one array serves every caller: none may change it


def test_another_model_embeds_anew_and_the_oldest_queries_go_first() -> None:
    old, new, vectors = _Model(), _Model(), QueryVectors(kept=2)
    vectors.of(old, "tea")  # type: ignore[arg-type]
    vectors.of(new, "tea")  # type: ignore[arg-type]
    assert new.embedded == ["tea"]
    vectors.of(new, "piano")  # type: ignore[arg-type]
    vectors.of(new, "tea")  # type: ignore[arg-type]  # used again: kept
    vectors.of(new, "harbour")  # type: ignore[arg-type]
    assert len(vectors) == 2
    vectors.of(new, "tea")  # type: ignore[arg-type]
    vectors.of(new, "piano")  # type: ignore[arg-type]  # the least recently used had gone
    assert new.embedded == ["tea", "piano", "harbour", "piano"]


def test_an_index_made_anew_knows_the_queries_asked_of_the_one_before() -> None:
    # a daemon's read process makes its index anew each time it takes the vectors file
    model = _Model()
    first = SemanticIndex(lambda: model)  # type: ignore[arg-type,return-value]
    again = SemanticIndex(lambda: model)  # type: ignore[arg-type,return-value]
    asked = first.query_vector("tea garden")
    assert again.query_vector("tea garden") is asked
    assert model.embedded == ["tea garden"]
