"""The vocabulary is what the notes say now: terms no note holds any more are given back (on
removal and in the cache), a note adds at most MAX_TERMS_PER_NOTE distinct terms, and a
batch of new terms leaves the index exactly as adding them one at a time would."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

from cortexgraph_vault.index.cache.index_cache import IndexCache
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.text.document_terms import MAX_TERMS_PER_NOTE
from cortexgraph_vault.index.text.text_index import DocumentText, TextIndex, term_stats
from cortexgraph_vault.vault.layout import VaultLayout
from tests.index.index_helpers import catalog_of, words_found, words_signature

SAMPLE = Path(__file__).resolve().parents[3] / "cortexgraph_vault" / "sample_vault"
CONSONANTS = "bcdfghjklmnpqrtvwxz"  # made-up words no stemmer shortens


def made_up_words(count: int, prefix: str = "zq") -> list[str]:
    letters = itertools.product(CONSONANTS, repeat=4)
    return [prefix + "".join(next(letters)) for _ in range(count)]


def terms_of(text: str) -> list[str]:
    """The index's own terms for a text (whatever the tokenizer makes of words)."""
    return list(term_stats(DocumentText("", content=text)).weights)


def test_removing_a_note_gives_back_the_terms_only_it_used() -> None:
    index = TextIndex()
    index.put("kept.md", term_stats(DocumentText("Kept", content="shared words stay")))
    before = index.vocabulary_size
    words = made_up_words(3000)
    index.put("big.md", term_stats(DocumentText("Big", content="shared " + " ".join(words))))
    assert index.vocabulary_size == before + len(set(terms_of(" ".join(words) + " big")))
    index.remove("big.md", lambda: term_stats(DocumentText("Big", content="")).weights)
    assert index.vocabulary_size == before
    assert index.expand(terms_of(words[0])[0][:5]) == []  # no prefix match lingers
    assert set(words_found(index, terms_of("shared"))) == {"kept.md"}
    assert set(index.export()["postings"]) == set(words_signature(index))  # type: ignore[arg-type]


def test_a_note_of_more_distinct_words_than_the_cap_keeps_its_weightiest() -> None:
    words = made_up_words(MAX_TERMS_PER_NOTE + 5000)
    index = TextIndex()
    index.put("big.md", term_stats(DocumentText("Kingfisher", content=" ".join(words))))
    assert index.vocabulary_size == MAX_TERMS_PER_NOTE
    assert "big.md" in words_found(index, terms_of("kingfisher"))  # the title outweighs the text
    # the same note indexed again gives the same terms (the cap is deterministic)
    again = TextIndex()
    again.put("big.md", term_stats(DocumentText("Kingfisher", content=" ".join(words))))
    assert words_signature(again) == words_signature(index)


def test_new_terms_in_a_batch_equal_terms_added_one_at_a_time() -> None:
    many = made_up_words(500, prefix="kx")
    one_by_one, batched = TextIndex(), TextIndex()
    for i, word in enumerate(many):
        one_by_one.put(f"n{i}.md", term_stats(DocumentText(f"N{i}", content=word)))
    batched.put("all.md", term_stats(DocumentText("All", content=" ".join(many))))
    batched.remove("all.md", lambda: [])  # a document of many terms keeps its list
    for i, word in enumerate(many):
        batched.put(f"n{i}.md", term_stats(DocumentText(f"N{i}", content=word)))
    assert words_signature(batched) == words_signature(one_by_one)
    prefix = terms_of(many[0])[0][:4]
    assert [t for t, _ in batched.expand(prefix)] == [t for t, _ in one_by_one.expand(prefix)]


def test_a_big_note_added_and_deleted_leaves_the_cache_as_small_as_before(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLE, vault)
    catalog = catalog_of(vault)

    def cache_size(name: str) -> int:
        cache = IndexCache(tmp_path / name, catalog.layout, catalog.max_note_bytes)
        cache.save(catalog)
        return cache.path.stat().st_size

    before = cache_size("before.pickle")
    for round_no in range(3):
        big = vault / "Big.md"
        big.write_text(" ".join(made_up_words(20_000, prefix=f"r{round_no}")))
        catalog.reload("Big.md")
        assert catalog.note("Big.md") is not None
        big.unlink()
        catalog.reload("Big.md")
    assert catalog.note("Big.md") is None
    assert cache_size("after.pickle") < before * 1.2


