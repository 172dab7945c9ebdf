"""Tools for the past of memories, from the vault's git history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from cortexgraph_vault.mcp.tool_calls import READ_ONLY, WRITES
from cortexgraph_vault.models import ForgottenList, HistoryResult, RestoreResult, VersionResult
from cortexgraph_vault.operations.params import MemoryId

if TYPE_CHECKING:
    from cortexgraph_vault.mcp.tool_calls import ToolRegistry

Commit = Annotated[
    str,
    Field(
        min_length=4,
        max_length=64,
        pattern="^[0-9a-fA-F]+$",
        description="a commit sha or its prefix",
    ),
]


def register(tool: ToolRegistry) -> None:
    service = tool.service

    @tool(READ_ONLY, title="History of a memory")
    def memory_history(
        memory_id: MemoryId,
        limit: Annotated[
            int, Field(ge=1, le=500, description="newest commits first, at most this many")
        ] = 50,
    ) -> HistoryResult:
        """Git commits that changed a memory, live or forgotten, across renames; see one with
        memory_version."""
        return service.history(memory_id, limit=limit)

    @tool(READ_ONLY, title="A memory as it was")
    def memory_version(memory_id: MemoryId, commit: Commit) -> VersionResult:
        """The full note text of a memory at one commit of its history."""
        return service.version(memory_id, commit)

    @tool(READ_ONLY, title="Forgotten memories")
    def forgotten_memories(
        limit: Annotated[
            int, Field(ge=1, le=500, description="most recently forgotten first")
        ] = 50,
    ) -> ForgottenList:
        """Memories gc or delete_memory removed (archived or deleted); restore_memory brings one back."""
        return service.forgotten(limit=limit)

    @tool(WRITES, title="Restore a memory")
    def restore_memory(
        memory_id: MemoryId,
        commit: Annotated[
            str | None,
            Field(
                min_length=4,
                max_length=64,
                pattern="^[0-9a-fA-F]+$",
                description="restore the version at this commit (default: the last one before it was forgotten)",
            ),
        ] = None,
    ) -> RestoreResult:
        """Bring a forgotten or archived memory back into _stm/, fresh again; not a use toward promotion."""
        return service.restore(memory_id, commit=commit)
