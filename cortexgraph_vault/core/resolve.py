"""Which file a link points to, the way Obsidian decides.

A target with an extension is tried as written first (an attachment such as `diagram.png`, or a
note whose name has a dot), then with `.md`; a target without one means `<target>.md`. Then:

1. an exact path, ignoring case: relative to the linking note's folder first (so a note beside
   it wins, as in rule 2), then from the vault root; `./` and `../` are relative only, a leading
   `/` is from the root only;
2. a path ending in the target (`[[Note]]` matches any `…/Note.md`, `[[folder/Note]]` any
   `…/folder/Note.md`); of several, the one in the linking note's folder, then the shallowest,
   then the shortest, then alphabetical;
3. for our own tools only (`read_note("Start here")`, `aliases=True`): a note with the target
   among its aliases, ordered the same way. A link in a note never resolves by alias: Obsidian
   shows `[[Start here]]` unresolved even when a note has that alias (picking the alias in its
   link suggestions writes `[[Home|Start here]]`), and the graph must match what it shows.

Names are compared by `name_key`: case-folded and in Unicode NFC, because macOS file names
arrive decomposed (NFD) while typed links and most aliases are composed (NFC).
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["LinkResolver", "name_key"]


def name_key(text: str) -> str:
    """How two link names (file names, paths, aliases, targets) compare: `Café` typed in NFC,
    `Cafe` + U+0301 (NFD, as macOS names files) and `CAFÉ` are one name.

    Unicode's canonical caseless matching (fold the decomposed form), composed again to NFC.
    Obsidian lower-cases; folding also joins a few pairs lower-casing keeps apart (`ß` and
    `ss`), which only matters in a vault holding both spellings as separate notes.
    """
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())


class LinkResolver:
    """An index of vault paths for resolving link targets; add and remove are O(1) in the
    number of files, since the live index calls them on every file event."""

    def __init__(
        self, paths: Iterable[str], aliases: Mapping[str, Sequence[str]] | None = None
    ) -> None:
        self._aliases_of: dict[str, tuple[str, ...]] = {}  # every known path -> its aliases
        self._by_path: dict[str, set[str]] = {}  # key(path) -> paths (two can differ in case)
        self._by_name: dict[str, set[str]] = {}  # key(file name) -> paths
        self._by_alias: dict[str, set[str]] = {}  # key(alias) -> note paths
        aliases = aliases or {}
        for path in paths:
            self.add(path, aliases.get(path, ()))

    def __contains__(self, path: object) -> bool:
        return path in self._aliases_of

    def __len__(self) -> int:
        return len(self._aliases_of)

    def add(self, path: str, aliases: Sequence[str] = ()) -> None:
        """Add a file, or replace the aliases of one already known."""
        if path in self._aliases_of:
            self.remove(path)
        kept = tuple(a.strip() for a in aliases if isinstance(a, str) and a.strip())
        self._aliases_of[path] = kept
        self._by_path.setdefault(name_key(path), set()).add(path)
        self._by_name.setdefault(name_key(posixpath.basename(path)), set()).add(path)
        for alias in kept:
            self._by_alias.setdefault(name_key(alias), set()).add(path)

    def remove(self, path: str) -> None:
        kept = self._aliases_of.pop(path, None)
        if kept is None:
            return
        _discard(self._by_path, name_key(path), path)
        _discard(self._by_name, name_key(posixpath.basename(path)), path)
        for alias in kept:
            _discard(self._by_alias, name_key(alias), path)

    def resolve(self, target: str, source_path: str, *, aliases: bool = False) -> str | None:
        """The vault-relative path `target` links to from `source_path`, or None; with
        `aliases`, a note with that alias when no file has that name.

        An empty target (`[[#Heading]]`) is a link to the source note itself.
        """
        target = target.strip()
        if not target:
            return source_path if source_path in self._aliases_of else None
        folder = posixpath.dirname(source_path)
        candidates = _candidates(target)
        for candidate in candidates:
            for path in _exact_paths(candidate, folder):
                found = self._by_path.get(name_key(path))
                if found:
                    return _preferred(found, folder)
        for candidate in candidates:
            suffix = _without_relative_prefix(candidate)
            found = self._by_name.get(name_key(posixpath.basename(suffix)))
            if found and suffix:
                wanted = name_key(suffix)
                matches = [
                    p for p in found if name_key(p) == wanted or name_key(p).endswith("/" + wanted)
                ]
                if matches:
                    return _preferred(matches, folder)
        found = self._by_alias.get(name_key(target)) if aliases else None
        return _preferred(found, folder) if found else None


def _candidates(target: str) -> list[str]:
    if target.lower().endswith(".md"):
        return [target]
    if "." in target.rsplit("/", 1)[-1]:
        return [target, target + ".md"]
    return [target + ".md"]


def _exact_paths(candidate: str, folder: str) -> list[str]:
    if candidate.startswith("/"):
        return [candidate.lstrip("/")]
    relative = posixpath.normpath(posixpath.join(folder, candidate))
    inside = [] if relative.startswith("../") or relative == ".." else [relative]
    if candidate.startswith(("./", "../")):
        return inside
    return [*inside, candidate]


def _without_relative_prefix(candidate: str) -> str:
    parts = [p for p in candidate.split("/") if p not in ("", ".", "..")]
    return "/".join(parts)


def _preferred(paths: Iterable[str], folder: str) -> str:
    key_folder = name_key(folder)
    return min(
        paths,
        key=lambda p: (
            name_key(posixpath.dirname(p)) != key_folder,
            p.count("/"),
            len(p),
            name_key(p),
            p,
        ),
    )


def _discard(index: dict[str, set[str]], key: str, path: str) -> None:
    paths = index.get(key)
    if paths is not None:
        paths.discard(path)
        if not paths:
            del index[key]
