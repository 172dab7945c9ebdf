"""Link-valued frontmatter fields (`related: "[[Coffee]]"`): the note a value names, the value
that names a memory, and whether a value points at a given memory. Pure: strings in, strings out."""

from __future__ import annotations

import re

from cortexgraph_vault.core.memory import Memory

_LINK = re.compile(r"^\s*!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]\s*$")


def listed(value: object) -> list[object]:
    """A property's values: a list's items, none for an empty value, else the one value (a
    hand-written `related: 5` is one value, not a crash)."""
    if isinstance(value, list | tuple):
        return list(value)
    return [value] if value else []


def link_target(value: str) -> str:
    """`[[Folder/Name#h|alias]]` → `Folder/Name`; plain text is returned stripped."""
    match = _LINK.match(value)
    return (match.group(1) if match else value).strip()


def link_for(memory: Memory) -> str:
    """A link Obsidian resolves: by the file name, the title shown when it differs
    (`[[The standup is at 9 30|The standup is at 9:30]]`: a link never resolves by alias)."""
    stem = memory.path.rsplit("/", 1)[-1].removesuffix(".md")
    return f"[[{stem}]]" if stem == memory.title else f"[[{stem}|{memory.title}]]"


def points_to(value: str, memory: Memory) -> bool:
    target = link_target(value).lower().removesuffix(".md")
    bare = memory.path.lower().removesuffix(".md")
    return target in (memory.title.lower(), bare, bare.rsplit("/", 1)[-1]) or (
        memory.id is not None and target == memory.id.lower()
    )
