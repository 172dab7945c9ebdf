"""A note read again after only its fields changed (a touch by another process, a sync tool)
keeps its indexed words rather than counting them again: the index must be the one a fresh
walk of the same files builds, and the new fields must be seen."""

from __future__ import annotations

import os
from pathlib import Path

from tests.index.index_helpers import catalog_of, fresh_signature, signature, words_found

NOTE = "_stm/Atlas launch date.md"


def test_a_fields_only_edit_is_read_with_the_words_it_had(sample_vault: Path) -> None:
    catalog = catalog_of(sample_vault)
    path = sample_vault / NOTE
    before_words = words_found(catalog.text, ["atlas"])
    text = path.read_text(encoding="utf-8")
    assert "use_count: 1\n" in text
    path.write_text(text.replace("use_count: 1\n", "use_count: 7\n"), encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))

    note = catalog.reload(NOTE)
    assert note is not None and note.memory_state is not None
    assert note.memory_state.use_count == 7
    assert words_found(catalog.text, ["atlas"]) == before_words
    assert signature(catalog) == fresh_signature(sample_vault)


def test_an_edit_of_the_text_is_indexed_again(sample_vault: Path) -> None:
    catalog = catalog_of(sample_vault)
    path = sample_vault / NOTE
    path.write_text(path.read_text(encoding="utf-8") + "\nMoved to the zeppelin hangar.\n",
                    encoding="utf-8")  # fmt: skip
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))

    catalog.reload(NOTE)
    assert NOTE in words_found(catalog.text, ["zeppelin"])
    assert signature(catalog) == fresh_signature(sample_vault)
