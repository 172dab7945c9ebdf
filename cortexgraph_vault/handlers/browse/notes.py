"""Reading any note of the vault, a page at a time, found the way Obsidian opens a link.

search_unified finds notes outside the memory folders and shows a preview of each; this reads
one in full: frontmatter and body apart, its links and backlinks. Every answer fits `max_chars`
characters of compact JSON, as the model receives it: the first page holds the frontmatter,
as much of the body as fits (ending on a line break when one is near), then as many links and
backlinks as fit in what is left, with their counts. What did not fit has a cursor of its own:
`next_cursor` reads on in the body, `links_cursor` and `backlinks_cursor` page through the
links and backlinks. A cursor names its offset and the file's content, so one used after the
note changed is refused rather than continuing in the middle of a different text.
"""

from __future__ import annotations

import hashlib
import math
import os
import posixpath
import re
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.links import LinkRef
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument, NoteFormatError, NotFound, Stale, UnsafePath
from cortexgraph_vault.handlers.browse.size_budget import (
    fitting,
    json_size,
    prefix_within,
    quoted_size,
)
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes.records import decode_note_bytes
from cortexgraph_vault.models import Backlink, NoteLinkView, NoteRead
from cortexgraph_vault.requests.vault import ReadNoteRequest
from cortexgraph_vault.vault.anchored import SymlinkedFolder
from cortexgraph_vault.vault.files import NotRegularFile, lstat_of, read_bytes

# Whole files are read to check a cursor against the content; a note this large is no note.
MAX_READ_BYTES = 64 * 1024 * 1024
_PATHLIKE = re.compile(r"[/\\]|^\.\.?$|^[A-Za-z]:$")
_CURSOR = re.compile(r"^([LB]?)(\d{1,12})\.([0-9a-f]{16})$")
_BODY, _LINKS, _BACKLINKS = "", "L", "B"  # what a cursor pages through


def _cursor_token(rel: str, sha256: str) -> str:
    return hashlib.sha256(f"{rel}\0{sha256}".encode()).hexdigest()[:16]


def note_cursor(offset: int, rel: str, sha256: str, section: str = _BODY) -> str:
    """The read_note cursor that reads `rel` (whose file has this sha256) from body `offset`
    (or from that link or backlink, `section` L or B)."""
    return f"{section}{offset}.{_cursor_token(rel, sha256)}"


def _parse_cursor(cursor: str) -> tuple[str, int, str]:
    match = _CURSOR.match(cursor.strip())
    if match is None:
        raise InvalidArgument(
            f"cursor: {cursor[:40]!r} is not a cursor from read_note; pass next_cursor, "
            "links_cursor or backlinks_cursor from the previous page unchanged, or leave it out "
            "to start at the beginning"
        )
    return match.group(1), int(match.group(2)), match.group(3)


def _attachment(rel: str, argument: str) -> InvalidArgument:
    return InvalidArgument(
        f"{argument}: {rel} is an attachment ({posixpath.splitext(rel)[1] or 'no extension'}), "
        "not a Markdown note; only .md notes are read"
    )


def find_note(engine: VaultEngine, ref: str, argument: str = "ref") -> str:
    """The vault path of the note `ref` names: a memory id, a path, a title or an alias, or a
    `[[link]]`, resolved as a link written in a note at the vault root; then a memory's id
    prefix or title. Errors name `argument`, the request field `ref` came in."""
    if not isinstance(ref, str) or not ref.strip():
        raise InvalidArgument(
            f"{argument}: empty; give a note's path, title or alias (search_unified finds them)"
        )
    target = link_target(ref.strip())
    # A path is checked as every path argument is (`..`, absolute, tools' folders refused); a
    # title or alias is any text, `Q: a question` included.
    clean = engine.safe_rel(target) if _PATHLIKE.search(target) else target
    catalog = engine.fresh()
    with catalog.lock:
        memory = catalog.memory_by_id(target)
        path = memory.path if memory is not None else catalog.graph.resolve(clean)
    if path is None:
        path = _on_disk(engine, catalog, clean)
    if path is None:
        on_disk = _file(engine, clean)
        if on_disk is not None and on_disk.is_file() and not clean.lower().endswith(".md"):
            raise _attachment(clean, argument)
        if on_disk is not None and on_disk.is_dir():
            raise InvalidArgument(f"{argument}: {clean} is a folder; give a note inside it")
        try:
            path = engine.resolve(target).path  # a memory's id prefix or title
        except NotFound:
            raise NotFound(
                f"{argument}: no note matches {ref.strip()!r} (by path, title, alias or memory id); "
                "find it with search_unified"
            ) from None
    if not path.lower().endswith(".md"):
        raise _attachment(path, argument)
    return path


