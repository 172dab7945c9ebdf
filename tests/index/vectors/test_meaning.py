"""The sentence encoder's note vectors in a running service: made behind the searches, kept
through a restart, used only once every note has one (the word vectors meanwhile), and a
memory saved since is found by meaning at once."""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

import pytest

from cortexgraph_vault.index.vectors import encoder_worker, query_vectors
from cortexgraph_vault.index.vectors import meaning as meaning_module
from cortexgraph_vault.index.vectors.encoder_worker import WorkerEncoder
from cortexgraph_vault.index.vectors.meaning import BY_ENCODER, BY_WORD_VECTORS, MeaningVectors
from cortexgraph_vault.index.vectors.minilm import SentenceEncoder, load_encoder, shared_encoder
from cortexgraph_vault.index.vectors.semantic import SemanticIndex
from cortexgraph_vault.service import MemoryService
from tests.builders import a_vault, service_for

TOPICS = [
    "Garage", "Groceries", "Dentist", "Tax return", "Holiday in Portugal", "Sourdough",
    "Piano lessons", "Server outage", "Quarterly review", "Book club", "Running plan",
    "Car insurance", "Birthday party", "Garden", "Laptop repair", "Moving house",
    "Team offsite", "Podcast ideas", "Wedding gift", "Language course",
]  # fmt: skip
BODIES = {
    "Garage": "The bikes hang on hooks by the door; the bicycle pump is on the shelf.",
    "Dentist": "Check-up every six months at the clinic on Elm Street.",
    "Server outage": "The database ran out of disk at night and the site went down.",
}
QUERIES = ["where do we keep the bikes", "when is my next teeth cleaning", "why was the site down"]


def notes_vault(root: Path) -> Path:
    notes = {
        f"notes/{t}.md": f"# {t}\n\n{BODIES.get(t, f'Some thoughts on {t.lower()}.')}\n"
        for t in TOPICS
    }
    return a_vault(root, notes)


def a_follower(vault: Path) -> tuple[MemoryService, MeaningVectors]:
    """A service that follows the changes it is told of, as the daemon's read processes do,
    and its meaning vectors."""
    follower = service_for(vault, meaning_search=True)
    follower.engine.follow_told_changes()
    return follower, follower.engine.catalog.meaning


