"""The sentence encoder as shipped: texts alike in meaning, not in words, come out near each
other; a batch gives each text the vector it gets alone; a missing or damaged weights file
is `ModelUnavailable` naming the file and the fix."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from cortexgraph_vault.index.vectors.embedder import ModelUnavailable
from cortexgraph_vault.index.vectors.minilm import WEIGHTS, load_encoder, shared_encoder

# (a text, one saying the same in other words, one about something else)
PAIRS = [
    ("I ride my bicycle to the office", "cycling is how I commute", "the tax return is due"),
    ("Maya adopted a kitten last week", "she has a new cat", "the server ran out of disk"),
    ("we chose Postgres for the backend", "the database we picked", "I love hiking in autumn"),
    ("how do I make a note link to another", "linking between pages", "my dentist appointment"),
]


def test_texts_alike_in_meaning_are_nearer_than_unrelated_ones() -> None:
    encoder = shared_encoder()
    for text, alike, unrelated in PAIRS:
        v = encoder.embed([text, alike, unrelated])
        assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
        assert v[0] @ v[1] > v[0] @ v[2] + 0.2, (text, alike, unrelated)


def test_a_batch_gives_each_text_the_vector_it_gets_alone() -> None:
    encoder = shared_encoder()
    texts = [t for triple in PAIRS for t in triple] + ["word " * 300, "a"]
    together = encoder.embed(texts)
    alone = np.array([encoder.embed_one(t) for t in texts])
    assert np.abs(together - alone).max() < 1e-5
    # a long text is read to its first 128 tokens: what follows changes nothing
    assert np.allclose(encoder.embed_one("word " * 300 + "tax return"), together[-2], atol=1e-6)


def test_a_missing_weights_file_names_itself_and_the_fix(tmp_path: Path) -> None:
    missing = tmp_path / "minilm.npz"
    with pytest.raises(ModelUnavailable) as caught:
        load_encoder(missing)
    assert f"{missing}: sentence encoder weights missing" in str(caught.value)
    assert "pip install --force-reinstall cortexgraph-vault" in str(caught.value)


@pytest.mark.parametrize("damage", ["truncated", "an array lost"])
def test_a_damaged_weights_file_names_itself_and_the_fix(tmp_path: Path, damage: str) -> None:
    damaged = tmp_path / "minilm.npz"
    if damage == "truncated":
        damaged.write_bytes(WEIGHTS.read_bytes()[:1_000_000])
    else:
        with zipfile.ZipFile(WEIGHTS) as whole, zipfile.ZipFile(damaged, "w") as part:
            for name in whole.namelist():
                if not name.startswith("encoder.layer.5."):
                    part.writestr(name, whole.read(name))
    with pytest.raises(ModelUnavailable) as caught:
        load_encoder(damaged)
    assert f"{damaged}: sentence encoder weights unreadable" in str(caught.value)
    assert "CORTEXGRAPH_MEANING_SEARCH=false" in str(caught.value)
