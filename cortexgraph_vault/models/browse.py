"""Browsing memories (the Obsidian plugin's views): a page of memories, one in detail."""

from __future__ import annotations

from pydantic import Field

from cortexgraph_vault.models.memory import MemoryView, Model, Pagination, Relations


class MemoryList(Model):
    memories: list[MemoryView]
    pagination: Pagination


class Backlink(Model):
    path: str = Field(description="vault path of the note that links here")
    title: str
    memory_id: str | None = Field(default=None, description="set when that note is a memory")


class MemoryDetail(MemoryView):
    relations: Relations = Field(default_factory=Relations)
    backlinks: list[Backlink] = Field(default_factory=list)
    uses_to_promote: int | None = Field(
        default=None,
        description="uses, each on a day of its own (promotion needs use spread over days), "
        "after which it is promoted (0: promotable now); null when not active or out of reach",
    )
    days_left_in_promote_window: float | None = Field(
        default=None,
        description="days left in which enough uses promote it (use-count rule); null once over",
    )
