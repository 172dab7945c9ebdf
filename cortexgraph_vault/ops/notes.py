"""Reading any note of the vault, a page at a time, found the way Obsidian opens a link.

search_unified finds notes outside the memory folders and shows a preview of each; this reads
one in full: frontmatter and body apart, its links and backlinks. A page is bounded by
characters and ends on a line break when one is near; its cursor names the body offset and the
file's content, so a cursor used after the note changed is refused rather than continuing
in the middle of a different text.
"""

from __future__ import annotations

import hashlib
import json
import math
import posixpath
import re
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument, NoteFormatError, NotFound, Stale, UnsafePath
from cortexgraph_vault.index.catalog import VaultCatalog
from cortexgraph_vault.index.records import NoteLink, decode_note_bytes
from cortexgraph_vault.models import Backlink, NoteLinkView, NoteRead
from cortexgraph_vault.ops.request_checks import check_range
from cortexgraph_vault.vault.anchored import SymlinkedFolder
from cortexgraph_vault.vault.files import NotRegularFile, lstat_of, read_bytes

DEFAULT_CHARS = 10_000
MIN_CHARS = 200
MAX_CHARS = 100_000
MAX_LISTED = 200  # links and backlinks shown on the first page; the counts say how many in all
# Whole files are read to check a cursor against the content; a note this large is no note.
MAX_READ_BYTES = 64 * 1024 * 1024
_PATHLIKE = re.compile(r"[/\\]|^\.\.?$|^[A-Za-z]:$")
_CURSOR = re.compile(r"^(\d{1,12})\.([0-9a-f]{16})$")


def _cursor_token(rel: str, sha256: str) -> str:
    return hashlib.sha256(f"{rel}\0{sha256}".encode()).hexdigest()[:16]


def note_cursor(offset: int, rel: str, sha256: str) -> str:
    """The read_note cursor that reads `rel` (whose file has this sha256) from body `offset`."""
    return f"{offset}.{_cursor_token(rel, sha256)}"


def _parse_cursor(cursor: str) -> tuple[int, str]:
    match = _CURSOR.match(cursor.strip())
    if match is None:
        raise InvalidArgument(
            f"cursor: {cursor[:40]!r} is not a cursor from read_note; pass next_cursor from the "
            "previous page unchanged, or leave it out to start at the beginning"
        )
    return int(match.group(1)), match.group(2)


def _attachment(rel: str) -> InvalidArgument:
    return InvalidArgument(
        f"ref: {rel} is an attachment ({posixpath.splitext(rel)[1] or 'no extension'}), not a "
        "Markdown note; read_note reads .md notes only"
    )


def find_note(engine: VaultEngine, ref: str) -> str:
    """The vault path of the note `ref` names: a memory id, a path, a title or an alias, or a
    `[[link]]`, resolved as a link written in a note at the vault root; then a memory's id
    prefix or title."""
    if not isinstance(ref, str) or not ref.strip():
        raise InvalidArgument(
            "ref: empty; give a note's path, title or alias (search_unified finds them)"
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
            raise _attachment(clean)
        if on_disk is not None and on_disk.is_dir():
            raise InvalidArgument(f"ref: {clean} is a folder; give a note inside it")
        try:
            path = engine.resolve(target).path  # a memory's id prefix or title
        except NotFound:
            raise NotFound(
                f"ref: no note matches {ref.strip()!r} (by path, title, alias or memory id); "
                "find it with search_unified"
            ) from None
    if not path.lower().endswith(".md"):
        raise _attachment(path)
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


def _file(engine: VaultEngine, rel: str) -> Path | None:
    """Where `rel` is in the vault, or None for a name no file inside the vault can have."""
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


def _page_end(body: str, start: int, max_chars: int) -> int:
    end = min(len(body), start + max_chars)
    if end < len(body):
        # End on a line break in the last fifth of the page, so no line is cut when avoidable.
        cut = body.rfind("\n", start + max_chars * 4 // 5, end)
        if cut >= 0:
            end = cut + 1
    return end


def _link_kind(link: NoteLink) -> str:
    if link.kind == "property" and link.property:
        return link.property
    return "embed" if link.embed else "link"


def _links(catalog: VaultCatalog, rel: str) -> tuple[list[NoteLinkView], int, list[Backlink], int]:
    with catalog.lock:
        edges = catalog.graph.outgoing(rel)
        links = [
            NoteLinkView(target=e.link.target, path=e.target, kind=_link_kind(e.link))
            for e in edges[:MAX_LISTED]
        ]
        sources = catalog.graph.backlinks(rel)
        backlinks = []
        for source in sources[:MAX_LISTED]:
            note = catalog.note(source)
            if note is not None:
                memory_id = note.memory.id if note.memory else None
                backlinks.append(Backlink(path=source, title=note.title, memory_id=memory_id))
    return links, len(edges), backlinks, len(sources)


def read_note(
    engine: VaultEngine, ref: str, *, cursor: str | None = None, max_chars: int = DEFAULT_CHARS
) -> NoteRead:
    check_range("max_chars", max_chars, MIN_CHARS, MAX_CHARS)
    start, token = _parse_cursor(cursor) if cursor else (0, None)
    rel = find_note(engine, ref)
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
    if start > len(body):
        raise InvalidArgument(f"cursor: offset {start} is past the end of {rel}")
    end = _page_end(body, start, max_chars)
    catalog = engine.catalog
    indexed = catalog.reload(rel)  # its links as the file has them now, watcher or not
    if parsed.problem:
        problems.append(f"frontmatter: {parsed.problem}")
    if indexed is not None:
        problems += [p for p in indexed.problems if p not in problems]
    first = start == 0
    frontmatter: dict[str, Any] | None = None
    links = backlinks = None
    link_count = backlink_count = None
    if first:
        frontmatter = _plain(parsed.frontmatter)
        if len(json.dumps(frontmatter, ensure_ascii=False)) > max_chars:
            problems.append("frontmatter is longer than max_chars: not shown; raise max_chars")
            frontmatter = None
        links, link_count, backlinks, backlink_count = _links(catalog, rel)
    memory = indexed.memory if indexed is not None else None
    return NoteRead(
        path=rel, title=posixpath.basename(rel)[:-3], source=indexed.kind if indexed else "note",
        memory_id=memory.id if memory else None, content_hash=stamp.sha256, size_bytes=len(data),
        body_chars=len(body), offset=start, body=body[start:end],
        next_cursor=note_cursor(end, rel, stamp.sha256) if end < len(body) else None,
        frontmatter=frontmatter, links=links, link_count=link_count, backlinks=backlinks,
        backlink_count=backlink_count, problems=problems,
    )  # fmt: skip
