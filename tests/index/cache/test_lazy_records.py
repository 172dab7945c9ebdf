"""Notes loaded from the cache keep their cold fields (frontmatter, body, links, memory) in the
cache file until something reads them, and give back exactly what a fresh parse gives; the
word index is unpickled only when words are needed."""

from __future__ import annotations

import io
import pickle
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.index.cache import index_cache as cache_module
from cortexgraph_vault.index.cache.index_cache import cache_path
from cortexgraph_vault.index.notes import cold_fields
from tests.index.index_helpers import catalog_of, engine_for, fields, fresh_signature, signature


def test_every_field_of_a_cached_note_equals_a_fresh_parse(sample_vault: Path) -> None:
    engine_for(sample_vault)  # writes the cache
    warm = engine_for(sample_vault)
    assert warm.index_cache.loaded_at_start and warm.catalog.parsed == 0
    fresh = {n.path: n for n in catalog_of(sample_vault).notes()}
    cached = {n.path: n for n in warm.catalog.notes()}
    assert cached.keys() == fresh.keys()
    assert any(n.memory is not None for n in fresh.values())
    for path, note in fresh.items():
        assert fields(cached[path]) == fields(note), path
        assert cached[path] == note


def test_a_warm_start_decodes_no_note_until_one_is_read(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine_for(sample_vault)
    decoded: list[bytes] = []
    real = cold_fields.decode

    def counting(data: bytes) -> cold_fields.Cold:
        decoded.append(data)
        return real(data)

    monkeypatch.setattr(cold_fields, "decode", counting)
    warm = engine_for(sample_vault)
    assert decoded == [] and warm.catalog._text is None  # neither notes nor words unpickled
    memory = next(n for n in warm.catalog.notes() if n.memory_id).memory
    assert memory is not None and len(decoded) == 1
    assert warm.resolve(memory.id or "") == memory and len(decoded) == 1  # by id: no decoding


def test_a_note_read_from_the_cache_and_changed_on_disk_is_read_again(
    sample_vault: Path,
) -> None:
    engine_for(sample_vault)
    note = next(p for p in sorted((sample_vault / "_stm").glob("*.md")))
    note.write_text(note.read_text("utf-8") + "\nA line about lighthouses.\n", "utf-8")
    warm = engine_for(sample_vault)
    rel = note.relative_to(sample_vault).as_posix()
    indexed = warm.catalog.note(rel)
    assert indexed is not None and indexed.memory is not None
    assert "lighthouses" in indexed.body and "lighthouses" in indexed.memory.body
    assert set(warm.catalog.search_text(["lighthouses"])[0]) == {rel}
    assert signature(warm.catalog) == fresh_signature(sample_vault)


def test_a_damaged_word_index_in_the_cache_is_rebuilt_from_the_notes(
    sample_vault: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cold = engine_for(sample_vault)
    expected = signature(cold.catalog)
    path = cache_path(user_cache_dir(), sample_vault)
    data = bytearray(path.read_bytes())
    trailer = cache_module._TRAILER
    _, _, _, terms_at, end_at, _ = trailer.unpack(data[-trailer.size :])
    data[terms_at:end_at] = b"\x00" * (end_at - terms_at)  # same size, unreadable
    path.write_bytes(bytes(data))
    warm = engine_for(sample_vault)
    assert warm.index_cache.loaded_at_start
    assert signature(warm.catalog) == expected  # its words are indexed again when asked for
    assert "cached word index unusable" in caplog.text


def test_a_cache_of_the_previous_format_is_rebuilt_once(sample_vault: Path) -> None:
    engine_for(sample_vault)
    path = cache_path(user_cache_dir(), sample_vault)
    raw = io.BytesIO(path.read_bytes())
    stamp = pickle.load(raw)
    stamp["format"] = 6
    path.write_bytes(pickle.dumps(stamp) + raw.read())
    rebuilt = engine_for(sample_vault)
    assert not rebuilt.index_cache.loaded_at_start and rebuilt.catalog.parsed > 0
    again = engine_for(sample_vault)
    assert again.index_cache.loaded_at_start and again.catalog.parsed == 0


def _memory(**changes: object) -> Memory:
    moment = datetime(2026, 3, 4, 5, 6, 7, 890, tzinfo=UTC)
    base = Memory(
        path="_stm/a.md", title="a", id="m1", created=moment, last_used=moment, use_count=2,
        strength=1.5, status="active", body="text", content_hash="abc", tags=("x",),
        relations={"related": ("[[b]]",)}, promoted_at=None,
    )  # fmt: skip
    return Memory(**{**base.__dict__, **changes})


@pytest.mark.parametrize(
    ("memory", "form"),
    [
        (_memory(), cold_fields.MARSHALLED),
        # a time in another zone, and a value marshal cannot hold: kept pickled, still equal
        (
            _memory(last_used=datetime(2026, 3, 4, 5, 6, 7, tzinfo=timezone(timedelta(hours=2)))),
            cold_fields.PICKLED,
        ),
        (_memory(relations={"related": (date(2026, 1, 1),)}), cold_fields.PICKLED),
    ],
)
def test_cold_fields_come_back_equal(memory: Memory, form: bytes) -> None:
    frontmatter = {"id": "m1", "created": datetime(2026, 1, 1, tzinfo=UTC), "n": [1, 2]}
    data = cold_fields.encode(frontmatter, "text", (), memory)
    assert data[:1] == form
    fm, body, links, back = cold_fields.decode(data)
    assert (cold_fields.frontmatter_of(fm), body, links, back) == (frontmatter, "text", (), memory)
    assert back is not None and back.last_used.tzinfo == memory.last_used.tzinfo


def test_notes_parsed_in_workers_come_encoded_and_read_from_the_cache_once_written(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cortexgraph_vault.index.cache.cache_records import CacheRecords
    from cortexgraph_vault.index.catalog import parallel_parse
    from cortexgraph_vault.index.notes.records import OwnBytes

    fresh = {n.path: fields(n) for n in catalog_of(sample_vault).notes()}
    monkeypatch.setattr(parallel_parse, "PARALLEL_MIN", 5)
    monkeypatch.setattr(parallel_parse, "worker_count", lambda: 2)
    parsed = catalog_of(sample_vault)
    stores = {type(n._loc[0]) for n in parsed.notes() if n._loc is not None}
    assert stores == {OwnBytes} and parsed.notes()[0]._cold is None  # bytes, not objects
    cold = engine_for(sample_vault)  # parses in workers and writes the cache
    assert cold.catalog.parsed == len(fresh) and not cold.index_cache.loaded_at_start
    notes = cold.catalog.notes()
    assert {type(n._loc[0]) for n in notes if n._loc is not None} == {CacheRecords}
    assert {n.path: fields(n) for n in notes} == fresh


def test_notes_loaded_from_the_cache_share_equal_tags_sizes_and_times(tmp_path: Path) -> None:
    """100k notes hold a few thousand distinct tag lists and a few hundred sizes, and a
    change time equal to the modification time: each held once, not once a note (~15 MB).
    The values are what a fresh parse gives."""
    from tests.builders import a_vault

    # longer than 256 bytes: smaller whole numbers are shared by Python anyway
    text = "Some words about tea, #drinks #morning, padded to one size.\n" + "More.\n" * 50
    vault = a_vault(tmp_path / "vault", {f"Notes/N{i}.md": text for i in range(4)})
    engine_for(vault)  # writes the cache
    warm = engine_for(vault)
    assert warm.index_cache.loaded_at_start
    notes = warm.catalog.notes()
    fresh = {n.path: n for n in catalog_of(vault).notes()}
    assert len(notes) == 4
    for note in notes:
        assert fields(note) == fields(fresh[note.path])
        assert note.tags == ("drinks", "morning") and note.tags is notes[0].tags
        assert note.size == len(text) and note.size is notes[0].size
        if note.ctime_ns == note.mtime_ns:
            assert note.ctime_ns is note.mtime_ns
