"""One note as the index holds it (`IndexedNote`): the fields every start reads kept as
attributes, the rest (frontmatter, body, links, memory) kept encoded until asked for.

Parsing a note's bytes into one is index/notes/records.py; how the cold fields are encoded is
index/notes/cold_fields.py.
"""

from __future__ import annotations

import inspect
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from cortexgraph_vault.core.links import LinkRef
from cortexgraph_vault.core.memory import SUPERSEDED_BY, Memory
from cortexgraph_vault.core.rules import DecayFields
from cortexgraph_vault.index.notes import cold_fields
from cortexgraph_vault.index.notes.cold_fields import Cold
from cortexgraph_vault.index.notes.interning import shared, shared_size, shared_tags

if TYPE_CHECKING:  # the word index loads numpy: not imported by a start that needs no words
    from cortexgraph_vault.index.text.document_terms import DocumentText


class MemoryState(NamedTuple):
    """What reads of every memory look at — its status and decay fields (ranking, `stats`)
    and its typed relations (who points at the memory `show` opens) — kept with the note's
    hot fields: decoding 3,000 memories' cold fields for them was a tenth of a warm 10k
    command."""

    status: str
    created: datetime
    last_used: datetime
    use_count: int
    strength: float
    use_days: int
    relations: tuple[tuple[str, tuple[str, ...]], ...]  # as `Memory.relations`, in order

    @classmethod
    def of(cls, memory: Memory) -> MemoryState:
        relations = tuple((kind, tuple(values)) for kind, values in memory.relations.items())
        m = memory
        return cls(m.status, m.created, m.last_used, m.use_count, m.strength, m.use_days, relations)

    @property
    def superseded(self) -> bool:
        """As `Memory.superseded` gives it."""
        return any(kind == SUPERSEDED_BY and values for kind, values in self.relations)

    @property
    def decay(self) -> DecayFields:
        """As `Memory.decay` gives it."""
        return DecayFields(
            self.created, self.last_used, self.use_count, self.strength, self.use_days
        )


# Fields every start needs (the stat walk, ids, names, tags, problems) or a read of every
# memory does (its status and decay fields: search, `stats`), kept as attributes; the rest
# (frontmatter, body, links, memory) of a note loaded from the cache stays as its bytes until
# something asks for one of them (`show` one note, `list` the memories it shows).
HOT_FIELDS = (
    "path",
    "title",
    "size",
    "mtime_ns",
    "ctime_ns",
    "sha256",
    "problems",
    "kind",
    "tags",
    "aliases",
    "entities",
    "memory_id",
    "memory_state",
)


# The hot fields in order, read in one call: every note's, at every cache write and from
# every parse worker.
_HOT = attrgetter(*HOT_FIELDS)


class ColdRecords(Protocol):
    """Where a note's cold fields are kept encoded: `bytes_at` gives one note's bytes."""

    def bytes_at(self, offset: int, length: int) -> bytes: ...