@pytest.fixture
def embedded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts this process's encoder embeds, in order (none of the queries earlier tests
    asked is remembered)."""
    query_vectors.QUERIES.clear()
    seen: list[str] = []
    real = SentenceEncoder.embed

    def counted(self: SentenceEncoder, texts: list[str]):  # type: ignore[no-untyped-def]
        seen.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(SentenceEncoder, "embed", counted)
    return seen


def ranked(service: MemoryService, query: str) -> list[tuple[str, float]]:
    return [(h.path, h.score) for h in service.search_unified(query, limit=5).results]


def test_vectors_are_made_behind_and_kept_through_a_restart(
    tmp_path: Path, embedded: list[str]
) -> None:
    vault = notes_vault(tmp_path / "vault")
    service = service_for(vault, meaning_search=True)
    meaning = service.engine.catalog.meaning
    thread = meaning.fill_behind()
    assert thread is not None and thread.name == "cgv-meaning"
    thread.join(300)
    index = meaning.ready()
    assert index is not None and index.count == len(TOPICS) == len(service.engine.catalog)
    assert embedded == []  # all twenty by the worker process
    assert meaning.file is not None and meaning.file.is_file()
    garden = "Garden\nGarden.\nTomatoes by the south wall."  # as the encoder reads it
    (vault / "notes/Garden.md").write_text("# Garden\n\nTomatoes by the south wall.\n")
    again = service_for(vault, meaning_search=True)  # a restart, one note edited meanwhile
    restored = again.engine.catalog.meaning.wait()
    assert restored is not None and restored.count == len(TOPICS)
    assert embedded == [garden]  # the edited note alone, here (a few: no worker)
    kept = restored.vector_of("notes/Garden.md")
    assert kept is not None and float(kept @ shared_encoder().embed([garden])[0]) > 0.9999


def test_a_search_ranks_by_the_word_vectors_until_every_note_has_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = notes_vault(tmp_path / "vault")
    words_only = [ranked(service_for(vault), q) for q in QUERIES]
    release = threading.Event()
    real_sync = SemanticIndex.sync

    def held(self: SemanticIndex, *args, **kwargs):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "cgv-meaning":
            release.wait(60)
        return real_sync(self, *args, **kwargs)

    monkeypatch.setattr(SemanticIndex, "sync", held)
    service = service_for(vault, meaning_search=True)
    try:
        # 20 notes wait: more than a search embeds itself, so the thread starts and the
        # search answers as it did without the encoder
        assert [ranked(service, q) for q in QUERIES] == words_only
        assert service.engine.catalog.meaning.filling
    finally:
        release.set()
    meaning = service.engine.catalog.meaning
    assert meaning.searches == {BY_ENCODER: 0, BY_WORD_VECTORS: len(QUERIES)}  # counted so
    assert meaning.wait() is not None
    by_meaning = [ranked(service, q) for q in QUERIES]
    assert by_meaning != words_only
    assert meaning.searches == {BY_ENCODER: len(QUERIES), BY_WORD_VECTORS: len(QUERIES)}
    ranked(service, "bikes")  # a keyword the words settle: the encoder does not read it
    assert meaning.searches == {BY_ENCODER: len(QUERIES), BY_WORD_VECTORS: len(QUERIES)}
    tops = [found[0][0] for found in by_meaning]
    assert tops == ["notes/Garage.md", "notes/Dentist.md", "notes/Server outage.md"]


def test_a_memory_saved_since_is_found_by_meaning_at_once(tmp_path: Path) -> None:
    vault = notes_vault(tmp_path / "vault")
    service = service_for(vault, meaning_search=True)
    meaning = service.engine.catalog.meaning
    assert meaning.wait() is not None
    saved = service.save("I cycle to the office every morning, rain or shine.").path
    hits = service.search("how do I get to work", top_k=3).results
    assert [h.path for h in hits][:1] == [saved]
    assert meaning.index.vector_of(saved) is not None  # embedded by the search itself
    assert not meaning.filling


def test_an_unusable_encoder_leaves_search_to_the_word_vectors(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", {"notes/Garage.md": BODIES["Garage"]})
    words_only = ranked(service_for(vault), QUERIES[0])
    service = service_for(vault, meaning_search=True)
    missing = tmp_path / "gone.npz"
    service.engine.catalog.meaning.loader = partial(load_encoder, missing)
    assert ranked(service, QUERIES[0]) == words_only
    problem = service.engine.catalog.meaning.index.problem
    assert problem is not None and str(missing) in problem


def test_a_worker_that_fails_leaves_search_to_the_word_vectors(tmp_path: Path) -> None:
    vault = notes_vault(tmp_path / "vault")
    words_only = ranked(service_for(vault), QUERIES[0])
    damaged = tmp_path / "minilm.npz"
    damaged.write_bytes(b"not weights")
    worker = WorkerEncoder(damaged)
    service = service_for(vault, meaning_search=True)
    meaning = service.engine.catalog.meaning
    meaning.loader = lambda: worker
    assert ranked(service, QUERIES[0]) == words_only
    assert meaning.wait() is None
    assert meaning.broken is not None and "worker ended" in meaning.broken
    assert ranked(service, QUERIES[0]) == words_only
    assert not meaning.filling  # not tried again at each search


def test_a_damaged_weights_file_leaves_a_few_new_notes_to_the_word_vectors(
    tmp_path: Path,
) -> None:
    vault = a_vault(tmp_path / "vault", {"notes/Garage.md": BODIES["Garage"]})
    words_only = ranked(service_for(vault), QUERIES[0])
    damaged = tmp_path / "minilm.npz"
    damaged.write_bytes(b"PK\x03\x04 not a zip")
    service = service_for(vault, meaning_search=True)
    meaning = service.engine.catalog.meaning
    meaning.loader = lambda: WorkerEncoder(damaged)  # one note: embedded by the search itself
    assert ranked(service, QUERIES[0]) == words_only
    assert meaning.broken is not None and f"{damaged}: sentence encoder weights" in meaning.broken


def test_a_query_of_no_known_words_finds_nothing_by_meaning(tmp_path: Path) -> None:
    # the encoder sees some likeness in anything: letters typed at random reach ~0.2
    service = service_for(notes_vault(tmp_path / "vault"), meaning_search=True)
    assert service.engine.catalog.meaning.wait() is not None
    for query in ("zzqxvwq", "asdfgh qwerty"):
        assert service.search_unified(query, limit=5).results == [], query


def test_a_process_that_follows_takes_the_vectors_another_made_and_makes_none(
    tmp_path: Path, embedded: list[str]
) -> None:
    vault = notes_vault(tmp_path / "vault")
    words_only = [ranked(service_for(vault), q) for q in QUERIES]
    follower, following = a_follower(vault)  # as the daemon's read processes do
    assert [ranked(follower, q) for q in QUERIES] == words_only
    assert not following.filling and following.fill_behind() is None
    assert following.state().vectors == 0 and not following.state().ready
    maker = service_for(vault, meaning_search=True).engine.catalog.meaning
    assert maker.wait() is not None  # the file holds every note now
    assert maker.state() == following.state().__class__(True, len(TOPICS), len(TOPICS))
    embedded.clear()
    tops = [ranked(follower, q)[0][0] for q in QUERIES]
    assert tops == ["notes/Garage.md", "notes/Dentist.md", "notes/Server outage.md"]
    assert following.state().ready and following.state().vectors == len(TOPICS)
    assert sorted(embedded) == sorted(QUERIES)  # the queries; not one note


def test_the_status_says_how_many_notes_have_their_vector_and_when_searches_use_them(
    tmp_path: Path,
) -> None:
    from cortexgraph_vault.cli.render import render

    service = service_for(notes_vault(tmp_path / "vault"), meaning_search=True)
    before = service.vault_status()
    assert before.meaning is not None and not before.meaning.ready
    assert (before.meaning.vectors, before.meaning.notes) == (0, len(TOPICS))
    assert "meaning: 0 of 20 notes have sentence vectors; searches rank by words" in render(before)
    assert service.engine.catalog.meaning.wait() is not None
    after = service.vault_status()
    assert after.meaning is not None and after.meaning.ready
    assert "meaning: 20 of 20 notes have sentence vectors; searches rank by them" in render(after)
    off = service_for(tmp_path / "vault").vault_status().meaning  # the tests' default: off
    assert off is not None and not off.enabled and not off.ready


def test_the_encoder_reads_a_query_only_when_its_words_leave_it_open(
    tmp_path: Path, embedded: list[str]
) -> None:
    vault = notes_vault(tmp_path / "vault")
    service = service_for(vault, meaning_search=True)
    assert service.engine.catalog.meaning.wait() is not None
    by_words = service_for(vault)  # the word vectors alone
    embedded.clear()
    # a few keywords, each held by some note as it is: ranked as by the word vectors
    for query in ("bikes", "database disk", "Dentist clinic"):
        assert ranked(service, query) == ranked(by_words, query), query
    assert embedded == []
    read = [
        "where do we keep the bikes",  # a sentence
        "bikes and pump",  # a filler word: read as a phrase
        "bikes pump shelf",  # more words than meaning_query_words
        "bicycle storage",  # a word no note holds
        "woollen handicrafts",  # none held: a paraphrase, for meaning alone
    ]
    for query in read:
        ranked(service, query)
    assert embedded == read
    assert ranked(service, "where do we keep the bikes")[0][0] == "notes/Garage.md"


def test_a_setting_of_no_words_has_the_encoder_read_every_query(
    tmp_path: Path, embedded: list[str]
) -> None:
    vault = notes_vault(tmp_path / "vault")
    service = service_for(vault, meaning_search=True, meaning_query_words=0)
    assert service.engine.catalog.meaning.wait() is not None
    embedded.clear()
    found = ranked(service, "bikes")
    assert embedded == ["bikes"]
    assert found != ranked(service_for(vault), "bikes")  # the encoder's cosine, not WordLlama's


def test_a_first_search_starts_the_fill_without_reading_the_vectors_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # made from the file now, the index would hold every note marked until the fill checked
    # them: the search could not use it, and reading the file would only delay its answer
    vault = notes_vault(tmp_path / "vault")
    assert service_for(vault, meaning_search=True).engine.catalog.meaning.wait() is not None
    words_only = ranked(service_for(vault), QUERIES[0])
    read: list[Path] = []
    real = meaning_module._read

    def counted(path: Path):  # type: ignore[no-untyped-def]
        read.append(path)
        return real(path)

    monkeypatch.setattr(meaning_module, "_read", counted)
    fresh = service_for(vault, meaning_search=True)
    assert ranked(fresh, QUERIES[0]) == words_only
    assert read == [] and fresh.engine.catalog.meaning.filling
    assert fresh.engine.catalog.meaning.wait() is not None
    assert read == [fresh.engine.catalog.meaning.file]  # the fill took it
    assert ranked(fresh, QUERIES[0])[0][0] == "notes/Garage.md"


BURST = [
    "I cycle to the office every morning, rain or shine.",
    *(f"Reminder number {i}: water the {plant} on the balcony." for i, plant in enumerate(
        ["basil", "mint", "thyme", "rosemary", "parsley", "chives", "sage", "oregano", "dill",
         "lavender", "fern", "cactus", "orchid", "ivy", "lemon tree", "tomatoes", "peppers",
         "strawberries", "begonia"]
    )),
]  # fmt: skip


@pytest.fixture
def embedded_anywhere(embedded: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """`embedded`, and the texts this process sends to its encoder's worker process."""
    real = WorkerEncoder.embed

    def counted(self: WorkerEncoder, texts: list[str]):  # type: ignore[no-untyped-def]
        if len(texts) > encoder_worker.IN_PROCESS:  # else embedded here, and counted so
            embedded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(WorkerEncoder, "embed", counted)
    return embedded


