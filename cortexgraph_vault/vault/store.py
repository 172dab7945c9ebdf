"""Read-modify-write of notes: under the vault lock, with compare-before-replace.

Every write re-reads the file under the lock, computes the change from what is on disk now,
and replaces the file only if nobody wrote it since that read. If someone did (a person
typing in Obsidian does not take our lock), we read again and re-apply the field change, so
their edit and ours both survive.

A note another program is writing (an editor saving in place: truncated, its buffer not yet
written back) is never read to be written back (vault/other_writers.py): we wait for the
writer to let go, up to `WRITER_WAIT`, and then refuse (BeingWritten) rather than guess.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from cortexgraph_vault.core.note import (
    ParsedNote,
    minimal_update,
    minimal_update_parsed,
    parse_note,
)
from cortexgraph_vault.errors import BeingWritten, Conflict, NoteFormatError, NotFound, VaultError
from cortexgraph_vault.vault.anchored import register
from cortexgraph_vault.vault.files import (
    ChangedUnderUs,
    FileStamp,
    LateWrite,
    NotRegularFile,
    atomic_write,
    current_stamp,
    decode_note,
    lexists,
    read_bytes,
    read_note_open,
    remove_file,
    rename_file,
)
from cortexgraph_vault.vault.journal import WriteJournal
from cortexgraph_vault.vault.late_writes import KeepLateWords, merged_late
from cortexgraph_vault.vault.layout import NameInUse, VaultLayout, unique_name
from cortexgraph_vault.vault.lock import VaultLock
from cortexgraph_vault.vault.paths import safe_path

MAX_ATTEMPTS = 8
# Words typed late exist nowhere but in memory: try harder before keeping them in a copy.
LATE_ATTEMPTS = 32
# How long a change waits for another program to finish writing the note (an editor's save
# takes milliseconds), looking again every `WRITER_POLL` at first, less often later.
WRITER_WAIT = 1.0
WRITER_POLL = 0.005
log = logging.getLogger(__name__)
T = TypeVar("T")


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


@dataclass(frozen=True)
class Written:
    path: str
    text: str
    data: bytes
    stamp: FileStamp
    before: str | None  # the text we replaced (a move: the old note's; None: a new file)
    parsed: ParsedNote | None = None  # `text` parsed, when the edit did (the index need not)


class NoteStore:
    def __init__(
        self,
        layout: VaultLayout,
        lock: VaultLock,
        journal: WriteJournal | None = None,
        *,
        max_note_bytes: int | None = None,
    ) -> None:
        self.layout = layout
        self.root = layout.root
        register(self.root)  # every file below it reached from it (vault/anchored.py)
        self.lock = lock
        self.journal = journal
        # Larger notes are indexed only in part, and rewriting one would hold it in memory
        # several times over: they are refused, and left exactly as they are.
        self.max_note_bytes = max_note_bytes
        # Asked before a note that may be tracked is changed (not before a new one is made):
        # raises to refuse, naming what it is (the engine: while git is mid-rebase).
        self.before_change: Callable[[str], None] | None = None

    def _may_change(self, doing: str) -> None:
        if self.before_change is not None:
            self.before_change(doing)

    def path(self, rel: str) -> Path:
        return safe_path(self.root, rel)

    def read(self, rel: str) -> tuple[str, FileStamp]:
        text, stamp, fd = self._read_open(rel, self.path(rel))
        os.close(fd)
        return text, stamp

    def _read_open(self, rel: str, path: Path) -> tuple[str, FileStamp, int]:
        """The note, and its descriptor left open (`atomic_write`'s `held_open`)."""
        try:
            # A symlink is never opened (O_NOFOLLOW); the size is the opened file's, looked
            # at before a byte of it is read.
            return _when_written(lambda: read_note_open(path, rel, self.max_note_bytes))
        except FileNotFoundError:
            raise NotFound(f"{rel}: no such note") from None

    def update_fields(
        self, rel: str, compute: ComputeChanges, *, expected_sha256: str | None = None
    ) -> Written:
        """Change frontmatter fields only; `compute` sees the note as it is on disk now."""
        return self._rewrite(
            rel,
            lambda text, parsed: minimal_update_parsed(text, compute(parsed), parsed),
            expected_sha256,
        )

    def replace_body(
        self, rel: str, body: str, changes: FieldChanges, *, expected_sha256: str | None
    ) -> Written:
        def edit(text: str, parsed: ParsedNote) -> tuple[str, None]:
            head = text[: len(text) - len(parsed.body)] if parsed.body else text
            new_body = body.replace("\n", parsed.newline) if parsed.newline != "\n" else body
            return (minimal_update(head + new_body, changes) if changes else head + new_body), None

        return self._rewrite(rel, edit, expected_sha256)

    def _rewrite(self, rel: str, edit: Edit, expected_sha256: str | None) -> Written:
        """`edit` gives the new text, and the new text parsed when it parsed it."""
        path = self.path(rel)
        self._may_change(f"changing {rel}")
        with self.lock.held():
            for _ in range(MAX_ATTEMPTS):
                # The descriptor the note was read from is the one the write checks again
                # and holds (`atomic_write`'s `held_open`, which closes it).
                text, stamp, held = self._read_open(rel, path)
                try:
                    new_text, new_parsed = edited(rel, text, stamp, edit, expected_sha256)
                except BaseException:
                    os.close(held)
                    raise
                if new_text == text:
                    os.close(held)
                    return Written(rel, text, text.encode(), stamp, text)
                data = new_text.encode("utf-8")
                try:
                    new_stamp = atomic_write(
                        path,
                        data,
                        expected=stamp,
                        sync_later=True,
                        on_late=self.late_keeper(rel),
                        held_open=held,
                    )
                except LateWrite as exc:
                    # Our change is on disk; their words are in the version we replaced.
                    self._check_their_version(rel, exc, expected_sha256)
                    kept = self._merge_late_words(rel, text.encode("utf-8"), exc.data)
                    if kept is None:
                        raise NotFound(f"{rel}: removed while we updated it") from None
                    return Written(rel, kept[0].decode("utf-8"), kept[0], kept[1], text)
                except ChangedUnderUs:
                    # Someone wrote the note meanwhile: read it again and re-apply — unless
                    # the caller pinned the version it edited, then that is their conflict.
                    if expected_sha256 is not None:
                        current, now = self.read(rel)
                        raise Conflict(rel, expected_sha256, now.sha256, current) from None
                    continue
                return Written(rel, new_text, data, new_stamp, text, new_parsed)
        raise VaultError(f"{rel}: kept changing while we tried to update it; try again")

    def late_keeper(self, rel: str) -> KeepLateWords:
        """What a write of `rel` hands words written late into the note it replaced to."""
        return lambda replaced, late, settled: self.keep_late_words(rel, replaced, late, settled)

    def keep_late_words(self, rel: str, replaced: bytes, late: bytes, settled: bool) -> None:
        """Words an editor wrote into the version of `rel` we had replaced, found by the last
        look at it (vault/late_writes.py), merged into the note as it is now. Not `settled`
        (still being written when the looks ended), only an append is merged; anything else
        is kept beside the note, as a conflict copy."""
        try:
            with self.lock.held():
                if not settled and not late.startswith(replaced):
                    copy = self._late_copy(rel, late)
                    log.warning(
                        "%s: words written into it while we replaced it, still being "
                        "written after a minute, are in %s",
                        rel,
                        copy,
                    )
                    return
                kept = self._merge_late_words(rel, replaced, late)
        except (VaultError, OSError) as exc:
            log.error("%s: words written into it while we replaced it not kept: %s", rel, exc)
            return
        if kept is None:
            log.error(
                "%s: words written into it while we replaced it not kept: the note kept changing",
                rel,
            )

    def _merge_late_words(
        self, rel: str, replaced: bytes, late: bytes
    ) -> tuple[bytes, FileStamp] | None:
        """Under the lock: `late` (the version we replaced, `replaced`, with an editor's words
        in) merged into the note on disk (late_writes.merged_late); the note as it is then,
        or None if it is gone. Their words exist nowhere else: a note that keeps changing
        under every try gets them in a conflict copy beside it (merged back like a sync's)."""
        path = self.path(rel)
        for _ in range(LATE_ATTEMPTS):
            try:
                current, stamp = _when_written(lambda: read_bytes(path, rel, whole=True))
            except (FileNotFoundError, NotRegularFile, IsADirectoryError):
                log.warning(
                    "%s: moved or removed before words typed into it late could be kept", rel
                )
                return None
            except BeingWritten:
                break
            merged, report = merged_late(replaced, current, late)
            if merged == current:
                return current, stamp
            try:
                new_stamp = atomic_write(
                    path, merged, expected=stamp, on_late=self.late_keeper(rel)
                )
            except ChangedUnderUs:
                continue
            except LateWrite as exc:
                late, replaced = exc.data, current
                continue
            log.info(
                "%s: kept words written into it while we replaced it%s",
                rel,
                f" ({report})" if report else "",
            )
            return merged, new_stamp
        copy = self._late_copy(rel, late)
        log.warning(
            "%s: kept changing; words written into it while we replaced it are in %s", rel, copy
        )
        return read_bytes(path)

    def _late_copy(self, rel: str, data: bytes) -> str:
        folder, _, name = rel.rpartition("/")
        day = time.strftime("%Y-%m-%d")
        for n in range(1, 1000):
            copy = f"{folder}/{name[:-3]} (cortexgraph-vault's conflicted copy {day} ({n})).md"
            try:
                atomic_write(self.path(copy), data, must_not_exist=True)
            except ChangedUnderUs:
                continue
            return copy
        raise VaultError(f"{rel}: no free name for a conflict copy of words typed into it late")

    def _check_their_version(self, rel: str, late: LateWrite, pinned: str | None) -> None:
        """Our rename won, but an editor wrote into the note in the instant before it: their
        words are in the version we replaced. If that version cannot be edited, or the caller
        pinned the version it changed, put theirs back exactly (and say why)."""
        try:
            text = decode_note(late.data, rel)
            if pinned is not None:
                sha = hashlib.sha256(late.data).hexdigest()
                raise Conflict(rel, pinned, sha, text)
            editable(rel, text)
        except (NoteFormatError, Conflict):
            atomic_write(late.path, late.data, expected=late.written, on_late=self.late_keeper(rel))
            raise

    def create(
        self,
        folder: str,
        title: str,
        text: str,
        in_use: NameInUse | None = None,
        *,
        moving_from: tuple[str, str] | None = None,
    ) -> Written:
        """A new note with a unique name in `folder` (never replaces an existing file).

        `in_use` says which names notes elsewhere in the vault hold (the catalogue knows,
        without a walk); an entry in the folder itself is checked on disk, name by name, so a
        save costs the same in a folder of ten files as in one of ten thousand.

        `moving_from` (path, sha256) marks the first step of a move: the journal learns both
        names before the new file exists, so a crash before the old one goes can be repaired.
        """
        base = self.path(folder + "/x.md").parent
        with self.lock.held():
            # atomic_write makes the folder when it is missing.
            tried: set[str] = set()

            def taken(name: str) -> bool:
                return (
                    name.lower() in tried
                    or lexists(base / name)
                    or (in_use is not None and in_use(name))
                )

            for _ in range(MAX_ATTEMPTS):
                name = unique_name(title, taken)
                rel = f"{folder}/{name}"
                data = text.encode("utf-8")
                if moving_from is not None and self.journal is not None:
                    self.journal.begin(
                        {
                            "kind": "move",
                            "from": moving_from[0],
                            "from_sha": moving_from[1],
                            "to": rel,
                            "to_sha": hashlib.sha256(data).hexdigest(),
                        }
                    )
                # `base` was checked for symlinks above and a plain name adds no folder: the
                # same path `self.path(rel)` gives, without its two lstats.
                plain = "/" not in name and name not in (".", "..")
                try:
                    stamp = atomic_write(
                        base / name if plain else self.path(rel),
                        data,
                        must_not_exist=True,
                        sync_later=moving_from is None,
                    )
                except ChangedUnderUs:
                    tried.add(name.lower())
                    continue
                return Written(rel, text, data, stamp, None)
        raise VaultError(f"{folder}: could not find a free file name for {title!r}")

    def move(
        self,
        rel: str,
        folder: str,
        changes: FieldChanges,
        *,
        in_use: NameInUse | None = None,
        title: str | None = None,
    ) -> tuple[Written, str]:
        """Move a note into `folder` with field changes: write the new file, then remove the old.

        Returns the new file and the old path. The old file is removed only if it is still
        what we read, so an edit made meanwhile is never lost (we stop with a Conflict).
        """
        self._may_change(f"moving {rel}")
        with self.lock.held():
            text, stamp = self.read(rel)
            editable(rel, text)
            new_text = minimal_update(text, changes)
            try:
                written = self.create(
                    folder,
                    title or Path(rel).stem,
                    new_text,
                    in_use,
                    moving_from=(rel, stamp.sha256),
                )
                self._remove_moved(rel, stamp, written)
            finally:
                if self.journal is not None:
                    self.journal.done()
            return dataclasses.replace(written, before=text), rel

    def _remove_moved(self, rel: str, stamp: FileStamp, written: Written) -> None:
        old_path = self.path(rel)
        try:
            now = current_stamp(old_path)
            if now is None or now.sha256 != stamp.sha256:
                raise ChangedUnderUs(old_path, "changed while moving")
            remove_file(old_path)
        except ChangedUnderUs:
            remove_file(self.path(written.path))
            current, cur_stamp = self.read(rel)
            raise Conflict(rel, stamp.sha256, cur_stamp.sha256, current) from None

    def delete(self, rel: str, *, expected_sha256: str | None = None) -> str:
        """Remove a note; returns the text removed (for the caller to restore on failure)."""
        self._may_change(f"removing {rel}")
        with self.lock.held():
            text, stamp = self.read(rel)
            if expected_sha256 is not None and stamp.sha256 != expected_sha256:
                raise Conflict(rel, expected_sha256, stamp.sha256, text)
            remove_file(self.path(rel))
            return text

    def set_aside(self, rel: str, aside: str, expected_sha256: str) -> None:
        """Take a note out of the vault by renaming it to the hidden `aside` beside it (needs no
        free space). `put_back` undoes it, `discard` finishes it. Refused with a Conflict if
        the note is not (or, by the rename, no longer) the version the caller recorded."""
        self._may_change(f"forgetting {rel}")
        with self.lock.held():
            text, stamp = self.read(rel)
            if stamp.sha256 != expected_sha256:
                raise Conflict(rel, expected_sha256, stamp.sha256, text)
            rename_file(self.path(rel), self.path(aside))
            moved = current_stamp(self.path(aside))
            if moved is None or moved.sha256 != expected_sha256:
                self.put_back(aside, rel)  # a person's edit landed meanwhile: theirs, kept
                raise Conflict(rel, expected_sha256, moved.sha256 if moved else "", "")

    def put_back(self, aside: str, rel: str) -> None:
        with self.lock.held():
            if lexists(self.path(rel)):
                raise ChangedUnderUs(self.path(rel), "a new file took the name meanwhile")
            rename_file(self.path(aside), self.path(rel))

    def discard(self, aside: str) -> None:
        remove_file(self.path(aside))

    def write_back(self, rel: str, text: str) -> None:
        """Put a removed note back exactly as it was (undo of a failed operation)."""
        path = self.path(rel)
        with self.lock.held():
            atomic_write(path, text.encode("utf-8"))

    def exists(self, rel: str) -> bool:
        return lexists(self.path(rel))


def _when_written(read: Callable[[], T]) -> T:
    """`read()` once no other program is writing the note (BeingWritten meanwhile), waiting
    up to WRITER_WAIT."""
    ends = time.monotonic() + WRITER_WAIT
    pause = WRITER_POLL
    while True:
        try:
            return read()
        except BeingWritten:
            if time.monotonic() >= ends:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)
