"""The in-memory catalogue of every note in the vault, kept current by a cheap stat walk.

It only reads. A file is re-parsed when its size or mtime changed; our own writes are
recorded directly (read-your-writes), so the next walk recognises them and skips them.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cortexgraph_vault.core.memory import Memory, memory_from_fields
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.times import from_epoch
from cortexgraph_vault.vault.files import TEMP_MARK
from cortexgraph_vault.vault.layout import VaultLayout
from cortexgraph_vault.vault.paths import IGNORED_DIRS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IndexedNote:
    path: str
    title: str
    size: int
    mtime_ns: int
    ctime_ns: int
    sha256: str
    frontmatter: dict[str, Any]
    body: str
    problems: tuple[str, ...] = ()
    memory: Memory | None = None


@dataclass
class RefreshReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def _walk_markdown(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            log.warning("%s: cannot list folder (%s)", folder, exc.strerror)
            continue
        for entry in entries:
            name = entry.name
            if name.startswith(".") or TEMP_MARK in name:
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if name not in IGNORED_DIRS:
                        stack.append(Path(entry.path))
                    continue
                if not name.endswith(".md") or not entry.is_file(follow_symlinks=False):
                    continue
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            yield Path(entry.path).relative_to(root).as_posix(), st


def parse_note_bytes(
    rel: str, data: bytes, st: os.stat_result, layout: VaultLayout, max_bytes: int
) -> IndexedNote:
    """Everything the index knows about one file, from its bytes; never raises on content."""
    problems: list[str] = []
    sha = hashlib.sha256(data).hexdigest()
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
    if not text.strip():
        problems.append("empty note")
    parsed = parse_note(text)
    if parsed.problem:
        problems.append(parsed.problem)
    title = rel.rsplit("/", 1)[-1][:-3]
    memory = None
    if layout.is_memory_path(rel):
        memory = memory_from_fields(
            path=rel,
            title=title,
            frontmatter=parsed.frontmatter,
            body=parsed.body,
            content_hash=sha,
            file_created=from_epoch(min(st.st_ctime, st.st_mtime)),
            file_modified=from_epoch(st.st_mtime),
            folder_status=layout.status_for_folder(rel),
        )
        problems.extend(memory.problems)
    return IndexedNote(
        path=rel,
        title=title,
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        ctime_ns=st.st_ctime_ns,
        sha256=sha,
        frontmatter=parsed.frontmatter,
        body=parsed.body,
        problems=tuple(problems),
        memory=memory,
    )


class VaultCatalog:
    def __init__(self, layout: VaultLayout, *, max_note_bytes: int = 5_000_000) -> None:
        self.layout = layout
        self.root = layout.root
        self.max_note_bytes = max_note_bytes
        self._notes: dict[str, IndexedNote] = {}
        self._by_id: dict[str, str] = {}

    # reading -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._notes)

    def notes(self) -> Iterable[IndexedNote]:
        return self._notes.values()

    def note(self, rel: str) -> IndexedNote | None:
        return self._notes.get(rel)

    def memories(self) -> Iterator[Memory]:
        for note in self._notes.values():
            if note.memory is not None:
                yield note.memory

    def memory_by_id(self, memory_id: str) -> Memory | None:
        rel = self._by_id.get(memory_id)
        note = self._notes.get(rel) if rel else None
        return note.memory if note else None

    def problems(self) -> list[tuple[str, str]]:
        return sorted((n.path, p) for n in self._notes.values() for p in n.problems)

    # updating ----------------------------------------------------------------
    def refresh(self) -> RefreshReport:
        """Stat every note; re-parse those whose size or mtime changed; drop the vanished."""
        report = RefreshReport()
        seen: set[str] = set()
        for rel, st in _walk_markdown(self.root):
            seen.add(rel)
            old = self._notes.get(rel)
            if old and old.size == st.st_size and old.mtime_ns == st.st_mtime_ns:
                continue
            if self.reload(rel) is not None:
                (report.changed if old else report.added).append(rel)
        for rel in list(self._notes):
            if rel not in seen:
                self.drop(rel)
                report.removed.append(rel)
        return report

    def reload(self, rel: str) -> IndexedNote | None:
        path = self.root / rel
        try:
            with open(path, "rb") as fh:
                st = os.fstat(fh.fileno())
                data = fh.read(self.max_note_bytes + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            self.drop(rel)
            return None
        except OSError as exc:
            log.warning("%s: cannot read (%s)", rel, exc.strerror)
            return None
        note = parse_note_bytes(rel, data, st, self.layout, self.max_note_bytes)
        if len(data) > self.max_note_bytes:
            note = _with_true_size(note, st)
        self._put(note)
        return note

    def record(self, rel: str, data: bytes) -> IndexedNote:
        """Our own write: index it now, without waiting for a walk or a watcher event."""
        st = os.stat(self.root / rel)
        note = parse_note_bytes(rel, data, st, self.layout, self.max_note_bytes)
        self._put(note)
        return note

    def drop(self, rel: str) -> None:
        old = self._notes.pop(rel, None)
        if old and old.memory and old.memory.id and self._by_id.get(old.memory.id) == rel:
            del self._by_id[old.memory.id]

    def _put(self, note: IndexedNote) -> None:
        self.drop(note.path)
        self._notes[note.path] = note
        if note.memory and note.memory.id:
            self._by_id[note.memory.id] = note.path


def _with_true_size(note: IndexedNote, st: os.stat_result) -> IndexedNote:
    # The hash of a capped read is of the prefix only; mark it so no write trusts it.
    return IndexedNote(**{**note.__dict__, "size": st.st_size, "sha256": "partial:" + note.sha256})