def test_a_burst_of_saves_is_embedded_once_and_a_follower_then_ranks_by_meaning(
    tmp_path: Path, embedded_anywhere: list[str]
) -> None:
    embedded = embedded_anywhere
    vault = notes_vault(tmp_path / "vault")
    maker_service = service_for(vault, meaning_search=True)
    maker = maker_service.engine.catalog.meaning
    assert maker.wait() is not None
    follower, following = a_follower(vault)  # as the daemon's read processes do
    assert following.ready() is not None  # the maker's file, taken whole
    # as the daemon and its read processes are wired (api/read_processes.py, read_worker.py)
    maker.on_made = following.take
    following.await_made = lambda done: maker.wait() is not None and done()
    assert len(BURST) > meaning_module.ON_THE_SPOT
    embedded.clear()
    saved = []
    for content in BURST:  # each save told to the follower, then a search there
        saved.append(path := maker_service.save(content).path)
        follower.engine.catalog.reload(path)
        follower.search_unified("what did I note about the garden plants", limit=5)
    assert maker.wait() is not None  # the maker has embedded every memory saved
    hits = follower.search_unified("how do I get to work", limit=3).results
    assert following.ready() is not None  # ranked by the sentence encoder, not word vectors
    assert [h.path for h in hits][:1] == [saved[0]]
    for content in BURST:  # in the maker and the follower together: once each
        assert sum(content in text for text in embedded) == 1, content


