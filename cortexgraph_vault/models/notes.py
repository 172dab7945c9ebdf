"""Shapes of one vault note read a page at a time (read_note)."""

from __future__ import annotations

from pydantic import Field

from cortexgraph_vault.models.browse import Backlink
from cortexgraph_vault.models.memory import Model


class NoteLinkView(Model):
    target: str = Field(description="the link as written")
    path: str | None = Field(description="the file it opens; null when it leads nowhere")
    kind: str = Field(description="link, embed, or the frontmatter property holding it")


class NoteRead(Model):
    path: str
    title: str
    source: str = Field(description="stm, ltm, archive (memories) or note")
    memory_id: str | None = None
    content_hash: str = Field(description="sha256 of the file as read")
    size_bytes: int
    body_chars: int = Field(description="length of the whole body")
    offset: int = Field(description="where this page starts in the body (or links, backlinks)")
    body: str | None = Field(
        description="this page of the body (Markdown after the frontmatter); null on a page of "
        "links or backlinks"
    )
    next_cursor: str | None = Field(description="pass as cursor for the next page of the body")
    frontmatter: dict[str, object] | None = Field(description="first page only")
    links: list[NoteLinkView] | None = Field(description="outgoing links, as many as fit")
    link_count: int | None = None
    links_cursor: str | None = Field(default=None, description="pass as cursor for more links")
    backlinks: list[Backlink] | None = Field(description="notes linking here, as many as fit")
    backlink_count: int | None = None
    backlinks_cursor: str | None = Field(
        default=None, description="pass as cursor for more backlinks"
    )
    problems: list[str] = Field(default_factory=list)
