"""Shapes only the REST door has: request bodies, query strings, a few wrappers, the error body.

Everything else a route returns is a service model from `cortexgraph_vault.models`. Unknown
fields are refused (422 naming them), so a typo in a client never silently does nothing.
Limits mirror the service's (and CortexGraph's) so bad input is refused before any work.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["active", "promoted", "archived", "all"]
Tag = Annotated[str, Field(max_length=200)]
Entity = Annotated[str, Field(max_length=500)]
VaultPath = Annotated[str, Field(min_length=1, max_length=1000)]


class Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Errors and small wrappers ---------------------------------------------------------------
class ErrorBody(BaseModel):
    error: str = Field(description="machine-readable code, e.g. not_found, conflict")
    detail: str = Field(description="what went wrong, naming the file or argument, and what to do")
    expected_hash: str | None = Field(default=None, description="conflict: the hash you sent")
    actual_hash: str | None = Field(default=None, description="conflict: the file's hash now")
    current_text: str | None = Field(default=None, description="conflict: the file's text now")
    candidates: list[str] | None = Field(default=None, description="ambiguous: what matched")


class Health(BaseModel):
    ok: bool


class SettingRow(BaseModel):
    name: str
    env: str
    value: Any = Field(description="effective value (null when unset)")
    origin: str = Field(description="default, environment, command line or a config file path")
    help: str


class SettingsList(BaseModel):
    settings: list[SettingRow]


# Query strings ---------------------------------------------------------------------------
class ListQuery(Input):
    status: Status = "active"
    sort: Literal["score", "age", "last_used"] = Field(
        default="score",
        description="score: highest first; age: newest first; last_used: most recent first",
    )
    tag: Tag | None = Field(default=None, description="only memories with this tag or a child tag")
    page: int = Field(default=1, ge=1, le=100_000)
    page_size: int = Field(default=50, ge=1, le=200)


class LookupQuery(Input):
    path: VaultPath = Field(description="vault-relative path of a note, e.g. _stm/Coffee.md")


class DeleteQuery(Input):
    mode: Literal["archive", "remove"] = "archive"
    expected_hash: str | None = Field(
        default=None, max_length=128, description="refuse (409) if the note changed since read"
    )


class SearchQuery(Input):
    q: str = Field(min_length=1, max_length=1000, description="what to look for")
    limit: int = Field(default=10, ge=1, le=100)
    status: list[Literal["active", "promoted", "archived", "note", "all"]] | None = Field(
        default=None, description="repeat or comma-separate; default active, promoted and note"
    )
    tags: list[Tag] | None = Field(default=None, description="repeat or comma-separate")
    folder: VaultPath | None = Field(default=None, description="only notes under this folder")
    page: int | None = Field(default=None, ge=1, le=100_000)
    page_size: int | None = Field(default=None, ge=1, le=100)
    preview_length: int = Field(default=300, ge=0, le=5000, description="0 = full text")
    explain: bool = Field(
        default=False, description="per hit: lexical score, vector similarity, prior, rank"
    )
    cursor: str | None = Field(
        default=None, max_length=2000, description="next_cursor of an answer cut to its size"
    )


class RelatedQuery(Input):
    path: VaultPath = Field(description="vault-relative path of a note, e.g. Projects/Atlas.md")
    limit: int = Field(default=10, ge=1, le=50)


class NeighbourhoodQuery(Input):
    path: VaultPath = Field(description="vault path of a note, or a memory id / prefix / title")
    hops: int = Field(default=1, ge=1, le=5)


class NoteQuery(Input):
    ref: VaultPath = Field(description="a note's path, title, alias, [[link]] or memory id")
    cursor: str | None = Field(
        default=None, max_length=64, description="next_cursor of the previous page"
    )
    max_chars: int = Field(default=10_000, ge=200, le=100_000, description="body characters")


class HistoryQuery(Input):
    limit: int = Field(default=50, ge=1, le=1000)


class ForgottenQuery(Input):
    limit: int = Field(default=100, ge=1, le=1000)


# Bodies ----------------------------------------------------------------------------------
class CreateMemory(Input):
    content: str = Field(min_length=1, max_length=50_000)
    title: str | None = Field(default=None, min_length=1, max_length=200)
    tags: list[Tag] | None = Field(default=None, max_length=50)
    entities: list[Entity] | None = Field(default=None, max_length=100)
    source: str | None = Field(default=None, max_length=500)
    context: str | None = Field(default=None, max_length=1000)
    strength: float | None = Field(default=None, ge=0.0, le=2.0)
    force: bool = Field(default=False, description="save even if a field looks like a credential")


class UpdateMemory(Input):
    content: str | None = Field(default=None, min_length=1, max_length=50_000)
    tags: list[Tag] | None = Field(default=None, max_length=50)
    entities: list[Entity] | None = Field(default=None, max_length=100)
    strength: float | None = Field(default=None, ge=0.0, le=2.0)
    expected_hash: str | None = Field(
        default=None, max_length=128, description="content_hash you read; 409 if it changed"
    )
    force: bool = Field(default=False, description="save even if a field looks like a credential")


class Touch(Input):
    boost: bool = Field(default=False, description="also raise strength by 0.1 (max 2)")


class Observe(Input):
    memory_ids: list[Annotated[str, Field(min_length=1, max_length=1000)]] = Field(
        min_length=1, max_length=100
    )
    context_tags: list[Tag] | None = Field(default=None, max_length=50)


class PromoteOne(Input):
    dry_run: bool = False
    force: bool = Field(default=False, description="promote even if the rules do not ask for it")


class PromoteAll(Input):
    dry_run: bool = False


class Sync(Input):
    remote: str | None = Field(
        default=None,
        max_length=200,
        description="the git remote (default: the branch's, or origin)",
    )


class Gc(Input):
    dry_run: bool = True
    archive_instead: bool = False
    limit: int | None = Field(default=None, ge=1, le=10_000)
    skip_paths: list[VaultPath] = Field(
        default_factory=list, max_length=1000, description="vault paths open in editor tabs"
    )


class Restore(Input):
    commit: str | None = Field(default=None, min_length=4, max_length=64)


class Analyze(Input):
    message: str = Field(min_length=1, max_length=50_000)


class Recall(Input):
    message: str = Field(min_length=1, max_length=50_000)
    mode: Literal["silent", "subtle", "interactive"] | None = None


class ReviewQuery(Input):
    limit: int = Field(default=20, ge=1, le=100)
