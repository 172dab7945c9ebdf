"""The pure steps of a read-modify-write (`NoteStore`): whether a note may be edited, and its
edit worked out from the text read."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cortexgraph_vault.core.note import ParsedNote, parse_note
from cortexgraph_vault.errors import Conflict, NoteFormatError
from cortexgraph_vault.vault.files import FileStamp

FieldChanges = Mapping[str, object]
ComputeChanges = Callable[[ParsedNote], FieldChanges]
# text read, parsed → the new text, and the new text parsed when the edit parsed it
Edit = Callable[[str, ParsedNote], tuple[str, ParsedNote | None]]


def set_fields(changes: FieldChanges) -> ComputeChanges:
    """The same changes whatever the note holds now (they were worked out beforehand)."""
    return lambda _parsed: changes


def editable(rel: str, text: str) -> ParsedNote:
    """The note parsed, or NoteFormatError when we may not write it: its frontmatter is
    broken, or it is empty (a note someone is about to write, or a sync's placeholder)."""
    if not text.strip():
        raise NoteFormatError(f"{rel}: empty note; left untouched")
    parsed = parse_note(text)
    if parsed.problem:
        raise NoteFormatError(f"{rel}: {parsed.problem}; left untouched")
    return parsed


def edited(
    rel: str, text: str, stamp: FileStamp, edit: Edit, expected_sha256: str | None
) -> tuple[str, ParsedNote | None]:
    """`edit` applied to the note read (`text`, `stamp`): Conflict when the caller pinned
    another version, NoteFormatError (naming the note) when it may not be edited."""
    if expected_sha256 is not None and stamp.sha256 != expected_sha256:
        raise Conflict(rel, expected_sha256, stamp.sha256, text)
    parsed = editable(rel, text)
    try:
        return edit(text, parsed)
    except NoteFormatError as exc:
        raise NoteFormatError(f"{rel}: {exc}; left untouched") from None
