"""Following one memory through history by the `id` in its frontmatter. Pure: commits and blob
texts in, steps out.

A memory is its id, not its path: it is born in `_stm/`, promoted to `memories/`, archived,
renamed by a person, deleted by gc; and another memory may later take a path it left.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cortexgraph_vault.history.raw_log import LoggedCommit

_ID_LINE = re.compile(r"^id[ \t]*:(.*)$")
_FENCE_END = ("---", "...")
# Frontmatter sits at the top; a file whose first lines hold no closing fence has none we use.
_MAX_FRONTMATTER_LINES = 400


def id_value(raw: str) -> str | None:
    """The value of a YAML scalar as written after `id:`: quoted, bare, or with a comment."""
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].strip()
    else:
        value = re.split(r"\s#", value, maxsplit=1)[0].strip()
    return value or None


def frontmatter_id(text: str) -> str | None:
    """The `id` in a note's frontmatter, or None when there is no frontmatter or no id."""
    lines = text.lstrip("\ufeff").split("\n", _MAX_FRONTMATTER_LINES)
    if not lines or lines[0].rstrip() != "---":
        return None
    for line in lines[1:_MAX_FRONTMATTER_LINES]:
        line = line.rstrip("\r")
        if line.rstrip() in _FENCE_END:
            return None
        found = _ID_LINE.match(line)
        if found:
            return id_value(found.group(1))
    return None


@dataclass(frozen=True)
class MemoryStep:
    """One commit in a memory's life, with where it lived (path -> blob) before and after."""

    commit: LoggedCommit
    change: str  # added | modified | deleted | renamed
    before: Mapping[str, str]
    after: Mapping[str, str]

    @property
    def paths(self) -> tuple[str, ...]:
        if self.change == "renamed":
            return (*sorted(self.before), *sorted(p for p in self.after if p not in self.before))
        return tuple(sorted(self.after or self.before))

    @property
    def current(self) -> tuple[str, str] | None:
        """(path, blob) of the memory after this commit, None if the commit removed it."""
        if not self.after:
            return None
        path = sorted(self.after)[0]
        return path, self.after[path]


def trace_memory(
    commits: Sequence[LoggedCommit],
    texts: Mapping[str, str],
    memory_id: str,
    path_hint: str | None = None,
) -> list[MemoryStep]:
    """The commits (newest first, as given) in which the memory `memory_id` appeared, changed,
    moved or disappeared.

    A file counts as the memory when its frontmatter holds the id; at `path_hint` a file with no
    id at all counts too, because a note made by hand gets its id only on the first backend write.
    Only paths a commit touched are looked at, which is all that can change in it.
    """

    def is_memory(path: str, blob: str | None) -> bool:
        if blob is None or blob not in texts:
            return False
        found = frontmatter_id(texts[blob])
        return found == memory_id or (found is None and path == path_hint)

    steps: list[MemoryStep] = []
    for commit in commits:
        before = {c.path: c.old_blob for c in commit.changes if is_memory(c.path, c.old_blob)}
        after = {c.path: c.new_blob for c in commit.changes if is_memory(c.path, c.new_blob)}
        if not before and not after:
            continue
        if not before:
            change = "added"
        elif not after:
            change = "deleted"
        elif set(before) != set(after):
            change = "renamed"
        else:
            change = "modified"
        steps.append(MemoryStep(commit, change, _known(before), _known(after)))
    return steps


def _known(blobs: Mapping[str, str | None]) -> dict[str, str]:
    return {path: blob for path, blob in blobs.items() if blob is not None}