def test_a_follower_waits_for_no_vector_of_a_memory_touched_since(
    tmp_path: Path, embedded_anywhere: list[str]
) -> None:
    vault = notes_vault(tmp_path / "vault")
    maker_service = service_for(vault, meaning_search=True)
    maker = maker_service.engine.catalog.meaning
    saved = maker_service.save(BURST[0])
    assert maker.wait() is not None
    follower, following = a_follower(vault)
    assert following.ready() is not None
    waited: list[bool] = []
    maker.on_made = following.take
    following.await_made = lambda done: waited.append(True) or False  # none ever comes
    embedded_anywhere.clear()
    maker_service.touch(saved.memory_id)  # its frontmatter: the text it is embedded from stays
    follower.engine.catalog.reload(saved.path)
    hits = follower.search_unified("how do I get to work", limit=3).results
    assert following.ready() is not None  # by the sentence encoder
    assert [h.path for h in hits][:1] == [saved.path]
    assert waited == [] and not any(BURST[0] in text for text in embedded_anywhere)


def test_a_follower_ranks_by_meaning_after_more_touches_than_a_search_embeds(
    tmp_path: Path, embedded_anywhere: list[str]
) -> None:
    vault = notes_vault(tmp_path / "vault")
    maker_service = service_for(vault, meaning_search=True)
    maker = maker_service.engine.catalog.meaning
    saved = [maker_service.save(content) for content in BURST]
    assert maker.wait() is not None
    follower, following = a_follower(vault)
    assert following.ready() is not None
    maker.on_made = following.take
    following.await_made = lambda done: maker.wait() is not None and done()
    embedded_anywhere.clear()
    for memory in saved:  # more than a search embeds on the spot: its frontmatter only
        maker_service.touch(memory.memory_id)
        follower.engine.catalog.reload(memory.path)
    hits = follower.search_unified("how do I get to work", limit=3).results
    assert following.ready() is not None  # by the sentence encoder, not the word vectors
    assert [h.path for h in hits][:1] == [saved[0].path]
    assert not any(content in text for text in embedded_anywhere for content in BURST)


