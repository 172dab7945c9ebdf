"""The shape of a `sync` with a git remote."""

from __future__ import annotations

from pydantic import Field

from cortexgraph_vault.models.memory import Model


class SyncDecision(Model):
    """A memory the two devices disagreed about beyond its fields (README, "One memory on
    several devices")."""

    path: str
    id: str | None = None
    rule: str = Field(description="forgotten-vs-used | two-memories | conflicted | unmergeable")
    outcome: str = Field(description="what the merge did, in words")
    score: float | None = Field(default=None, description="the merged memory's score, when judged")


class SyncResult(Model):
    remote: str
    branch: str
    recorded: int = Field(description="memories committed before merging (pending reinforcements)")
    received: int = Field(description="commits from the remote brought in")
    sent: int = Field(description="commits of this device pushed")
    merged_count: int = Field(description="memory notes the merge changed here")
    merged: list[str] = Field(default_factory=list, description="their paths (first 100)")
    conflicted: list[str] = Field(
        default_factory=list, description="notes with edits to the same lines on both devices"
    )
    conflicts: int = Field(default=0, description="how many notes need a person (conflicted)")
    device: str = Field(default="", description="this device's name (CORTEXGRAPH_DEVICE_NAME)")
    sources: list[str] = Field(
        default_factory=list,
        description="where what came in was made: the devices named in its commits, else the "
        "remote's name",
    )
    decisions: list[SyncDecision] = Field(default_factory=list)
    commit: str | None = Field(default=None, description="HEAD after the sync")
    up_to_date: bool = Field(description="nothing came in and nothing went out")
    message: str


class SyncSummary(Model):
    """What the MCP tool answers: the tool list has a size budget, and a model needs no more."""

    message: str  # names how many notes need a person, when some do
    merged: int  # memory notes the merge changed here


class LastSync(Model):
    """The last sync of this vault on this device, by any door or process (the plugin's status
    bar shows it)."""

    at: str | None = Field(default=None, description="when it ended (ISO-8601); null: never")
    ok: bool = Field(default=False, description="false: it failed, `error` says why")
    result: SyncResult | None = None
    error: str | None = None