def test_a_big_note_restored_from_the_cache_is_removed_without_its_text(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLE, vault)
    without = words_signature(catalog_of(vault).text)
    (vault / "Big.md").write_text(" ".join(made_up_words(5000)))
    catalog = catalog_of(vault)
    cache = IndexCache(tmp_path / "index.pickle", catalog.layout, catalog.max_note_bytes)
    cache.save(catalog)
    warm = VaultCatalog(VaultLayout(vault))
    assert cache.load_into(warm)
    warm.text.remove("Big.md", None)  # its terms came with the cache
    assert words_signature(warm.text) == without


def test_a_note_past_the_cap_says_so_among_its_problems(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLE, vault)
    words = made_up_words(MAX_TERMS_PER_NOTE + 10)
    (vault / "Word list.md").write_text(" ".join(words))
    catalog = catalog_of(vault)
    problems = dict(catalog.problems())
    assert f"only the {MAX_TERMS_PER_NOTE} weightiest are searchable" in problems["Word list.md"]
    (vault / "Word list.md").write_text(" ".join(words[:100]))
    catalog.reload("Word list.md")
    assert "Word list.md" not in dict(catalog.problems())


def test_a_restored_index_matches_typos_as_one_whose_lengths_were_made_at_once() -> None:
    # the terms by length are made when first needed: in the order they would have had
    def doc(text: str):  # type: ignore[no-untyped-def]
        return term_stats(DocumentText("", content=text))

    index = TextIndex()
    index.put("a.md", doc("postgres postmark postage"))
    index.put("b.md", doc("postgrad poster zebra"))
    restored = TextIndex.restore(index.export())
    eager = TextIndex.restore(index.export())
    eager._lengths()  # made now, as a restore once made them
    for each in (restored, eager):
        each.put("c.md", doc("postgrex postgris"))
        each.remove("b.md", lambda: terms_of("postgrad poster zebra"))
    assert restored._by_length == eager._by_length
    assert [list(b) for b in restored._lengths().values()] == [
        list(b) for b in eager._lengths().values()
    ]
    assert restored.expand("postgers") == eager.expand("postgers")


def _ranked(index: TextIndex, terms: list[str]) -> list[str]:
    found = words_found(index, terms)
    return sorted(found, key=lambda path: -found[path])


def test_a_prefix_expansion_never_ranks_above_a_whole_word_match() -> None:
    """ "note" is a word of its own: the rarer, longer words it starts ("notebook",
    "noteworthy") are other words, and a note full of them must not outrank the notes that
    say "note", even once in a long text."""
    filler = " ".join(["text"] * 120)
    index = TextIndex()
    for i in range(12):  # "note" is common here: its weight is low
        index.put(f"says{i}.md", term_stats(DocumentText(f"Page {i}", content=f"{filler} note")))
    index.put("onenote.md", term_stats(DocumentText(
        "Import from OneNote", content="notebook notebooks noteworthy notebook sections",
    )))  # fmt: skip
    for word in ("note", "notes"):
        ranked = _ranked(index, terms_of(word))
        assert set(ranked) == {f"says{i}.md" for i in range(12)}, (word, ranked)
    # a word the vault does not hold still finds the longer ones it starts
    assert _ranked(index, ["notebo"]) == ["onenote.md"]


def test_prefixes_and_typos_serve_words_the_vault_lacks() -> None:
    index = TextIndex()
    index.put("k8s.md", term_stats(DocumentText("Cluster", content="kubernetes deployment")))
    index.put("pg.md", term_stats(DocumentText("Database", content="postgres tuning")))
    assert [t for t, _ in index.expand("kube")] == terms_of("kubernetes")  # a partial word
    assert [t for t, _ in index.expand("postgers")] == terms_of("postgres")  # a typo
    # a word the vault holds stands for itself alone, at full weight
    assert index.expand(terms_of("postgres")[0]) == [(terms_of("postgres")[0], 1.0)]


def test_a_prefix_or_typo_never_stands_for_a_filler_word() -> None:
    """ "animals" is "anim": a typo away from "ani", the stem of "any". A question about
    animals must not match a note on its "any"; a typo of a word that names something still
    finds it."""
    index = TextIndex()
    index.put("ts.md", term_stats(DocumentText("TypeScript", content="any script bigger")))
    assert terms_of("any") == ["ani"] and index.document_frequency("ani") == 1
    assert index.expand("anim") == []
    assert [t for t, _ in index.expand("biger")] == terms_of("bigger")
    assert [t for t, _ in index.expand("scri")] == terms_of("script")
