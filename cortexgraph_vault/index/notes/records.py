"""What the index knows about one note, parsed from its bytes (never raises on content).

The note as held is index/notes/indexed_note.py (its names are importable from here too).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.core.links import extract_links
from cortexgraph_vault.core.memory import memory_from_fields
from cortexgraph_vault.core.times import from_epoch
from cortexgraph_vault.index.notes.indexed_note import (
    HOT_FIELDS,
    ColdRecords,
    IndexedNote,
    MemoryState,
    OwnBytes,
)
from cortexgraph_vault.index.notes.interning import shared, shared_strings
from cortexgraph_vault.vault.layout import VaultLayout, title_as_written

if TYPE_CHECKING:  # the word index loads numpy: not imported by a start that needs no words
    from cortexgraph_vault.core.note import ParsedNote
    from cortexgraph_vault.index.text.document_terms import TermStats

# Bumped when what is parsed out of a note changes in a way the sources below do not show.
PARSER_REVISION = 1


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return ()
    return tuple(dict.fromkeys(str(v).strip() for v in value if v is not None and str(v).strip()))


def aliases_of(frontmatter: Mapping[str, Any]) -> tuple[str, ...]:
    """A note's aliases as Obsidian reads them (`aliases`, `alias`, or a comma-separated string)."""
    raw = frontmatter.get("aliases", frontmatter.get("alias"))
    return _strings(raw.split(",") if isinstance(raw, str) else raw)  # str: the older form


def decode_note_bytes(data: bytes, max_bytes: int) -> tuple[str, list[str]]:
    problems: list[str] = []
    if len(data) > max_bytes:
        problems.append(f"larger than {max_bytes} bytes; only the first {max_bytes} are indexed")
        data = data[:max_bytes]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(data) == max_bytes and exc.start >= len(data) - 4:
            text = data[: exc.start].decode("utf-8", errors="replace")
        else:
            problems.append(
                f"not UTF-8 text (byte {exc.start}); indexed with replacements, never rewritten"
            )
            text = data.decode("utf-8", errors="replace")
    return text, problems


def index_bytes(
    rel: str,
    data: bytes,
    st: os.stat_result,
    layout: VaultLayout,
    max_bytes: int,
    parsed: ParsedNote | None = None,
) -> IndexedNote:
    """Everything the index knows about one file, from `data` read (up to max_bytes + 1 bytes)
    from it. `parsed`: the note's text parsed already (our own write's, parsed to check it), or
    None."""
    sha = hashlib.sha256(data).hexdigest()
    text, problems = decode_note_bytes(data, max_bytes)
    if not text.strip():
        problems.append("empty note")
    from cortexgraph_vault.core.note import parse_note
    from cortexgraph_vault.core.tags import extract_tags

    if parsed is None:
        parsed = parse_note(text)
    if parsed.problem:
        problems.append(parsed.problem)
    fm = shared_strings(parsed.frontmatter)
    aliases = aliases_of(fm)
    title = title_as_written(rel.rsplit("/", 1)[-1][:-3], aliases)
    memory = None
    kind = layout.folder_of(rel) or "note"
    if kind != "note":
        memory = memory_from_fields(
            path=rel,
            title=title,
            frontmatter=fm,
            body=parsed.body,
            content_hash=sha,
            file_created=from_epoch(min(st.st_ctime, st.st_mtime)),
            file_modified=from_epoch(st.st_mtime),
            folder_status=layout.status_for_folder(rel),
        )
        problems.extend(memory.problems)
    entities = memory.entities if memory else _strings(fm.get("entities"))
    note = IndexedNote(
        path=rel,
        title=title,
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        ctime_ns=st.st_ctime_ns,
        sha256=sha,
        frontmatter=fm,
        body=parsed.body,
        problems=tuple(problems),
        memory=memory,
        kind=kind,
        links=tuple(extract_links(parsed.body, fm)),
        # Obsidian treats `#Work` and `#work` as one tag; the index keeps one spelling.
        tags=tuple(dict.fromkeys(shared(t.lower()) for t in extract_tags(parsed.body, fm))),
        aliases=aliases,
        entities=entities,
    )
    if len(data) > max_bytes:
        # The hash of a capped read is of the prefix only; mark it so no write trusts it.
        note = with_stamp(note, st, sha256="partial:" + note.sha256)
    return note


def with_words(note: IndexedNote) -> tuple[IndexedNote, TermStats]:
    """The note with its words; a note of more distinct words than the index holds for one
    note says so among its problems."""
    from cortexgraph_vault.index.text.document_terms import MAX_TERMS_PER_NOTE

    stats = stats_of(note)
    if len(stats.weights) > MAX_TERMS_PER_NOTE:
        problem = (
            f"{len(stats.weights)} distinct words; only the {MAX_TERMS_PER_NOTE} weightiest "
            "are searchable"
        )
        note = note.replace(problems=(*note.problems, problem))
    return note, stats


def with_stamp(note: IndexedNote, st: os.stat_result, *, sha256: str | None = None) -> IndexedNote:
    """The same parsed note under a new file stamp (a touch, or a capped read)."""
    return note.replace(
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        ctime_ns=st.st_ctime_ns,
        sha256=sha256 or note.sha256,
    )


@functools.cache
def parser_version() -> str:
    """Changes whenever the code that turns bytes into an IndexedNote changes, so a cache
    written by another version is never trusted."""
    digest = hashlib.sha256(str(PARSER_REVISION).encode())
    for module in (
        "cortexgraph_vault.core.links",
        "cortexgraph_vault.core.code_ranges",
        "cortexgraph_vault.core.block_scan",
        "cortexgraph_vault.core.tags",
        "cortexgraph_vault.core.note",
        "cortexgraph_vault.core.plain_frontmatter",
        "cortexgraph_vault.core.memory",
        "cortexgraph_vault.index.text.text_index",
        "cortexgraph_vault.index.text.document_terms",
        "cortexgraph_vault.index.text.posting_lists",
        "cortexgraph_vault.index.notes.cold_fields",  # how the cache holds a note's fields
        "cortexgraph_vault.index.notes.indexed_note",  # and which of them it keeps as hot fields
        __name__,
    ):
        # found, not imported: checking a cache must not load the parsers it spares
        spec = importlib.util.find_spec(module)
        digest.update(Path(spec.origin if spec and spec.origin else "").read_bytes())
    return digest.hexdigest()[:16]


def stats_of(note: IndexedNote) -> TermStats:
    # not from text_index: a parse worker needs the words, not the index (numpy, rapidfuzz)
    from cortexgraph_vault.index.text.document_terms import term_stats

    return term_stats(note.document())


__all__ = [
    "HOT_FIELDS",
    "ColdRecords",
    "IndexedNote",
    "MemoryState",
    "OwnBytes",
    "decode_note_bytes",
    "index_bytes",
    "parser_version",
    "stats_of",
    "with_stamp",
]
