"""Parameter types shared by the operations: limits and descriptions every door shows."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

# The service checks these limits itself (a CLI or a test calling it directly gets the same
# answer); the doors refuse beyond them before any work.
from cortexgraph_vault.models.limits import (
    MAX_CONTENT,
    MAX_ENTITIES,
    MAX_MEMORY_IDS,
    MAX_MESSAGE,
    MAX_QUERY_CHARS,
    MAX_TAGS,
)

Text = Annotated[str, Field(max_length=200)]

MemoryId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        description="id, id prefix (4+ chars), path or title",
    ),
]
MemoryIds = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=500)]],
    Field(
        min_length=1,
        max_length=MAX_MEMORY_IDS,
        description="memory ids (or unique prefixes, paths, titles)",
    ),
]
# how many is checked where they are resolved (handlers/writes/supersession.py)
Supersedes = Annotated[list[str] | None, Field(description="ids it replaces")]
Tags = Annotated[
    list[Text] | None,
    Field(max_length=MAX_TAGS, description="tags (made lower case)"),
]
TagFilter = Annotated[
    list[Text] | None,
    Field(max_length=MAX_TAGS, description="only with any of these tags"),
]
Entities = Annotated[
    list[Text] | None,
    Field(max_length=MAX_ENTITIES, description="people, projects, tools or places it is about"),
]
StatusName = Literal["active", "promoted", "archived", "all"]
Status = Annotated[
    StatusName | list[StatusName] | None,
    Field(description="active, promoted, archived or all (default: active and promoted)"),
]
TopK = Annotated[int, Field(ge=1, le=100, description="how many results at most")]
WindowDays = Annotated[
    float | None, Field(ge=1, le=3650, description="only those used within this many days")
]


def days_before(now: datetime, days: float | None) -> datetime | None:
    """The moment `days` before `now`; None (no bound) when no number is given."""
    return None if days is None else now - timedelta(days=days)


MinScore = Annotated[
    float | None, Field(ge=0, le=1, description="only memories whose decay score is at least this")
]
Page = Annotated[int | None, Field(ge=1, le=100_000, description="page number, from 1")]
PageSize = Annotated[
    int | None, Field(ge=1, le=100, description="results per page (default: the limit)")
]
PreviewLength = Annotated[
    int, Field(ge=0, le=5000, description="characters of content per result (0: all)")
]
Message = Annotated[
    str, Field(min_length=1, max_length=MAX_MESSAGE, description="the user's message")
]
ExpectedHash = Annotated[
    str | None,
    Field(
        max_length=72,
        pattern="^(partial:)?[0-9a-f]{64}$",
        description="the content_hash you last read (open_memories); refused if the file changed "
        "since",
    ),
]
ReviewCandidates = Annotated[
    bool,
    Field(description="blend in fading memories to review"),
]
Explain = Annotated[
    bool,
    Field(description="per hit: why it ranks there (words, vector, prior)"),
]
Cursor = Annotated[str | None, Field(max_length=2000, description="next_cursor of a cut answer")]
Content = Annotated[
    str,
    Field(
        min_length=1, max_length=MAX_CONTENT, description="the memory, in plain words or Markdown"
    ),
]
Strength = Annotated[
    float | None,
    Field(ge=0, le=2, description="importance: 1 normal, up to 2 for what must last"),
]
Force = Annotated[
    bool,
    Field(
        description="save a credential (password, PIN, key) anyway, kept in git; only if the "
        "user asks"
    ),
]
MetaValue = str | int | float | bool
Query = Annotated[
    str, Field(min_length=1, max_length=MAX_QUERY_CHARS, description="words to look for")
]
# A file or folder of this machine (imports, exports, plans): a `~` is the user's home.
FilePath = Path
