"""What an imported record becomes: a draft of a memory note, before it meets the vault.

Pure: parsers turn source files into drafts (no I/O, times passed in); the writer then names
the files, resolves relations to link titles and compares each draft with the vault.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeGuard

from cortexgraph_vault.core.control_chars import refuse_control_characters as check_controls
from cortexgraph_vault.core.english import phrases, word_set
from cortexgraph_vault.core.relation_types import RELATION_TYPES
from cortexgraph_vault.core.tags import normalize_tag
from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.core.yaml_values import as_loaded
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.models.maintenance import SourceProblem

# Optional fields an import owns: an update removes them when the source no longer has them.
MANAGED_OPTIONAL = phrases(
    "source, context, meta, promoted_at, promoted_to, "
    "review_count, last_review_at, cross_domain_count"
)
# Fields a note's frontmatter already uses: a relation named like one gets a `rel_` prefix.
RESERVED_FIELDS = word_set(
    "id created last_used use_count strength status tags tag entities "
    "archived_at aliases alias cssclasses title publish permalink superseded_by valid_until"
) | frozenset(MANAGED_OPTIONAL)
_NOT_NAME = re.compile(r"[^0-9a-z_]+")


def problem(file: str, line: int, reason: str) -> SourceProblem:
    """A line of a source file that was skipped or is worth a note, and why."""
    return SourceProblem(file=file, line=line, reason=reason)


@dataclass(frozen=True)
class RelationDraft:
    """A typed link from the draft that holds it to another memory."""

    kind: str  # the frontmatter property (a relation type)
    target_id: str
    line: int
    meta: Mapping[str, Any] | None = None  # companion entry: id, strength, created, metadata
    fallback_title: str | None = None  # link by this name when the target is nowhere


@dataclass
class NoteDraft:
    id: str
    title: str
    status: str
    fields: dict[str, object]  # frontmatter in writing order, without relations
    body: str
    line: int
    file: str
    relations: list[RelationDraft] = field(default_factory=list)
    # Fields set when the note is made but never compared or updated (times we invented).
    creation_only: frozenset[str] = frozenset()
    # memory.json: a re-import only adds (observations, tags, links); cortexgraph: the newer
    # copy replaces the older.
    additive: bool = False
    observations: tuple[str, ...] = ()
    # The source's record as given, for the secret check: cleaning (tags lower-cased and
    # joined) can hide the shape of a credential the raw value still shows.
    given: Mapping[str, Any] | None = None

    @property
    def activity(self) -> datetime | None:
        """The latest time the source records any use of the memory."""
        times = [
            parse_time(self.fields.get(k)) for k in ("last_used", "promoted_at", "last_review_at")
        ]
        found = [t for t in times if t is not None]
        return max(found) if found else None


@dataclass
class ImportPlan:
    source: str  # "cortexgraph" | "memory-json"
    path: str
    drafts: list[NoteDraft]
    problems: list[SourceProblem] = field(default_factory=list)
    warnings: list[SourceProblem] = field(default_factory=list)
    lines: int = 0
    superseded: int = 0
    tombstones: int = 0


def relation_property(relation_type: str) -> str:
    """The frontmatter property a relation type is written as: `works at` → `works_at`."""
    name = _NOT_NAME.sub("_", str(relation_type).strip().lower()).strip("_")
    if not name:
        return "related"
    if name in RELATION_TYPES:
        return name
    if name in RESERVED_FIELDS or name.endswith("_meta") or name[0].isdigit():
        return f"rel_{name}"
    return name


def clean_tag_list(tags: Any) -> list[str]:
    items = [tags] if isinstance(tags, str) else tags if isinstance(tags, list) else []
    out: list[str] = []
    for tag in items:
        norm = normalize_tag(str(tag)) if tag is not None else ""
        if norm and norm not in out:
            out.append(norm)
    return out


def clean_text_list(values: Any) -> list[str]:
    items = [values] if isinstance(values, str) else values if isinstance(values, list) else []
    out: list[str] = []
    for value in items:
        text = " ".join(str(value).split()) if value is not None else ""
        if text and text.lower() not in {o.lower() for o in out}:
            out.append(text)
    return out


def link(title: str) -> str:
    return f"[[{title}]]"


def same_value(desired: object, current: object) -> bool:
    """Does the vault already say `desired`, whatever spelling a person or YAML gave it?"""
    if isinstance(desired, datetime):
        return parse_time(current) == parse_time(desired)
    if isinstance(desired, list) and isinstance(current, str):
        return desired == [current]
    if is_number(desired) and is_number(current):
        return float(desired) == float(current)
    return as_loaded(desired) == current


def is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def relation_meta_entry(raw: object) -> dict[str, object]:
    """A companion entry as a mapping: ours are mappings; `relate` writes
    `"strength=0.5; key=value"` strings."""
    if isinstance(raw, Mapping):
        return dict(raw)
    if not isinstance(raw, str):
        return {}
    out: dict[str, object] = {}
    extra: dict[str, str] = {}
    for part in raw.split(";"):
        key, sep, value = part.strip().partition("=")
        if not sep or not key.strip():
            continue
        key, value = key.strip(), value.strip()
        if key == "strength":
            try:
                out["strength"] = float(value)
            except ValueError:
                extra[key] = value
        else:
            extra[key] = value
    if extra:
        out["metadata"] = extra
    return out


def refuse_control_characters(plan: ImportPlan) -> ImportPlan:
    """Drop (and report) every draft whose title, tags, entities, source or relation targets
    hold a control character: those reach a file name, a commit message or one line of
    frontmatter. The body, context and metadata may hold any text; a title made from the body
    is cleaned when made."""
    kept: list[NoteDraft] = []
    for draft in plan.drafts:
        fields = {k: draft.fields.get(k) for k in ("tags", "entities", "source")}
        relations = [
            {"target": r.fallback_title or "", "target_id": r.target_id, "metadata": r.meta or {}}
            for r in draft.relations
        ]
        try:
            check_controls({"title": draft.title, **fields, "relations": relations})
        except InvalidArgument as exc:
            plan.problems.append(
                problem(draft.file, draft.line, f"memory {draft.id!r}: {exc}; not imported")
            )
            continue
        kept.append(draft)
    plan.drafts = kept
    return plan