class OwnBytes:
    """One note's cold fields encoded, held by the note (parsed by a worker process) until
    the cache file it is written to holds them."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def bytes_at(self, offset: int, length: int) -> bytes:
        return self.data[offset : offset + length]  # the whole: the same object, no copy


class IndexedNote:
    """One note as indexed. Immutable by convention (a change makes a new one: `replace`).

    Made from a parse with every field; or with its cold fields still encoded (`encoded`) —
    in the cache file, in a cold start's spool, or in bytes of its own — and decoded on
    first use (the memory keeps its note's strings; the frontmatter's pickle is read again
    when asked for). Reading `body_text` of an encoded note decodes it without keeping the
    result (the embedding of every note at a cold start must not keep every note's fields)."""

    __slots__ = (*HOT_FIELDS, "_cold", "_loc")

    path: str
    title: str
    size: int
    mtime_ns: int
    ctime_ns: int
    sha256: str
    problems: tuple[str, ...]
    kind: str  # "stm" | "ltm" | "archive" | "note": the folder it lives in
    tags: tuple[str, ...]  # lower case, from the frontmatter and the body
    aliases: tuple[str, ...]
    entities: tuple[str, ...]
    memory_id: str | None
    memory_state: MemoryState | None  # None exactly when `memory` is None

    def __init__(
        self,
        *,
        path: str,
        title: str,
        size: int,
        mtime_ns: int,
        ctime_ns: int,
        sha256: str,
        frontmatter: dict[str, object],
        body: str,
        problems: tuple[str, ...] = (),
        memory: Memory | None = None,
        kind: str = "note",
        links: tuple[LinkRef, ...] = (),
        tags: tuple[str, ...] = (),
        aliases: tuple[str, ...] = (),
        entities: tuple[str, ...] = (),
    ) -> None:
        self.path, self.title, self.size = path, title, size
        self.mtime_ns, self.ctime_ns, self.sha256 = mtime_ns, ctime_ns, sha256
        self.problems, self.kind, self.tags = problems, kind, tags
        self.aliases, self.entities = aliases, entities
        _share_numbers(self)
        self.memory_id = memory.id if memory is not None else None
        # a plain note's memory is never shown (`memory`), whatever was passed
        self.memory_state = (
            MemoryState.of(memory) if memory is not None and kind != "note" else None
        )
        self._cold: Cold | None = (frontmatter, body, links, memory)
        # where the encoded fields are: one attribute, so a thread sees all of it or none
        self._loc: tuple[ColdRecords, int, int] | None = None

    @classmethod
    def encoded(
        cls, hot: tuple[Any, ...], store: ColdRecords, at: int, length: int, share: bool = True
    ) -> IndexedNote:
        """`share`: its numbers and tags as the objects other notes hold (a process that
        lives on keeps 100k notes); a one-call process, ending soon, keeps them as read."""
        note = cls.__new__(cls)
        # in HOT_FIELDS' order (spelled out: 10k notes at every start)
        (
            note.path,
            note.title,
            note.size,
            note.mtime_ns,
            note.ctime_ns,
            note.sha256,
            note.problems,
            note.kind,
            note.tags,
            note.aliases,
            note.entities,
            note.memory_id,
            note.memory_state,
        ) = hot
        if share:
            _share_numbers(note)
        note._cold = None
        note._loc = (store, at, length)
        return note

    def hot(self) -> tuple[Any, ...]:
        hot: tuple[Any, ...] = _HOT(self)
        return hot

    def cold_bytes(self) -> bytes:
        """The cold fields encoded, as the cache holds them."""
        loc = self._loc
        if loc is not None:
            return loc[0].bytes_at(loc[1], loc[2])
        return cold_fields.encode(*self._fields())

    def moved_to(self, store: ColdRecords, at: int, length: int) -> None:
        """Its encoded fields are now (also) in `store`: those of its own are let go."""
        if self._loc is not None:
            self._loc = (store, at, length)

    def held_bytes(self) -> bytes | None:
        """Its encoded fields when it holds them in bytes of its own (from a parse worker)."""
        loc = self._loc
        return loc[0].data if loc is not None and type(loc[0]) is OwnBytes else None

    @property
    def has_memory(self) -> bool:
        """`memory is not None`, told without decoding the note."""
        return self.memory_state is not None

    def _decoded(self) -> Cold:
        loc = self._loc
        assert loc is not None
        return cold_fields.decode(loc[0].bytes_at(loc[1], loc[2]))

    def _fields(self) -> Cold:
        cold = self._cold
        if cold is None:
            _, body, links, memory = self._decoded()
            if memory is not None:  # the strings the note holds already, not copies of them
                _share_strings(memory, self)
            # Kept without the frontmatter's pickle (read again when the frontmatter is
            # asked for: few ask); one assignment: a thread that reads it meanwhile decodes
            # it too, no harm.
            cold = self._cold = (_UNREAD, body, links, memory)
        return cold

    @property
    def frontmatter(self) -> dict[str, object]:
        cold = self._fields()
        if cold[0] is _UNREAD:
            fm = cold_fields.frontmatter_of(self._decoded()[0])
            cold = self._cold = (fm, *cold[1:])
        found: dict[str, object] = cold[0]
        return found

    @property
    def body(self) -> str:
        return self._fields()[1]

    def body_text(self) -> str:
        """The body, without keeping the decoded fields when they are not kept already."""
        cold = self._cold
        return cold[1] if cold is not None else self._decoded()[1]

    @property
    def links(self) -> tuple[LinkRef, ...]:
        return self._fields()[2]

    @property
    def memory(self) -> Memory | None:
        if self.kind == "note":
            return None  # only the memory folders' notes have one: no need to decode
        return self._fields()[3]

    def memory_unkept(self) -> Memory | None:
        """`memory`, without keeping the decoded fields when they are not kept already: a
        scan of every memory for a few of its numbers (100k notes: 30k memories, ~70 MB)."""
        if self.kind == "note":
            return None
        cold = self._cold
        return cold[3] if cold is not None else self._decoded()[3]

    def replace(self, **changes: Any) -> IndexedNote:
        """The same note with some fields changed (a new stamp leaves the cold fields where
        they are)."""
        loc = self._loc
        if self._cold is None and loc is not None and changes.keys() <= _STAMP:
            hot = dict(zip(HOT_FIELDS, self.hot(), strict=True))
            hot.update(changes)
            return IndexedNote.encoded(tuple(hot.values()), *loc)
        fields = {name: getattr(self, name) for name in _INIT_FIELDS}
        fields.update(changes)
        return IndexedNote(**fields)

    def document(self) -> DocumentText:
        from cortexgraph_vault.index.text.document_terms import DocumentText

        return DocumentText(self.title, self.aliases, self.tags, self.entities, self.body)

    # With __eq__ and no __hash__ the class is unhashable, as the dataclass was: its
    # frontmatter is mutable.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IndexedNote):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _INIT_FIELDS)

    def __repr__(self) -> str:
        return f"IndexedNote(path={self.path!r}, size={self.size}, sha256={self.sha256[:12]!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # from a parse worker to its parent: encoded there, so the parent holds bytes, not
        # thousands of small objects a note (never by the parent's cache file)
        return (_from_worker, (self.hot(), self.cold_bytes()))


_UNREAD = object()  # a part of the decoded fields not kept (read again when asked for)
_SAME_AS_NOTE = (
    ("path", "path"),
    ("title", "title"),
    ("id", "memory_id"),
    ("content_hash", "sha256"),
    ("entities", "entities"),
    ("tags", "tags"),
)


def _share_strings(memory: Memory, note: IndexedNote) -> None:
    """A decoded memory's fields that equal the note's own take the note's objects (100k
    notes: 30k memories, each with copies of its path, title, id, hash, tags...)."""
    state = memory.__dict__
    for field_name, hot in _SAME_AS_NOTE:
        value = getattr(note, hot)
        if state[field_name] == value:
            state[field_name] = value
    for field_name in ("status", "source"):
        if type(state[field_name]) is str:
            state[field_name] = shared(state[field_name])


def _share_numbers(note: IndexedNote) -> None:
    """The note's file times, size and tags as objects other notes hold too: the change time
    is nearly always the modification time, and 100k notes have a few hundred sizes and a
    few thousand tag lists (~15 MB of copies). Values unchanged."""
    if note.ctime_ns == note.mtime_ns:
        note.ctime_ns = note.mtime_ns
    note.size = shared_size(note.size)
    note.tags = shared_tags(note.tags)


_STAMP = frozenset({"size", "mtime_ns", "ctime_ns", "sha256", "problems"})
# what a note is made of: the parameters of its __init__, in order
_INIT_FIELDS = tuple(inspect.signature(IndexedNote.__init__).parameters)[1:]


def _from_worker(hot: tuple[Any, ...], data: bytes) -> IndexedNote:
    return IndexedNote.encoded(hot, OwnBytes(data), 0, len(data))