def test_a_follower_started_after_a_few_saves_embeds_what_its_file_lacks_without_waiting(
    tmp_path: Path,
) -> None:
    vault = notes_vault(tmp_path / "vault")
    maker_service = service_for(vault, meaning_search=True)
    maker = maker_service.engine.catalog.meaning
    assert maker.wait() is not None
    few = BURST[:3]  # fewer than the maker saves its file after (SAVE_AFTER)
    saved = [maker_service.save(content).path for content in few]
    assert maker.wait() is not None and all(maker.index.vector_of(p) is not None for p in saved)
    follower, following = a_follower(vault)  # a read process started since
    waited: list[bool] = []
    following.await_made = lambda done: waited.append(True) or False  # none would come
    hits = follower.search_unified("how do I get to work", limit=3).results
    assert following.ready() is not None  # by the sentence encoder
    assert [h.path for h in hits][:1] == [saved[0]]
    assert waited == []


def test_a_memory_saved_during_a_fill_is_embedded_and_handed_on_before_the_fills_other_notes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a fresh daemon on a large vault fills its vectors for minutes: a read process that was
    # told of a memory saved meanwhile waits for that one vector, not for the whole fill
    monkeypatch.setattr(meaning_module, "SLICE", 4)  # the fill's 20 notes in five batches
    monkeypatch.setattr(meaning_module, "START_AFTER", 0.0)
    query_vectors.QUERIES.clear()
    events: list[tuple[str, str]] = []
    in_fill, saved_now = threading.Event(), threading.Event()
    real = SentenceEncoder.embed

    def recorded(self: SentenceEncoder, texts: list[str]):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "cgv-meaning" and not in_fill.is_set():
            in_fill.set()  # the fill's first batch: held until the memory is saved
            saved_now.wait(60)
        events.extend(("embedded", text) for text in texts)
        return real(self, texts)

    monkeypatch.setattr(SentenceEncoder, "embed", recorded)
    monkeypatch.setattr(WorkerEncoder, "embed", lambda self, texts: self.local.embed(texts))
    service = service_for(notes_vault(tmp_path / "vault"), meaning_search=True)
    maker = service.engine.catalog.meaning
    maker.on_made = lambda made: events.extend(("handed on", path) for path, _, _ in made)
    thread = maker.fill_behind()
    assert thread is not None and in_fill.wait(60)
    saved = service.save(BURST[0]).path
    saved_now.set()
    thread.join(300)
    assert maker.wait() is not None
    embedded = [text for kind, text in events if kind == "embedded"]
    assert len(embedded) == len(TOPICS) + 1
    first_batch = embedded[:4]
    handed = events.index(("handed on", saved))
    after = [text for kind, text in events[handed:] if kind == "embedded"]
    # the memory's vector went out right after the batch in flight, the fill's others after it
    assert [text for kind, text in events[:handed] if kind == "embedded"] == [
        *first_batch,
        next(text for text in embedded if BURST[0] in text),
    ]
    assert len(after) == len(TOPICS) - 4
    # only the change the read processes were told of: the vault's notes come in the file
    assert [path for kind, path in events if kind == "handed on"] == [saved]


