"""The word index: BM25F ranking by field, prefixes and typos from the vocabulary, removal."""

from __future__ import annotations

import pickle
from array import array

import pytest

from cortexgraph_vault.index.text import document_terms
from cortexgraph_vault.index.text.document_terms import K1
from cortexgraph_vault.index.text.posting_lists import posting_block
from cortexgraph_vault.index.text.text_index import (
    DocumentText,
    TextIndex,
    echoes_content,
    term_stats,
    text_tokens,
    words,
)
from tests.index.index_helpers import words_found, words_signature


def index_of(**docs: DocumentText) -> TextIndex:
    index = TextIndex()
    for path, doc in docs.items():
        index.put(path, term_stats(doc))
    return index


def bm25_part(tf: float, norm: float) -> float:
    """A term's saturated, length-normalised frequency in one document (BM25's tf part)."""
    return tf * (K1 + 1) / (tf + norm)


def doc(title: str, content: str = "", **fields: list[str]) -> DocumentText:
    return DocumentText(title=title, content=content, **fields)  # type: ignore[arg-type]


def test_words_are_lower_case_letters_and_digits_of_any_script() -> None:
    assert words("Café-Crème, #project/atlas x2 日本語 don't") == [
        "café", "crème", "project", "atlas", "x2", "日本語", "don", "t",
    ]  # fmt: skip
    assert text_tokens("Running managers' allergies 日本語") == [
        "run",
        "manag",
        "allergi",
        "日本語",
    ]


def test_word_forms_share_a_stem_in_documents_and_queries() -> None:
    index = index_of(
        a=doc("Trail notes", "we went hiking in the Alps"),
        b=doc("Health", "allergies: peanuts, cats"),
        c=doc("Work", "my managers approved it"),
    )
    assert set(words_found(index, text_tokens("hiked"))) == {"a"}
    assert set(words_found(index, text_tokens("allergy"))) == {"b"}
    assert set(words_found(index, text_tokens("manager"))) == {"c"}


def test_a_title_match_outranks_the_same_word_in_the_text() -> None:
    index = index_of(
        a=doc("Postgres tuning", "notes about indexes"),
        b=doc("Weekly notes", "we talked about postgres for a minute"),
        c=doc("Groceries", "milk and bread"),
    )
    found = words_found(index, ["postgres"])
    assert set(found) == {"a", "b"}
    assert found["a"] > found["b"] > 0
    assert all(0 < s <= 1 for s in found.values())


def test_tags_aliases_and_entities_are_searchable_fields() -> None:
    index = index_of(
        t=doc("One", tags=["project/atlas"]),
        a=doc("Two", aliases=["Kestrel"]),
        e=doc("Three", entities=["TypeScript"]),
    )
    assert set(words_found(index, ["atlas"])) == {"t"}
    assert set(words_found(index, ["kestrel"])) == {"a"}
    assert set(words_found(index, ["typescript"])) == {"e"}


def test_a_document_matching_more_of_the_query_ranks_higher() -> None:
    index = index_of(
        both=doc("x", "coffee grinder burr"),
        one=doc("y", "coffee machine descaling"),
    )
    found = words_found(index, ["burr", "coffee"])
    assert found["both"] > found["one"]


def test_a_query_that_matches_nothing_finds_nothing() -> None:
    index = index_of(a=doc("Postgres", "database"), b=doc("Tea", "green"))
    assert words_found(index, ["xylophone"]) == {}
    assert words_found(index, []) == {}


def test_a_prefix_finds_longer_words() -> None:
    index = index_of(a=doc("x", "the deployment failed"), b=doc("y", "deploy often"))
    assert set(words_found(index, ["deploy"])) == {"a", "b"}
    assert words_found(index, ["deploy"])["b"] > words_found(index, ["deploy"])["a"]


def test_a_typo_finds_the_word_through_the_vocabulary() -> None:
    index = index_of(a=doc("x", "we moved to postgres last year"), b=doc("y", "tea"))
    assert set(words_found(index, text_tokens("postgers"))) == {"a"}
    # terms are stems: the typo is matched to the stem of "postgres"
    assert [t for t, _ in index.expand("postgers")] == text_tokens("postgres")
    # short words are not stretched to anything: "tae" is not "tea"
    assert words_found(index, ["tae"]) == {}


