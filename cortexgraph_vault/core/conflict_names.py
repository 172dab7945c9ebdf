"""Names file-sync services give the second version of a file they could not reconcile (pure).

- Syncthing: `Name.sync-conflict-20261201-101500-ABCDEF1.md`
- Dropbox: `Name (Maya's conflicted copy 2026-12-01).md` (maybe with ` (1)` inside the brackets)
- Nextcloud: `Name (conflicted copy 2026-12-01 101500).md`, and bare `Name (conflicted copy).md`
- iCloud / Google Drive: `Name 2.md` — also how we name a second memory with the same title,
  so such a file is a copy only when it holds the same memory `id` as `Name.md` (the caller
  checks); the other patterns are copies by name alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

# What each service puts between the name of the original and its `.md`.
_PATTERNS = {
    kind: re.compile(rf"^(?P<stem>.+){pattern}(?P<ext>\.md)$")
    for kind, pattern in {
        "syncthing": r"\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}",
        "dropbox": r" \([^()]*'s conflicted copy \d{4}-\d{2}-\d{2}(?: \(\d+\))?\)",
        "nextcloud": r" \(conflicted copy(?: \d{4}-\d{2}-\d{2} \d{6})?\)",
        "numbered": r" \d{1,3}",
    }.items()
}


@dataclass(frozen=True)
class ConflictCopy:
    copy: str  # vault path of the copy
    original: str  # vault path of the file it is a copy of
    kind: str  # syncthing | dropbox | nextcloud | numbered

    @property
    def needs_same_id(self) -> bool:
        return self.kind == "numbered"


def conflict_copy(path: str) -> ConflictCopy | None:
    """The original a file looks like a conflict copy of, or None."""
    p = PurePosixPath(path)
    for kind, pattern in _PATTERNS.items():
        match = pattern.match(p.name)
        if match:
            original = p.with_name(match["stem"] + match["ext"]).as_posix()
            return ConflictCopy(path, original, kind)
    return None


def looks_like_copy(path: str) -> bool:
    """A cheap first test, for scanning many paths."""
    return "conflict" in path or path[-5:-3].strip().isdigit()