def test_a_memory_saved_as_a_restarted_daemon_checks_a_large_vault_is_handed_on(
    tmp_path: Path, embedded_anywhere: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the restarted maker checks every note against the file it saved before; the vault has
    # more notes than it hands on in messages, yet the memory saved meanwhile is sent
    monkeypatch.setattr(meaning_module, "HAND_ON", 8)
    monkeypatch.setattr(meaning_module, "START_AFTER", 0.0)
    vault = notes_vault(tmp_path / "vault")
    assert service_for(vault, meaning_search=True).engine.catalog.meaning.wait() is not None
    follower, following = a_follower(vault)
    assert following.ready() is not None  # the file, complete
    restarted = service_for(vault, meaning_search=True)
    maker = restarted.engine.catalog.meaning
    maker.on_made = following.take
    waited: list[bool] = []
    following.await_made = lambda done: waited.append(done()) or waited[-1]
    embedded_anywhere.clear()
    saved = restarted.save(BURST[0]).path  # before the restarted maker has read its file
    follower.engine.catalog.reload(saved)
    assert maker.wait() is not None
    hits = follower.search_unified("how do I get to work", limit=3).results
    assert following.ready() is not None  # by the sentence encoder
    assert [h.path for h in hits][:1] == [saved]
    assert False not in waited  # its vector came from the maker (here, before the search)
    assert sum(BURST[0] in text for text in embedded_anywhere) == 1  # by the maker alone


def test_a_follower_makes_no_index_of_the_file_a_fill_has_saved_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a large vault's first fill takes most of an hour and saves its file as it goes: a read
    # process's search meanwhile ranks by the word vectors at once, without reading that file
    # or checking every note's text against it
    monkeypatch.setattr(meaning_module, "SLICE", 2)  # saved after each batch of two
    monkeypatch.setattr(meaning_module, "START_AFTER", 0.0)
    vault = notes_vault(tmp_path / "vault")
    words_only = ranked(service_for(vault), QUERIES[0])
    batches: list[object] = []
    second, release = threading.Event(), threading.Event()
    real = SemanticIndex.sync

    def held(self: SemanticIndex, *args, **kwargs):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "cgv-meaning" and kwargs.get("only"):
            batches.append(kwargs["only"])
            if len(batches) == 2:  # the first one embedded and saved
                second.set()
                release.wait(60)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SemanticIndex, "sync", held)
    maker = service_for(vault, meaning_search=True).engine.catalog.meaning
    thread = maker.fill_behind()
    assert thread is not None
    try:
        assert second.wait(60)
        assert maker.file is not None and maker.file.is_file()  # two notes of twenty
        read: list[Path] = []
        monkeypatch.setattr(meaning_module, "_read", lambda path: read.append(path))
        follower = service_for(vault, meaning_search=True)
        follower.engine.follow_told_changes()
        assert ranked(follower, QUERIES[0]) == words_only
        assert read == [] and follower.engine.catalog.meaning.searches[BY_WORD_VECTORS] == 1
    finally:
        release.set()
        thread.join(300)


