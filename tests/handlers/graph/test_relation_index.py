"""The relation lookup gives what testing every memory's relations would give, and follows
edits of relations, titles and ids (but is not rebuilt by a touch)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

from cortexgraph_vault.core.link_values import points_to
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.handlers.graph.relation_index import relation_index_of
from cortexgraph_vault.index.notes.records import IndexedNote
from tests.builders import a_memory, service_for

T = datetime(2026, 1, 1, tzinfo=UTC)


def memory(i: int, relations: dict[str, tuple[str, ...]], *, title: str | None = None) -> Memory:
    return a_memory(title or f"M{i}", path=f"_stm/M{i}.md", id=f"id-{i}", created=T,
                    relations=relations)  # fmt: skip


def note_of(m: Memory) -> IndexedNote:
    """The memory's note as the catalogue holds it (the lookup reads its hot fields)."""
    return IndexedNote(path=m.path, title=m.title, size=0, mtime_ns=0, ctime_ns=0, sha256="",
                       frontmatter={}, body=m.body, memory=m, kind="stm")  # fmt: skip


def test_the_lookup_equals_testing_every_memory() -> None:
    rng = random.Random(5)
    names = [f"M{i}" for i in range(40)] + ["_stm/M3", "ID-7", "[[M5#Heading|shown]]", "nobody"]
    memories = [
        memory(
            i,
            {kind: tuple(rng.sample(names, rng.randint(0, 3))) for kind in ("related", "supports")},
            title="M1" if i == 39 else None,  # two memories share a title: the first wins
        )
        for i in range(40)
    ]
    # a plain note of the same title comes first: only memories are looked up
    plain = IndexedNote(path="Notes/M7.md", title="M7", size=0, mtime_ns=0, ctime_ns=0,
                        sha256="", frontmatter={}, body="", kind="note")  # fmt: skip
    index = relation_index_of([plain, *map(note_of, memories)])
    for m in memories:
        for values in m.relations.values():
            for value in values:
                expected = next((o for o in memories if points_to(value, o)), None)
                assert index.target_of(value) is expected
        brute = [
            (o.path, kind, value)
            for o in memories
            if o.path != m.path
            for kind, values in o.relations.items()
            for value in values
            if points_to(value, m)
        ]
        assert [(r.from_memory.path, r.kind, r.value) for r in index.pointing_at(m)] == brute


def test_opening_follows_relation_edits_but_a_touch_keeps_the_lookup(git_vault: Path) -> None:
    s = service_for(git_vault)
    s.relate("Uses Neovim", "Curious about Rust", "supports")

    def incoming() -> list[str]:
        target = s.open(["Curious about Rust"]).memories[0]
        return [r.relation_type for r in target.relations.incoming]  # type: ignore[union-attr]

    assert incoming() == ["supports"]
    generation = s.engine.catalog.relation_generation
    s.touch("Uses Neovim")
    assert incoming() == ["supports"]
    assert s.engine.catalog.relation_generation == generation
    note = git_vault / "_stm/Uses Neovim.md"
    note.write_text(note.read_text().replace("supports:", "contradicts:"))
    assert incoming() == ["contradicts"]
    s.relate("Uses Neovim", "Curious about Rust", "related")
    assert sorted(incoming()) == ["contradicts", "related"]
    (git_vault / "_stm/Uses Neovim.md").unlink()
    assert incoming() == []