def _on_disk(engine: VaultEngine, catalog: VaultCatalog, clean: str) -> str | None:
    """A note named by its path that the live index has not seen yet (the watcher waits for
    writes to settle): the file is the truth, so it is indexed now."""
    for rel in (clean, clean + ".md"):
        found = _file(engine, rel) if rel.lower().endswith(".md") else None
        if found is not None and found.is_file():
            catalog.reload(rel)
            return rel
    return None


# The longest file name, in bytes, that Linux, macOS and Windows file systems allow: a longer
# part of a path names no file (and asking the system about it fails, not answers "no").
_NAME_MAX = 255


def _file(engine: VaultEngine, rel: str) -> Path | None:
    """Where `rel` is in the vault, or None for a name no file inside the vault can have."""
    if any(len(os.fsencode(part)) > _NAME_MAX for part in rel.split("/")):
        return None
    try:
        return engine.store.path(rel)
    except UnsafePath:
        return None


def _plain(value: Any) -> Any:
    """A frontmatter value as JSON has it (YAML gives dates, times and other types)."""
    if isinstance(value, datetime):
        return format_time(value) if value.tzinfo else value.isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # `.nan` and `.inf` are YAML, not JSON
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def _page_end(body: str, start: int, room: int) -> int:
    """Where a page of the body that takes at most `room` characters of JSON ends."""
    end = start + prefix_within(body[start : start + max(room, 0)], room + 2)
    if end < len(body):
        # End on a line break in the last fifth of the page, so no line is cut when avoidable.
        cut = body.rfind("\n", start + (end - start) * 4 // 5, end)
        if cut >= 0:
            end = cut + 1
    return end


def link_kind(link: LinkRef) -> str:
    """What a link is, as answers name it: its property (a typed relation), embed or link."""
    if link.kind == "property" and link.property:
        return link.property
    return "embed" if link.embed else "link"


def _links(catalog: VaultCatalog, rel: str) -> tuple[list[NoteLinkView], list[str]]:
    """The note's links in the order written, and the paths of the notes linking to it."""
    with catalog.lock:
        links = [
            NoteLinkView(target=e.link.target, path=e.target, kind=link_kind(e.link))
            for e in catalog.graph.outgoing(rel)
        ]
        return links, list(catalog.graph.backlinks(rel))


def _backlinks(catalog: VaultCatalog, sources: list[str], room: int) -> tuple[list[Backlink], int]:
    """The leading backlinks that fit in `room` (each note looked up only when it may fit),
    and how many of `sources` they cover."""
    kept: list[Backlink] = []
    used = 0
    for n, source in enumerate(sources):
        note = catalog.note(source)
        title = note.title if note is not None else posixpath.basename(source)[:-3]
        memory_id = note.memory.id if note is not None and note.memory else None
        link = Backlink(path=source, title=title, memory_id=memory_id)
        used += json_size(link) + 1
        if used > room:
            return kept, n
        kept.append(link)
    return kept, len(sources)


def read_note(engine: VaultEngine, req: ReadNoteRequest) -> NoteRead:
    max_chars = req.max_chars
    section, start, token = _parse_cursor(req.cursor) if req.cursor else (_BODY, 0, None)
    rel = find_note(engine, req.ref)
    path = engine.store.path(rel)
    try:
        size = lstat_of(path).st_size
        if size > MAX_READ_BYTES:
            raise NoteFormatError(
                f"{rel}: {size} bytes, more than read_note reads ({MAX_READ_BYTES}); open it in "
                "Obsidian"
            )
        data, stamp = read_bytes(path)
    except (FileNotFoundError, NotADirectoryError):
        raise NotFound(f"ref: {rel} was removed just now; search again") from None
    except IsADirectoryError:
        raise NoteFormatError(f"{rel}: is a folder, not a note") from None
    except (NotRegularFile, SymlinkedFolder) as exc:  # replaced since it was indexed
        raise NoteFormatError(f"{rel}: {exc.reason}") from None
    if token is not None and token != _cursor_token(rel, stamp.sha256):
        raise Stale(
            f"cursor: {rel} changed since that cursor was given (or it belongs to another "
            "note); call read_note again without cursor to read it from the start"
        )
    text, problems = decode_note_bytes(data, len(data))
    from cortexgraph_vault.core.note import parse_note  # YAML: only for a note read here

    parsed = parse_note(text)
    body = parsed.body
    if section == _BODY and start > len(body):
        raise InvalidArgument(f"cursor: offset {start} is past the end of {rel}")
    catalog = engine.catalog
    indexed = catalog.reload(rel)  # its links as the file has them now, watcher or not
    if parsed.problem:
        problems.append(f"frontmatter: {parsed.problem}")
    if indexed is not None:
        problems += [p for p in indexed.problems if p not in problems]
    memory = indexed.memory if indexed is not None else None
    page = NoteRead(
        path=rel,
        title=posixpath.basename(rel)[:-3],
        source=indexed.kind if indexed else "note",
        memory_id=memory.id if memory else None,
        content_hash=stamp.sha256,
        size_bytes=len(data),
        body_chars=len(body),
        offset=start,
        body=None,
        next_cursor=None,
        frontmatter=None,
        links=None,
        backlinks=None,
        problems=problems,
    )
    links, sources = _links(catalog, rel) if section != _BODY or start == 0 else ([], [])
    if (section == _LINKS and start > len(links)) or (
        section == _BACKLINKS and start > len(sources)
    ):
        raise InvalidArgument(f"cursor: offset {start} is past the end of {rel}'s links")

    def cursor_at(offset: int, kind: str) -> str:
        return note_cursor(offset, rel, stamp.sha256, kind)

    # What every page of its kind holds besides the text and lists: counts and cursors at
    # their longest, so what is added next is measured against what is really left.
    longest = cursor_at(10**12 - 1, _LINKS)
    listed = section != _BODY or start == 0
    page.link_count = len(links) if listed and section != _BACKLINKS else None
    page.backlink_count = len(sources) if listed and section != _LINKS else None
    if section == _BODY:
        page.body, page.next_cursor = "", longest if start > 0 or body else None
        if start == 0:
            page.links_cursor = page.backlinks_cursor = longest
            page.frontmatter = _plain(parsed.frontmatter)
            if json_size(page) > max_chars:
                problems.append("frontmatter is longer than max_chars: not shown; raise max_chars")
                page.frontmatter = None
    else:
        page.links_cursor = longest if section == _LINKS else None
        page.backlinks_cursor = longest if section == _BACKLINKS else None
    room = max_chars - json_size(page)
    if room <= 0:
        raise InvalidArgument(
            f"max_chars: {rel}'s fields alone take {max_chars - room} characters; give at least "
            f"{max_chars - room + 200}",
            params=("max_chars",),
        )
    if section == _BODY:
        end = _page_end(body, start, room)
        if end == start and start < len(body):
            end = start + 1  # a cursor always moves on
        page.body = body[start:end]
        page.next_cursor = cursor_at(end, _BODY) if end < len(body) else None
        room -= quoted_size(page.body) - 2
        if start > 0:
            return page
    links_from = start if section == _LINKS else 0
    if section != _BACKLINKS:
        shown, used = fitting(links[links_from:], room + 2)  # `[]` was counted as null
        page.links = shown
        more = links_from + len(shown)
        page.links_cursor = cursor_at(more, _LINKS) if more < len(links) else None
        room -= used
    if section != _LINKS:
        backlinks_from = start if section == _BACKLINKS else 0
        shown_back, covered = _backlinks(catalog, sources[backlinks_from:], room + 2)
        page.backlinks = shown_back
        more = backlinks_from + covered
        page.backlinks_cursor = cursor_at(more, _BACKLINKS) if more < len(sources) else None
    return page
