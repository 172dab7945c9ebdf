"""Operations on memories one at a time: save, search, open, reinforce, change, delete, relate,
supersede."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.operations.operation import ONE_MEMORY, Effect, Rest, declared_in, operation

if TYPE_CHECKING:  # the models too: an operation imports its own when first read
    from cortexgraph_vault.engine import VaultEngine
    from cortexgraph_vault.models import (
        DeleteResult,
        ObserveResult,
        OpenResult,
        RelationResult,
        SaveResult,
        SearchResult,
        SupersedeResult,
        TouchResult,
        UpdateResult,
    )
    from cortexgraph_vault.requests.memories import (
        CreateRelationRequest,
        DeleteMemoryRequest,
        ObserveMemoryUsageRequest,
        OpenMemoriesRequest,
        SaveMemoryRequest,
        SearchMemoryRequest,
        SupersedeRequest,
        TouchMemoryRequest,
        UpdateMemoryRequest,
    )


@operation(
    "Save a memory",
    Effect.WRITE,
    rest=Rest(
        "POST",
        "/api/v1/memories",
        "Save a new memory",
        name="create_memory",
        tag="memories",
        status=201,
        errors=(400, 404, 409, 422, 503),
        description="Written to the short-term folder and committed; a credential in any "
        "field (a password,\nPIN, card number, API key) is refused (422) unless `force` is "
        "set.",
    ),
)
def save_memory(engine: VaultEngine, request: SaveMemoryRequest) -> SaveResult:
    """Save a new memory: a preference, decision or fact about the user,
    their people or projects. One idea, in their words. Search first: if it is already
    remembered, touch_memory or update_memory instead of a duplicate; if it corrects one,
    pass its id in supersedes. It fades unless used."""
    from cortexgraph_vault.handlers.writes import writes

    return writes.save(engine, request)


@operation("Search memories", Effect.READ)
def search_memory(engine: VaultEngine, request: SearchMemoryRequest) -> SearchResult:
    """Search memories by words, tags and recency, best first (however old; no match, no
    results). Before answering about the user and before save_memory. Full text: open_memories;
    after a result shaped your answer: observe_memory_usage."""
    from cortexgraph_vault.handlers.browse import reads

    return reads.search_memory(engine, request)


@operation("Open memories", Effect.READ)
def open_memories(engine: VaultEngine, request: OpenMemoriesRequest) -> OpenResult:
    """Read memories in full: content, tags, scores, content_hash, relations; unknown ids in
    not_found. Not a use: observe_memory_usage once one shaped your answer."""
    from cortexgraph_vault.handlers.browse import reads

    return reads.open_memories(engine, request)


@operation(
    "Reinforce a memory",
    Effect.WRITE,
    counts_uses=True,
    rest=Rest(
        "POST",
        ONE_MEMORY + "/touch",
        "Reinforce a memory (a use)",
        tag="memories",
        rename={"boost_strength": "boost"},
        body="Touch",
    ),
)
def touch_memory(engine: VaultEngine, request: TouchMemoryRequest) -> TouchResult:
    """The user repeated or confirmed a memory: count one use, so it fades more slowly."""
    from cortexgraph_vault.handlers.writes import writes

    return writes.touch(engine, request)


@operation(
    "Record memories used in an answer",
    Effect.WRITE,
    counts_uses=True,
    rest=Rest(
        "POST",
        "/api/v1/observe",
        "Record that memories were used",
        name="observe",
        tag="lifecycle",
        errors=(400, 409, 422, 503),
    ),
)
def observe_memory_usage(engine: VaultEngine, request: ObserveMemoryUsageRequest) -> ObserveResult:
    """Call after answering from memories, with the ids you used: each counts as a use and
    stays alive (used outside its topic, it also gains strength). Unknown ids: not_found."""
    from cortexgraph_vault.handlers.writes import writes

    return writes.observe(engine, request)


@operation(
    "Change a memory",
    Effect.DESTRUCTIVE,
    rest=Rest(
        "PATCH",
        ONE_MEMORY,
        tag="memories",
        description="Give `expected_hash` (the `content_hash` you read): if the note changed "
        "since, nothing\nis written and 409 returns both hashes and the current text. A "
        "credential in any field is\nrefused (422) unless `force` is set.",
    ),
)
def update_memory(engine: VaultEngine, request: UpdateMemoryRequest) -> UpdateResult:
    """Correct a memory: content, tags, entities or strength (only those given). Pass
    expected_hash (content_hash from open_memories); on a conflict, re-read. Old text stays in git."""
    from cortexgraph_vault.handlers.writes import writes

    return writes.update(engine, request)


@operation(
    "Delete a memory",
    Effect.DESTRUCTIVE,
    rest=Rest(
        "DELETE",
        ONE_MEMORY,
        "Archive or remove a memory",
        tag="memories",
        description="`archive` moves it to the archive folder; `remove` deletes it (git "
        "keeps it, restore\nbrings it back).",
    ),
)
def delete_memory(engine: VaultEngine, request: DeleteMemoryRequest) -> DeleteResult:
    """Only when the user asks: archive a memory (default) or remove it; restore_memory undoes it."""
    from cortexgraph_vault.handlers.writes import writes

    return writes.delete(engine, request)


@operation("Relate two memories", Effect.WRITE_IDEMPOTENT)
def create_relation(engine: VaultEngine, request: CreateRelationRequest) -> RelationResult:
    """Link two memories with a typed relation (an Obsidian link property); an existing one
    is left as it is (created: false)."""
    from cortexgraph_vault.handlers.writes import writes

    return writes.relate(engine, request)


# not an MCP tool: create_relation with "supersedes" serves the model
@operation("Record that a memory replaces others", Effect.WRITE_IDEMPOTENT, mcp_tool=False)
def supersede_memories(engine: VaultEngine, request: SupersedeRequest) -> SupersedeResult:
    """A memory replaces others that are no longer true: both notes say so (supersedes,
    superseded_by, valid_until) and the new one takes over their standing; one commit."""
    from cortexgraph_vault.handlers.writes import supersession

    return supersession.supersede(engine, request)


OPERATIONS = declared_in(vars())  # in the order the MCP server lists them