def test_removing_and_replacing_documents_keeps_postings_exact() -> None:
    index = TextIndex()
    notes = {f"n{i}": doc(f"note {i}", f"common words and unique{i}") for i in range(300)}
    notes["n0"] = doc("note 0", "common words and a xylophone")
    for path, d in notes.items():
        index.put(path, term_stats(d))
    for i in range(0, 300, 2):  # half of the documents go, the long lists compact themselves
        index.remove(f"n{i}", lambda i=i: term_stats(notes[f"n{i}"]).terms)
    edited = doc("note 1", "rewritten text")
    index.put("n1", term_stats(edited), lambda: term_stats(notes["n1"]).terms)
    assert set(index.postings_of("common")) == {f"n{i}" for i in range(3, 300, 2)}
    assert words_found(index, ["xylophone"]) == {}
    assert set(words_found(index, ["rewritten"])) == {"n1"}
    fresh = TextIndex()
    for i in range(3, 300, 2):
        fresh.put(f"n{i}", term_stats(notes[f"n{i}"]))
    fresh.put("n1", term_stats(edited))
    assert words_signature(index) == words_signature(fresh)


def test_an_exported_index_restores_to_the_same_answers() -> None:
    index = index_of(a=doc("Postgres", "database tuning"), b=doc("Tea", "green tea leaves"))
    index.remove("b", lambda: term_stats(doc("Tea", "green tea leaves")).terms)
    index.put("c", term_stats(doc("Coffee", "beans")))
    restored = TextIndex.restore(pickle.loads(pickle.dumps(index.export())))
    assert words_signature(restored) == words_signature(index)
    assert words_found(restored, ["postgers", "beans"]) == words_found(index, ["postgers", "beans"])
    restored.remove("a", lambda: term_stats(doc("Postgres", "database tuning")).terms)
    assert set(words_found(restored, ["database"])) == set()


def test_an_export_being_written_does_not_change_as_the_index_changes() -> None:
    """The cache writer gets the posting arrays themselves, not copies: the index copies a
    list before it next changes it, so the snapshot stays what it was when taken."""
    docs = {f"n{i}": doc(f"note {i}", f"shared words plus own{i}") for i in range(200)}
    index = index_of(**docs)
    exported = index.export()
    before = pickle.dumps(exported)
    restored_before = TextIndex.restore(pickle.loads(before))
    index.put("new", term_stats(doc("new note", "shared words again")))
    index.remove("n3", lambda: term_stats(docs["n3"]).terms)  # a short list: edited in place
    index.put("n5", term_stats(doc("note 5", "rewritten")), lambda: term_stats(docs["n5"]).terms)
    for i in range(10, 150):  # tombstones, then a compaction of the long lists
        index.remove(f"n{i}", lambda i=i: term_stats(docs[f"n{i}"]).terms)  # type: ignore[misc]
    assert pickle.dumps(exported) == before
    assert words_signature(TextIndex.restore(exported)) == words_signature(restored_before)
    assert set(words_found(index, ["rewritten"])) == {"n5"}
    assert "n3" not in words_found(index, ["own3"]) and "n5" not in words_found(index, ["own5"])


def test_a_word_said_any_number_of_times_keeps_its_exact_weight() -> None:
    """Frequencies are stored in the smallest integer type that holds them, widened as
    needed: a word said 3, 300 or 70,000 times weighs what BM25's formula says, however
    the index was filled."""
    docs = {
        "few": doc("few", "echo " * 3),
        "many": doc("many", "echo " * 300 + "filler words"),
        "lots": doc("lots", "echo " * 70_000),
        "title": doc("Echo", "echo in the title too"),
    }
    expected = {}
    for name, d in docs.items():
        stats = term_stats(d)
        expected[name] = array("f", [bm25_part(stats.weights["echo"], stats.norm)])[0]
    one_by_one = index_of(**docs)
    in_blocks = TextIndex()
    in_blocks.put_block(posting_block([(n, term_stats(docs[n])) for n in ("few", "title")]))
    in_blocks.put_block(posting_block([(n, term_stats(docs[n])) for n in ("many", "lots")]))
    growing = index_of(few=docs["few"])  # a one-byte list that must widen twice
    growing.put("many", term_stats(docs["many"]))
    growing.put_block(posting_block([("lots", term_stats(docs["lots"]))]))
    growing.put("title", term_stats(docs["title"]))
    for index in (one_by_one, in_blocks, growing):
        assert index.postings_of("echo") == expected
        restored = TextIndex.restore(pickle.loads(pickle.dumps(index.export())))
        assert restored.postings_of("echo") == expected
        assert words_found(restored, ["echo"]) == words_found(one_by_one, ["echo"])
    growing.remove("lots", lambda: term_stats(docs["lots"]).terms)
    del expected["lots"]
    assert growing.postings_of("echo") == expected


