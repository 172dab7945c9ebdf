"""What a search hit says matched (its fields and terms), worked out without splitting each
hit's text again (index/text/content_stems.py): the same as splitting it, and never out of date."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.handlers.search import matched_terms
from cortexgraph_vault.handlers.search.matched_terms import MATCH_SCAN_CHARS, matched_in
from cortexgraph_vault.index.text.content_stems import ContentStems
from cortexgraph_vault.index.text.text_index import FIELDS, DocumentText, text_tokens
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, memory_text
from tests.conftest import NOW


def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline, "the watcher did not see the edit in 10 s"
        time.sleep(0.02)


def _hit(service: MemoryService, query: str, path: str) -> tuple[list[str], list[str]] | None:
    found = service.search_unified(query, limit=50, explain=True)
    for h in found.results:
        if h.path == path:
            assert h.explain is not None
            return h.matched, h.explain.matched_terms
    return None


def test_a_hand_edited_note_says_its_new_words_matched_at_once(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", {
        "_stm/stove.md": memory_text("mem-kettle", "The kettle whistles over the fire.\n",
                                     created=NOW, last_used=NOW, tags=["home/kitchen"]),
        "Notes/garden.md": "# Garden\n\nThe kettle sits in the garden shed.\n",
    }, git_init=True)  # fmt: skip
    live = MemoryService(load_config({"vault": str(vault)}), clock=lambda: NOW)
    live.engine.start_watcher()
    try:
        assert _hit(live, "kettle", "_stm/stove.md") == (["content"], ["kettl"])
        assert _hit(live, "kitchen kettle", "_stm/stove.md") == (["tags", "content"],
                                                                  ["kettl", "kitchen"])  # fmt: skip
        assert _hit(live, "kettle", "Notes/garden.md") == (["content"], ["kettl"])
        # a person rewrites the memory's text: the words it gained match, those it lost not
        note = vault / "_stm" / "stove.md"
        note.write_text(
            note.read_text(encoding="utf-8").replace("kettle whistles", "teapot steams"),
            encoding="utf-8",
        )
        _until(lambda: "teapot" in live.memory_detail("mem-kettle").content)
        assert _hit(live, "teapots", "_stm/stove.md") == (["content"], ["teapot"])
        assert _hit(live, "kettle", "_stm/stove.md") is None
        assert _hit(live, "kettle", "Notes/garden.md") == (["content"], ["kettl"])
        # the note that still holds the old text is unchanged; its edit is seen too
        garden = vault / "Notes" / "garden.md"
        garden.write_text("# Garden\n\nThe teapot sits in the garden shed.\n", encoding="utf-8")
        _until(lambda: _hit(live, "kettle", "Notes/garden.md") is None)
        assert _hit(live, "teapot", "Notes/garden.md") == (["content"], ["teapot"])
    finally:
        live.engine.stop_watcher()


def _split_again(
    doc: DocumentText, wanted: set[str], by_words: bool
) -> tuple[list[str], list[str]]:
    """What matched, by splitting the text as the index does (the plain way)."""
    if not wanted:
        return [], []
    long_text = len(doc.content) > MATCH_SCAN_CHARS
    cut = DocumentText(doc.title, doc.aliases, doc.tags, doc.entities,
                       doc.content[:MATCH_SCAN_CHARS])  # fmt: skip
    names, terms = [], set()
    for name, tokens in zip(FIELDS, cut.field_tokens(), strict=True):
        if wanted & set(tokens):
            names.append(name)
            terms |= wanted & set(tokens)
    if long_text and by_words and "content" not in names:
        names.append("content")
    return names, sorted(terms)


class _Note:
    """What `matched_in` reads of a note."""

    def __init__(self, doc: DocumentText) -> None:
        self.doc = doc

    def document(self) -> DocumentText:
        return self.doc


def test_what_matched_is_what_splitting_the_text_again_says() -> None:
    rng = random.Random(3)
    words = ["garden", "gardens", "tea", "teas", "project/atlas", "Atlas", "piano", "pianos",
             "harbour", "Zürich", "café", "naïve", "2026", "x1"]  # fmt: skip
    for _ in range(400):

        def some(k: int) -> str:
            return " ".join(rng.choice(words) for _ in range(rng.randint(0, k)))

        content = some(30)
        if rng.random() < 0.1:  # a long text: only its start is looked through
            content = "filler " * (MATCH_SCAN_CHARS // 7) + some(5)
        doc = DocumentText(some(3), [some(2)], [rng.choice(words)], [some(2)], content)
        wanted = set(text_tokens(some(4)))
        by_words = rng.random() < 0.8
        expected = _split_again(doc, wanted, by_words)
        for _ in range(2):  # the second time from memory
            assert matched_in(_Note(doc), {"q": sorted(wanted)}, by_words=by_words) == expected  # type: ignore[arg-type]


def _random_vault(root: Path, rng: random.Random) -> Path:
    words = ["garden", "gardens", "tea", "Teas", "atlas", "piano", "harbour", "2", "café", "x1"]

    def some(k: int) -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, k)))

    notes = {}
    for i in range(120):
        title = some(3) + (f" {i % 4}" if i % 3 == 0 else "")
        # a text that starts with its title's words: the index leaves the title out
        body = (title.rsplit(" ", 1)[0] if i % 3 == 0 else title) if i % 2 else some(2)
        body += " " + some(12) + "\n"
        if i % 5 == 0:
            notes[f"_stm/{title} {i}.md"] = memory_text(
                f"mem-{i}", body, tags=[f"project/{rng.choice(words)}"],
                entities=[some(2)], aliases=[some(2)],
            )  # fmt: skip
        else:
            aliases = f"aliases: [{some(2)}, {title}]\n" if i % 4 == 0 else ""
            notes[f"Notes/{title} {i}.md"] = (
                f"---\n{aliases}tags: [{rng.choice(words)}]\n---\n{body}"
            )
    notes["Notes/long.md"] = "# Long\n\n" + "filler " * (MATCH_SCAN_CHARS // 7) + "piano tea\n"
    return a_vault(root, notes)


def test_what_the_index_says_matched_is_what_splitting_the_text_says(tmp_path: Path) -> None:
    rng = random.Random(8)
    vault = _random_vault(tmp_path / "vault", rng)
    service = MemoryService(load_config({"vault": str(vault)}), clock=lambda: NOW)
    catalog = service.engine.fresh()
    spoken_for = 0
    for query in ("garden", "tea atlas", "piano harbour 2", "café", "x1 gardens", "project"):
        wanted = set(text_tokens(query))
        for note in catalog.notes():
            expected = _split_again(note.document(), wanted, True)
            got = matched_in(note, {query: sorted(wanted)}, catalog=catalog)
            assert got == expected, note.path
            spoken_for += catalog.text.terms_held(note.path, wanted) is not None
    assert spoken_for >= 6 * 120  # the index spoke for every note but the long one


def test_the_memory_of_texts_is_bounded_least_recently_used_first_out() -> None:
    stems = ContentStems(max_texts=3, max_chars=60)
    assert stems.of("Gardens and teas") == {"garden", "and", "tea"}
    stems.of("piano lessons")
    stems.of("harbour lights")
    stems.of("Gardens and teas")  # used again: kept
    stems.of("a fourth text")
    assert len(stems) == 3
    assert "piano lessons" not in stems._held and "Gardens and teas" in stems._held
    stems.of("x" * 50)  # past the characters held: the oldest go until it fits
    assert stems._chars <= 60 and "x" * 50 in stems._held
    assert stems.of("y" * 61) == {"y" * 61}  # longer than all it may hold: not kept
    assert "y" * 61 not in stems._held


def test_the_split_fields_kept_are_bounded_and_each_version_has_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(matched_terms._split_of, "kept", 2)
    docs = [DocumentText(f"Tea {i}", [], [], [], f"garden number {i}") for i in range(5)]
    for doc in docs * 2:
        assert matched_in(_Note(doc), {"q": ["tea", "garden"]}) == (["title", "content"],  # type: ignore[arg-type]
                                                                     ["garden", "tea"])  # fmt: skip
    assert len(matched_terms._split_of.held) <= 2
    kept = _Note(DocumentText("Tea", [], [], [], "garden"))
    assert matched_in(kept, {"q": ["garden"]}) == (["content"], ["garden"])  # type: ignore[arg-type]
    newer = _Note(DocumentText("Piano", [], [], [], "harbour"))  # a new version: split anew
    assert matched_in(newer, {"q": ["garden"]}) == ([], [])  # type: ignore[arg-type]
