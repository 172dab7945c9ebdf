"""A query's token ids from the derived tables (index/vectors/query_tokens.py) are the ids the real
tokenizer gives, so its vector is the same bit for bit; whatever the tables cannot answer goes
to the real tokenizer; the tables follow the tokenizer file."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from cortexgraph_vault.index.vectors.embedder import TOKENIZER, load_embedder, model_folder
from cortexgraph_vault.index.vectors.query_tokens import QueryTokens, load_query_tokens

TOKENIZER_FILE = model_folder() / TOKENIZER


@pytest.fixture(scope="module")
def real() -> Tokenizer:
    return Tokenizer.from_file(str(TOKENIZER_FILE))


@pytest.fixture(scope="module")
def derived(tmp_path_factory: pytest.TempPathFactory) -> QueryTokens:
    found = load_query_tokens(TOKENIZER_FILE, tmp_path_factory.mktemp("tables"))
    assert found is not None
    return found


def _texts() -> list[str]:
    rng = random.Random(16)
    words = ["coffee", "Finorveldia", "Exrendorvel", "who", "is", "my", "manager", "TypeScript",
             "naïve", "café", "東京", "Ünïcödé", "🎉", "don't", "e-mail", "C++", "x", "a1b2"]  # fmt: skip
    fixed = [
        "",
        " ",
        "  ",
        "food allergies",
        " leading",
        "trailing ",
        "two  spaces",
        "tab\there",
        "new\nline",
        "\r\n",
        "ÀÉÎÕÜ",
        "😀😃😄",
        "\u200b\u2028",
        "▁already▁marked",
        "<0x41>",
        "< s >",
        "<s",
        "s>",
        "x" * 2500,
        "ab" * 700,
        "\x00\x01\x7f",
        "ǅ ﬁ ẞ",
    ]
    alphabet = [chr(c) for c in range(32, 127)] + list("éüßñø中文日本語한국어αβγд€🎉\t\n")
    made = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) for _ in range(300)]
    made += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))) for _ in range(700)]
    made += ["".join(chr(rng.randint(0x20, 0x2FFFF)) for _ in range(rng.randint(1, 20)))
             for _ in range(300)]  # fmt: skip
    return fixed + made


def test_the_derived_ids_are_the_real_tokenizers(real: Tokenizer, derived: QueryTokens) -> None:
    assert derived.words_apart  # the shipped model's words are merged each alone
    for _ in range(2):  # the second time, the words' ids from memory
        for text in _texts():
            text = "".join(c for c in text if not 0xD800 <= ord(c) <= 0xDFFF)
            assert derived.ids(text) == real.encode(text, add_special_tokens=False).ids, repr(text)


def test_a_tokenizer_that_merges_across_words_is_asked_about_whole_texts(tmp_path: Path) -> None:
    tok = tmp_path / "tokenizer.json"
    config = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))
    vocab = config["model"]["vocab"]
    vocab["e▁"] = len(vocab)  # "e" then a word's mark: "the end" merges across words
    merges = config["model"]["merges"]
    merges.insert(0, "e ▁" if isinstance(merges[0], str) else ["e", "▁"])
    tok.write_text(json.dumps(config), encoding="utf-8")
    derived = load_query_tokens(tok, tmp_path / "tables")
    assert derived is not None and not derived.words_apart
    real = Tokenizer.from_file(str(tok))
    for text in ["the end", "the end", "one more time", "e e e"]:
        expected = real.encode(text, add_special_tokens=False).ids
        assert derived.ids(text) == expected and vocab["e▁"] in expected, text


def test_special_tokens_and_broken_text_are_left_to_the_real_tokenizer(
    derived: QueryTokens,
) -> None:
    assert derived.ids("before <s> after") is None
    assert derived.ids("</s>") is None and derived.ids("an <unk> here") is None
    assert derived.ids("lone \udc80 surrogate") is None


def test_a_query_vector_is_the_same_bit_for_bit(tmp_path: Path) -> None:
    plain = load_embedder()
    fast = load_embedder(tables=tmp_path)
    assert fast.query_tokens is not None and plain.query_tokens is None
    for text in ["food allergies", "who is my manager", "café 東京 🎉", "a <s> b", "", "x" * 3000]:
        a, b = plain.embed_one(text), fast.embed_one(text)
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), text
    # notes are still embedded by the real tokenizer, parsed when first needed
    assert fast.embed(["food allergies"]).tobytes() == plain.embed(["food allergies"]).tobytes()


def test_the_tables_are_saved_once_and_follow_the_tokenizer_file(tmp_path: Path) -> None:
    tok = tmp_path / "tokenizer.json"
    shutil.copyfile(TOKENIZER_FILE, tok)
    tables = tmp_path / "tables"
    first = load_query_tokens(tok, tables)
    saved = list(tables.iterdir())
    assert first is not None and len(saved) == 1
    assert load_query_tokens(tok, tables) is not None and list(tables.iterdir()) == saved
    # the file changes (fewer merges): new tables, derived from it
    config = json.loads(tok.read_text(encoding="utf-8"))
    config["model"]["merges"] = config["model"]["merges"][:100]
    tok.write_text(json.dumps(config), encoding="utf-8")
    os.utime(tok, ns=(1, 1))
    changed = load_query_tokens(tok, tables)
    assert changed is not None and len(list(tables.iterdir())) == 2
    real = Tokenizer.from_file(str(tok))
    assert changed.ids("quiz") == real.encode("quiz", add_special_tokens=False).ids
    assert changed.ids("quiz") != first.ids("quiz")


def test_a_damaged_table_is_derived_again_and_an_unwritable_folder_still_answers(
    tmp_path: Path,
) -> None:
    tables = tmp_path / "tables"
    assert load_query_tokens(TOKENIZER_FILE, tables) is not None
    (saved,) = tables.iterdir()
    saved.write_bytes(b"\x00not marshal")
    again = load_query_tokens(TOKENIZER_FILE, tables)
    assert again is not None and again.ids("coffee") and saved.read_bytes()[:1] != b"\x00"
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert load_query_tokens(TOKENIZER_FILE, blocked / "tables") is not None


def test_a_tokenizer_of_another_shape_gets_no_tables(tmp_path: Path) -> None:
    tok = tmp_path / "tokenizer.json"
    config = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))
    config["pre_tokenizer"] = {"type": "Whitespace"}
    tok.write_text(json.dumps(config), encoding="utf-8")
    assert load_query_tokens(tok, tmp_path / "tables") is None
    assert load_query_tokens(tmp_path / "missing.json", tmp_path / "tables") is None


def test_the_mapped_token_table_holds_the_values_safetensors_reads(tmp_path: Path) -> None:
    import numpy as np
    from safetensors.numpy import load_file, save_file

    from cortexgraph_vault.index.vectors.embedder import WEIGHTS
    from cortexgraph_vault.index.vectors.mapped_weights import mapped_table

    shipped = model_folder() / WEIGHTS
    mapped = mapped_table(shipped)
    (read,) = load_file(str(shipped)).values()
    assert mapped is not None and mapped.dtype == read.dtype and mapped.shape == read.shape
    assert mapped.tobytes() == read.tobytes() and not mapped.flags.writeable
    # two tensors, or no tensor file at all: not mapped (safetensors reads it, or refuses it)
    two = tmp_path / "two.safetensors"
    save_file({"a": np.ones((2, 2), np.float16), "b": np.zeros(3, np.float32)}, str(two))
    assert mapped_table(two) is None
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"not a tensor file")
    assert mapped_table(junk) is None
