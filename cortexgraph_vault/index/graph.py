"""The link graph of the vault: outgoing links, backlinks, unresolved links, tags, orphans.

Links are kept as written and resolved lazily (at the next query), the way Obsidian resolves
them (`core.resolve.LinkResolver`, kept current file by file). A change re-resolves only what
it can affect: the changed note's own links, and the links elsewhere whose target name the
change added or took away (a new `Foo.md` makes `[[Foo]]` resolve; a deleted one makes it
unresolved again, kept by name, never lost).

Self-links: `[[#Heading]]` and `[[#^block]]` (no target) point to a place inside the note and
are no edge at all: not outgoing, not unresolved, not counted. `[[Own Title]]` from a note to
itself is an outgoing link (Obsidian lists it among the note's outgoing links) but no backlink:
a backlink says another note points here, so a note cannot lift itself out of the orphans.

Not thread-safe by itself: the catalogue holds its lock around every call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cortexgraph_vault.core.resolve import LinkResolver, name_key

if TYPE_CHECKING:
    from cortexgraph_vault.core.links import LinkRef
    from cortexgraph_vault.index.notes.records import IndexedNote


@dataclass(frozen=True, slots=True)
class Edge:
    from_path: str  # the vault path of the note the link is written in
    link: LinkRef
    target: str | None  # a vault path (note or attachment), or None when unresolved


def link_key(target: str) -> str:
    """The name a link is looked up by: its last path part as `name_key` has it, without `.md`."""
    name = target.strip().replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    name = name_key(name)
    return name[:-3] if name.endswith(".md") else name


def unresolved_key(target: str) -> str:
    """Links to one missing note are one target however written: `[x](Example.md)`,
    `[[Example]]` and `[[example]]` (Obsidian compares names without case, `.md` implied)."""
    key = name_key(target.strip().replace("\\", "/"))
    return key[:-3] if key.endswith(".md") else key


def _shown(target: str) -> str:
    target = target.strip()
    return target[:-3] if target.lower().endswith(".md") else target


def names_of(note: IndexedNote) -> set[str]:
    """The link names a note answers to: its file name (a link never resolves by alias, as in
    Obsidian)."""
    return {link_key(note.path)}


class LinkGraph:
    """Built on first use: a process that only saves or searches never pays for links."""

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self._built = False
        self._notes: dict[str, IndexedNote] = {}
        self._attachments: set[str] = set()
        self._by_key: dict[str, set[str]] = {}  # link name → notes linking by that name
        self._out: dict[str, tuple[Edge, ...]] = {}
        self._in: dict[str, set[str]] = {}  # target → other notes linking to it (never itself)
        self._unresolved: dict[str, set[str]] = {}  # unresolved_key(target) → sources
        self._dirty: set[str] = set()
        self._resolver = LinkResolver(())

    def load(self, notes: Iterable[IndexedNote]) -> None:
        """Start over with these notes (the persistent cache); links are resolved on first use."""
        self._clear()
        self._notes = {note.path: note for note in notes}

    def _build(self) -> None:
        self._built = True
        notes, self._notes = self._notes, {}
        for path in self._attachments:
            self._resolver.add(path)
        for note in notes.values():
            self.put(note, None)

    def put(self, note: IndexedNote, old: IndexedNote | None) -> None:
        path = note.path
        if not self._built:
            self._notes[path] = note
            return
        if old is None:
            old = self._notes.get(path)
        if (
            old is not None
            and old.path == path
            and old.links == note.links
            and old.aliases == note.aliases
        ):
            # the same links and names (a touch, an edit of other fields): its edges and
            # every other note's stand as they are, not resolved again at the next read
            self._notes[path] = note
            return
        if old is not None:
            self._forget_keys(old)
        self._notes[path] = note
        for link in note.links:
            if link.target:
                self._by_key.setdefault(link_key(link.target), set()).add(path)
        self._dirty.add(path)
        before = names_of(old) if old is not None else set()
        after = names_of(note)
        if old is None or before != after or old.aliases != note.aliases:
            self._resolver.add(path, note.aliases)  # aliases: for the tools' own lookups
        if old is None or before != after:
            self._names_changed(before ^ after if old is not None else after)

    def remove(self, old: IndexedNote) -> None:
        if self._notes.pop(old.path, None) is None or not self._built:
            return
        self._forget_keys(old)
        self._dirty.add(old.path)
        self._resolver.remove(old.path)
        self._names_changed(names_of(old))

    def set_attachments(self, paths: set[str], prefix: str = "") -> None:
        """The non-note files under `prefix` (links to images and PDFs resolve to them)."""
        current = {p for p in self._attachments if p.startswith(prefix)}
        if current == paths:
            return
        self._attachments = (self._attachments - current) | paths
        if self._built:
            for path in current - paths:
                self._resolver.remove(path)
            for path in paths - current:
                self._resolver.add(path)
            self._names_changed({link_key(p) for p in current ^ paths})

    def attachment(self, path: str, exists: bool) -> None:
        if exists == (path in self._attachments):
            return
        (self._attachments.add if exists else self._attachments.discard)(path)
        if self._built:
            (self._resolver.add if exists else self._resolver.remove)(path)
            self._names_changed({link_key(path)})

    def _forget_keys(self, note: IndexedNote) -> None:
        for link in note.links:
            if link.target:
                sources = self._by_key.get(link_key(link.target))
                if sources is not None:
                    sources.discard(note.path)

    def _names_changed(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._dirty.update(self._by_key.get(key, ()))

    def _ensure(self) -> None:
        if not self._built:
            self._build()
        if not self._dirty:
            return
        resolver = self._resolver
        for source in self._dirty:
            for edge in self._out.pop(source, ()):
                bucket = (
                    self._in.get(edge.target)
                    if edge.target is not None
                    else self._unresolved.get(unresolved_key(edge.link.target))
                )
                if bucket is not None:
                    bucket.discard(source)
            note = self._notes.get(source)
            if note is None:
                continue
            edges = tuple(
                Edge(source, link, resolver.resolve(link.target, source))
                for link in note.links
                if link.target  # not `[[#Heading]]`: a place in this note (module docstring)
            )
            self._out[source] = edges
            for edge in edges:
                if edge.target is None:
                    self._unresolved.setdefault(unresolved_key(edge.link.target), set()).add(source)
                elif edge.target != source:  # naming itself: outgoing, but never its backlink
                    self._in.setdefault(edge.target, set()).add(source)
        self._dirty.clear()

    def resolve(self, target: str, source_path: str = "") -> str | None:
        """The note a tool's reference names, as `[[target]]` written in `source_path` (default:
        a note at the vault root) opens in Obsidian, or else the note with that alias; an
        attachment; or None."""
        self._ensure()
        return self._resolver.resolve(target, source_path, aliases=True)

    def outgoing(self, path: str) -> tuple[Edge, ...]:
        self._ensure()
        return self._out.get(path, ())

    def backlinks(self, path: str) -> list[str]:
        """Other notes linking to `path`, sorted."""
        self._ensure()
        return sorted(self._in.get(path, ()))

    def unresolved(self) -> dict[str, list[str]]:
        """Link targets that match no file → the notes linking to them."""
        return {name: sources for name, (_, sources) in self.unresolved_links().items()}

    def unresolved_links(self) -> dict[str, tuple[int, list[str]]]:
        """Each missing target (as most of its links write it, `.md` left off) → how many
        links point to it and from which notes."""
        self._ensure()
        out: dict[str, tuple[int, list[str]]] = {}
        for key, sources in self._unresolved.items():
            if not sources:
                continue
            written = Counter(
                _shown(e.link.target)
                for source in sources
                for e in self._out.get(source, ())
                if e.target is None and unresolved_key(e.link.target) == key
            )
            name = min(written, key=lambda w: (-written[w], w))
            out[name] = (sum(written.values()), sorted(sources))
        return dict(sorted(out.items()))

    def neighbours(self, path: str) -> set[str]:
        """Notes linked from or to `path`, attachments left out."""
        self._ensure()
        out = {e.target for e in self._out.get(path, ()) if e.target in self._notes}
        return (out | self._in.get(path, set())) - {path}

    def orphans(self) -> list[str]:
        """Notes no other note links to and that link to nothing that exists but themselves."""
        self._ensure()
        return sorted(
            path
            for path in self._notes
            if not self._in.get(path)
            and not any(e.target not in (None, path) for e in self._out.get(path, ()))
        )

    def neighbourhood(self, path: str, hops: int, max_nodes: int) -> tuple[dict[str, int], bool]:
        """Notes within `hops` links of `path` (either direction) → their distance."""
        self._ensure()
        found = {path: 0}
        frontier = [path]
        for distance in range(1, hops + 1):
            nxt: list[str] = []
            for node in frontier:
                for other in sorted(self.neighbours(node)):
                    if other in found:
                        continue
                    if len(found) >= max_nodes:
                        return found, True
                    found[other] = distance
                    nxt.append(other)
            frontier = nxt
        return found, False

    def tag_counts(self) -> dict[str, int]:
        """Notes per tag; a nested tag also counts for its parents (`a/b` counts for `a`)."""
        # core.tags loads the markdown parser: not at every start, only when asked
        from cortexgraph_vault.core.tags import tag_ancestors

        counts: Counter[str] = Counter()
        for note in self._notes.values():
            counts.update({level for tag in note.tags for level in tag_ancestors(tag)})
        return dict(sorted(counts.items()))

    def entity_counts(self) -> dict[str, int]:
        counts = Counter(e for note in self._notes.values() for e in set(note.entities))
        return dict(sorted(counts.items()))

    def attachment_count(self) -> int:
        return len(self._attachments)

    def link_counts(self) -> tuple[int, int]:
        """(resolved, unresolved) links in the vault."""
        self._ensure()
        unresolved = sum(e.target is None for edges in self._out.values() for e in edges)
        return sum(map(len, self._out.values())) - unresolved, unresolved
