"""Where memories live in a vault, and what a path's folder says about a memory."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from pathlib import Path

from cortexgraph_vault.core.control_chars import without_control_characters
from cortexgraph_vault.core.resolve import name_key
from cortexgraph_vault.core.titles import title_from_text

# Characters Obsidian refuses in file names or that break links.
_BAD_NAME = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f]')
MAX_TITLE_CHARS = 80


@dataclass(frozen=True)
class VaultLayout:
    root: Path
    stm: str = "_stm"
    ltm: str = "memories"
    archive: str = "_archive"

    def folder_of(self, rel: str) -> str | None:
        """ "stm" | "ltm" | "archive" | None for a vault-relative path."""
        first = rel.split("/", 1)[0] if "/" in rel else ""
        for kind, folder in (("stm", self.stm), ("ltm", self.ltm), ("archive", self.archive)):
            if rel.startswith(folder + "/") or first == folder:
                return kind
        return None

    def is_memory_path(self, rel: str) -> bool:
        return rel.endswith(".md") and self.folder_of(rel) is not None

    def status_for_folder(self, rel: str) -> str:
        return {"stm": "active", "ltm": "promoted", "archive": "archived"}.get(
            self.folder_of(rel) or "", "active"
        )

    def folder_for_status(self, status: str) -> str:
        return {"active": self.stm, "promoted": self.ltm, "archived": self.archive}[status]


def title_from_content(content: str) -> str:
    """A file title from the content: its first sentence, or first clause (core/titles.py),
    without control characters (they would reach a commit message)."""
    return title_from_text(without_control_characters(content))


# Names Windows keeps for devices, with or without an extension ("con.md" cannot be made).
_WINDOWS_DEVICE = re.compile(r"(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?", re.I)


def safe_title(title: str) -> str:
    """A title usable as a file name on every OS and in a wikilink.

    Characters no OS or link allows become spaces; words of dots alone ("..", read as path
    steps) are dropped; no name starts or ends with a space or a dot (hidden on Unix, refused
    on Windows); Windows device names get a word added. `../../tmp/escaped` → `tmp escaped`.
    """
    text = unicodedata.normalize("NFC", title)
    text = _BAD_NAME.sub(" ", text)
    text = " ".join(word for word in text.split() if word.strip("."))
    text = text.strip(" .")
    if len(text) > MAX_TITLE_CHARS:
        text = text[:MAX_TITLE_CHARS].rsplit(" ", 1)[0] or text[:MAX_TITLE_CHARS]
        text = text.strip(" .")
    if _WINDOWS_DEVICE.fullmatch(text):
        text += " memory"
    return text or "memory"


def needs_alias(title: str) -> bool:
    """Whether a title reads differently as a file name ("9:30" → "9 30"), so the note keeps it
    as written in `aliases`, where Obsidian's links, search and our index find it."""
    return safe_title(title) != " ".join(title.split())


def title_as_written(stem: str, aliases: Sequence[str]) -> str:
    """A note's title: the alias its file name was made from ("The standup is at 9:30" for
    `The standup is at 9 30 2.md`), else the file name. A person's other aliases, or a file
    they renamed, leave the file name as the title."""
    for alias in aliases:
        base = safe_title(alias)
        if base != alias and (stem == base or re.fullmatch(re.escape(base) + r" \d+", stem)):
            return alias
    return stem


# Whether a file name (exactly as it would be written) is already used.
NameInUse = Callable[[str], bool]


def among(keys: Container[str]) -> NameInUse:
    """A `NameInUse` over file names kept as `name_key`s (names compare as links do)."""
    return lambda name: name_key(name) in keys


def unique_name(title: str, in_use: NameInUse) -> str:
    """`title.md`, or `title 2.md`, ... — the first name `in_use` says is free."""
    base = safe_title(title)
    candidate = f"{base}.md"
    n = 2
    while in_use(candidate):
        candidate = f"{base} {n}.md"
        n += 1
    return candidate
