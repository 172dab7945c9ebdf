"""Operations on memories one at a time: save, search, open, reinforce, change, delete, relate,
supersede."""

from __future__ import annotations

from inspect import cleandoc
from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import deferred_functions
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
from cortexgraph_vault.operations.operation import (
    ONE_MEMORY,
    ONE_MEMORY_ERRORS,
    Effect,
    Operation,
    Rest,
    declared_in,
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

if TYPE_CHECKING:
    from cortexgraph_vault.handlers.browse import reads
    from cortexgraph_vault.handlers.writes import supersession, writes
else:  # a call imports the logic it runs, not the others' (deferred_import.py)
    reads = deferred_functions("cortexgraph_vault.handlers.browse.reads")
    supersession = deferred_functions("cortexgraph_vault.handlers.writes.supersession")
    writes = deferred_functions("cortexgraph_vault.handlers.writes.writes")

SAVE_MEMORY = Operation(
    name="save_memory",
    title="Save a memory",
    description=cleandoc("""
        Save a new memory: a preference, decision or fact about the user,
        their people or projects. One idea, in their words. Search first: if it is already
        remembered, touch_memory or update_memory instead of a duplicate; if it corrects one,
        pass its id in supersedes. It fades unless used.
    """),
    request=SaveMemoryRequest,
    result=SaveResult,
    effect=Effect.WRITE,
    invoke=writes.save,
    rest=(
        Rest(
            "POST",
            "/api/v1/memories",
            "Save a new memory",
            name="create_memory",
            tag="memories",
            status=201,
            errors=ONE_MEMORY_ERRORS,
            body="CreateMemory",
            description="Written to the short-term folder and committed; a credential in any "
            "field (a password,\nPIN, card number, API key) is refused (422) unless `force` is "
            "set.",
        ),
    ),
)

SEARCH_MEMORY = Operation(
    name="search_memory",
    title="Search memories",
    description=cleandoc("""
        Search memories by words, tags and recency, best first (however old; no match, no
        results). Before answering about the user and before save_memory. Full text: open_memories;
        after a result shaped your answer: observe_memory_usage.
    """),
    request=SearchMemoryRequest,
    result=SearchResult,
    effect=Effect.READ,
    invoke=reads.search_memory,
)

OPEN_MEMORIES = Operation(
    name="open_memories",
    title="Open memories",
    description=cleandoc("""
        Read memories in full: content, tags, scores, content_hash, relations; unknown ids in
        not_found. Not a use: observe_memory_usage once one shaped your answer.
    """),
    request=OpenMemoriesRequest,
    result=OpenResult,
    effect=Effect.READ,
    invoke=reads.open_memories,
)

TOUCH_MEMORY = Operation(
    name="touch_memory",
    title="Reinforce a memory",
    description="The user repeated or confirmed a memory: count one use, so it fades more slowly.",
    request=TouchMemoryRequest,
    result=TouchResult,
    effect=Effect.WRITE,
    invoke=writes.touch,
    counts_uses=True,
    rest=(
        Rest(
            "POST",
            ONE_MEMORY + "/touch",
            "Reinforce a memory (a use)",
            tag="memories",
            errors=ONE_MEMORY_ERRORS,
            rename={"boost_strength": "boost"},
            body="Touch",
        ),
    ),
)

OBSERVE_MEMORY_USAGE = Operation(
    name="observe_memory_usage",
    title="Record memories used in an answer",
    description=cleandoc("""
        Call after answering from memories, with the ids you used: each counts as a use and
        stays alive (used outside its topic, it also gains strength). Unknown ids: not_found.
    """),
    request=ObserveMemoryUsageRequest,
    result=ObserveResult,
    effect=Effect.WRITE,
    invoke=writes.observe,
    counts_uses=True,
    rest=(
        Rest(
            "POST",
            "/api/v1/observe",
            "Record that memories were used",
            name="observe",
            tag="lifecycle",
            errors=(400, 409, 422, 503),
            body="Observe",
        ),
    ),
)

UPDATE_MEMORY = Operation(
    name="update_memory",
    title="Change a memory",
    description=cleandoc("""
        Correct a memory: content, tags, entities or strength (only those given). Pass
        expected_hash (content_hash from open_memories); on a conflict, re-read. Old text stays in git.
    """),
    request=UpdateMemoryRequest,
    result=UpdateResult,
    effect=Effect.DESTRUCTIVE,
    invoke=writes.update,
    rest=(
        Rest(
            "PATCH",
            ONE_MEMORY,
            tag="memories",
            errors=ONE_MEMORY_ERRORS,
            body="UpdateMemory",
            description="Give `expected_hash` (the `content_hash` you read): if the note changed "
            "since, nothing\nis written and 409 returns both hashes and the current text. A "
            "credential in any field is\nrefused (422) unless `force` is set.",
        ),
    ),
)

DELETE_MEMORY = Operation(
    name="delete_memory",
    title="Delete a memory",
    description="Only when the user asks: archive a memory (default) or remove it; restore_memory undoes it.",
    request=DeleteMemoryRequest,
    result=DeleteResult,
    effect=Effect.DESTRUCTIVE,
    invoke=writes.delete,
    rest=(
        Rest(
            "DELETE",
            ONE_MEMORY,
            "Archive or remove a memory",
            tag="memories",
            errors=ONE_MEMORY_ERRORS,
            description="`archive` moves it to the archive folder; `remove` deletes it (git "
            "keeps it, restore\nbrings it back).",
        ),
    ),
)

CREATE_RELATION = Operation(
    name="create_relation",
    title="Relate two memories",
    description=cleandoc("""
        Link two memories with a typed relation (an Obsidian link property); an existing one
        is left as it is (created: false).
    """),
    request=CreateRelationRequest,
    result=RelationResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=writes.relate,
)

SUPERSEDE_MEMORIES = Operation(
    name="supersede_memories",
    title="Record that a memory replaces others",
    description=cleandoc("""
        A memory replaces others that are no longer true: both notes say so (supersedes,
        superseded_by, valid_until) and the new one takes over their standing; one commit.
    """),
    request=SupersedeRequest,
    result=SupersedeResult,
    effect=Effect.WRITE_IDEMPOTENT,
    invoke=supersession.supersede,
    mcp_tool=False,  # create_relation with "supersedes" serves the model
)

OPERATIONS = declared_in(vars())  # in the order the MCP server lists them