def test_fractional_field_weights_are_kept_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(document_terms, "FIELD_WEIGHTS", (2.5, 2.5, 1.5, 1.5, 1.0))
    docs = {"a": doc("Echo", "echo once"), "b": doc("other", "echo echo")}
    expected = {}
    for name, d in docs.items():
        stats = term_stats(d)
        expected[name] = array("f", [bm25_part(stats.weights["echo"], stats.norm)])[0]
    index = index_of(b=docs["b"])
    index.put("a", term_stats(docs["a"]))  # 3.5: the list leaves whole numbers
    assert index.postings_of("echo") == expected
    blocks = TextIndex()
    blocks.put_block(posting_block([(n, term_stats(d)) for n, d in docs.items()]))
    assert blocks.postings_of("echo") == expected


def test_a_word_in_most_notes_is_left_out_beside_a_selective_one() -> None:
    docs = {f"n{i}": doc(f"note {i}", "common filler text") for i in range(100)}
    docs["rare"] = doc("rare", "common filler with a zeppelin")
    index = index_of(**docs)
    assert set(words_found(index, ["common", "zeppelin"])) == {"rare"}
    assert len(words_found(index, ["common"])) == 101  # alone, it still finds every note
    small = index_of(a=doc("a", "common zeppelin"), b=doc("b", "common"), c=doc("c", "common"))
    assert set(words_found(small, ["common", "zeppelin"])) == {"a", "b", "c"}  # a small vault: no


def test_blocks_of_postings_join_an_index_as_documents_put_one_by_one_would() -> None:
    """A parsing worker sends its notes' postings as one block; some of them may have been
    indexed again meanwhile (our own write) and are left out of it."""
    docs = {f"n{i}.md": doc(f"Note {i}", f"shared word{i % 7} tea{i % 3} " * (i % 4 + 1))
            for i in range(30)}  # fmt: skip
    one_by_one = TextIndex()
    one_by_one.put("before.md", term_stats(doc("Before", "tea first")))
    blocks = TextIndex()
    blocks.put("before.md", term_stats(doc("Before", "tea first")))
    names = list(docs)
    left_out = {"n3.md", "n17.md"}
    for chunk in (names[:12], names[12:]):
        block = posting_block((name, term_stats(docs[name])) for name in chunk)
        block = pickle.loads(pickle.dumps(block))  # it crosses a pipe
        blocks.put_block(block, keep=set(chunk) - left_out)
        for name in chunk:
            if name not in left_out:
                one_by_one.put(name, term_stats(docs[name]))
    assert words_signature(blocks) == words_signature(one_by_one)
    assert words_found(blocks, ["tea1", "word3"]) == words_found(one_by_one, ["tea1", "word3"])
    assert "n3.md" not in blocks and len(blocks) == 29
    blocks.remove("n4.md", lambda: term_stats(docs["n4.md"]).terms)
    assert "n4.md" not in words_found(blocks, ["word4"])
    with pytest.raises(ValueError, match="already indexed"):
        blocks.put_block(posting_block([("n5.md", term_stats(docs["n5.md"]))]))


def test_a_title_made_from_the_first_words_adds_no_weight() -> None:
    made = term_stats(doc("Caroline went to the support group", "Caroline went to the support "
                          "group yesterday; it was powerful."))  # fmt: skip
    numbered = term_stats(doc("Caroline went to the support group 2", "Caroline went to the "
                              "support group again."))  # fmt: skip
    named = term_stats(doc("Support group", "Caroline went to the support group yesterday."))
    assert made.weights["carolin"] == 1.0 and numbered.weights["support"] == 1.0
    assert named.weights["support"] == 4.0  # a title of its own still weighs three times
    assert echoes_content(["a", "b"], ["a", "b", "c"]) and not echoes_content(["b"], ["a", "b"])


def test_a_title_kept_as_an_alias_that_repeats_the_first_words_adds_no_weight() -> None:
    kept = term_stats(doc("The standup is at 9 30", "The standup is at 9:30 every day.",
                          aliases=["The standup is at 9:30"]))  # fmt: skip
    assert kept.weights["standup"] == 1.0
