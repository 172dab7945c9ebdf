"""A document's words and stems the cheap way are exactly the words and stems of the query
side's functions, for any text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.index.text import document_words
from cortexgraph_vault.index.text.document_terms import _WORD
from cortexgraph_vault.index.text.document_words import fast_words, remembered_stems
from cortexgraph_vault.index.text.text_index import DocumentText, stems, text_tokens, words
from tests.conftest import examples

TRICKY = "Hiking hiked ALLERGIES e-mail x_y café Ünïcode \u212a 日本語 İstanbul ß 42nd ½ ١٢ \t\n"


@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet=st.sampled_from([*TRICKY, "a", "Z", "0", "_", ".", "'"])))
def test_words_are_those_of_the_pattern(text: str) -> None:
    assert fast_words(text, _WORD) == words(text)


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_words_of_any_text_are_those_of_the_pattern(text: str) -> None:
    assert fast_words(text, _WORD) == words(text)


def test_kelvin_sign_lowers_to_ascii_and_is_still_a_word() -> None:
    assert fast_words("\u212aelvin", _WORD) == words("\u212aelvin") == ["kelvin"]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([*words(TRICKY), "running", "runs", "ran", "x"]), max_size=40))
def test_remembered_stems_are_the_stems(found: list[str]) -> None:
    assert remembered_stems(found, stems) == stems(found)
    assert remembered_stems(found, stems) == stems(found)  # now from memory


def test_a_full_memory_still_stems_new_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(document_words, "_stem_of", {})
    monkeypatch.setattr(document_words, "MAX_REMEMBERED", 2)
    assert remembered_stems(["hiking", "hiked"], stems) == ["hike", "hike"]
    assert remembered_stems(["allergies", "hiking"], stems) == ["allergi", "hike"]
    assert len(document_words._stem_of) == 2


def test_document_fields_are_tokenised_as_a_query_is() -> None:
    doc = DocumentText("Hiking Trips", ("Hikes",), ("project/atlas",), ("Zoë",), TRICKY)
    assert doc.field_tokens() == (
        text_tokens("Hiking Trips"),
        text_tokens("Hikes"),
        text_tokens("project/atlas"),
        text_tokens("Zoë"),
        text_tokens(TRICKY),
    )