def test_a_followers_search_checks_only_the_notes_changed_since_the_last_search_looked(
    tmp_path: Path,
) -> None:
    # thousands of notes changed at once (a git pull) wait for the daemon's fill: each search
    # meanwhile must not read every one of them again to find its vector is still missing
    vault = notes_vault(tmp_path / "vault")
    maker_service = service_for(vault, meaning_search=True)
    assert maker_service.engine.catalog.meaning.wait() is not None
    follower, following = a_follower(vault)
    assert following.ready() is not None
    following.await_made = lambda done: False  # none would come in time
    for content in BURST:  # more than a search embeds: the word vectors until the file
        follower.engine.catalog.reload(maker_service.save(content).path)
    read: list[str] = []
    real = following.text_of
    following.text_of = lambda path: read.append(path) or real(path)
    assert following.ready() is None
    assert len(read) >= len(BURST)  # each checked once
    read.clear()
    assert following.ready() is None
    assert read == []  # none marked since


def test_vectors_that_come_before_a_follower_took_the_file_are_kept_for_it(
    tmp_path: Path, embedded_anywhere: list[str]
) -> None:
    # a read process that has not searched by meaning yet has no index to put them in; the
    # maker saves its file after a few notes made, so that file lacks the memory
    vault = notes_vault(tmp_path / "vault")
    maker_service = service_for(vault, meaning_search=True)
    maker = maker_service.engine.catalog.meaning
    assert maker.wait() is not None
    follower, following = a_follower(vault)
    maker.on_made = following.take
    waited: list[bool] = []
    following.await_made = lambda done: waited.append(done()) or waited[-1]  # none come later
    embedded_anywhere.clear()
    saved = maker_service.save(BURST[0]).path
    assert maker.wait() is not None  # its vector handed on, to a follower with no index yet
    follower.engine.catalog.reload(saved)
    hits = follower.search_unified("how do I get to work", limit=3).results
    assert following.ready() is not None  # by the sentence encoder
    assert [h.path for h in hits][:1] == [saved]
    assert False not in waited
    assert sum(BURST[0] in text for text in embedded_anywhere) == 1  # by the maker alone


def test_the_fill_saves_its_file_once_complete_before_it_embeds_what_changed_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the status says the vectors are made once at most a few wait: the read processes must
    # find the file complete then, not after the memory saved meanwhile is embedded too
    monkeypatch.setattr(meaning_module, "START_AFTER", 0.0)
    query_vectors.QUERIES.clear()
    events: list[tuple[str, object]] = []
    in_fill, saved_now = threading.Event(), threading.Event()
    real_embed, real_save = SentenceEncoder.embed, meaning_module.MeaningVectors.save

    def recorded(self: SentenceEncoder, texts: list[str]):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "cgv-meaning" and not in_fill.is_set():
            in_fill.set()  # the fill's one batch (fewer notes than SLICE)
            saved_now.wait(60)
        events.extend(("embedded", text) for text in texts)
        return real_embed(self, texts)

    def save(self: meaning_module.MeaningVectors) -> None:
        events.append(("saved", self.state().vectors))
        real_save(self)

    monkeypatch.setattr(SentenceEncoder, "embed", recorded)
    monkeypatch.setattr(WorkerEncoder, "embed", lambda self, texts: self.local.embed(texts))
    monkeypatch.setattr(meaning_module.MeaningVectors, "save", save)
    service = service_for(notes_vault(tmp_path / "vault"), meaning_search=True)
    maker = service.engine.catalog.meaning
    maker.on_made = lambda made: None  # as with read processes: the memory is a change
    thread = maker.fill_behind()
    assert thread is not None and in_fill.wait(60)
    service.save(BURST[0])
    saved_now.set()
    thread.join(300)
    memory = next(i for i, (kind, text) in enumerate(events) if BURST[0] in str(text))
    assert ("saved", len(TOPICS)) in events[:memory]  # every note of the fill, in the file
