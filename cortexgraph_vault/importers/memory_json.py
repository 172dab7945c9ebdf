"""The reference MCP memory server's `memory.json`, read into note drafts.

Its file holds JSON lines of `{"type": "entity", "name", "entityType", "observations": [...]}`
and `{"type": "relation", "from", "to", "relationType"}` (an older form is one object with
`entities` and `relations` lists; both are read). Each entity becomes one memory note: the
observations are the body's list items, the entity type a tag, relations typed links.

Entities have no ids, so each gets one derived from its name: importing the same file again
finds the notes it made and only adds what is new (observations, tags, links) — a person's
edits to those notes are never undone.

Pure: bytes and the time in, drafts and problems out.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime

from cortexgraph_vault.importers.cortexgraph import read_jsonl
from cortexgraph_vault.importers.records import (
    ImportPlan,
    NoteDraft,
    RelationDraft,
    clean_tag_list,
    problem,
    relation_property,
)
from cortexgraph_vault.models.maintenance import SourceProblem

SOURCE = "mcp-memory"
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "cortexgraph-vault:mcp-memory-entity")


@dataclass
class _Entity:
    """An entity as read so far: a later line with the same name adds to it."""

    observations: list[str]
    entity_type: object  # a tag when it is text; anything else is left out
    line: int


def entity_id(name: str) -> str:
    """The same entity name always gets the same memory id."""
    return str(uuid.uuid5(_NAMESPACE, name.strip()))


def observation_items(observations: list[str]) -> str:
    """A Markdown list; an observation spanning lines continues indented under its item."""
    return "".join("- " + obs.strip().replace("\n", "\n  ") + "\n" for obs in observations)


def _objects(
    data: bytes, file: str
) -> tuple[list[tuple[int, dict[str, object]]], list[SourceProblem], int]:
    text = data.decode("utf-8", errors="replace").strip()
    if text.startswith("{") and "\n{" not in text:
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and ("entities" in whole or "relations" in whole):
            objs = [
                {"type": "entity", **e} for e in whole.get("entities") or [] if isinstance(e, dict)
            ]
            objs += [
                {"type": "relation", **r}
                for r in whole.get("relations") or []
                if isinstance(r, dict)
            ]
            return [(1, o) for o in objs], [], text.count("\n") + 1
    return read_jsonl(data, file)


def plan_import(
    data: bytes, path: str, file: str, now: datetime, *, status: str = "promoted"
) -> ImportPlan:
    """Entities as notes (in the order they first appear), relations on their source entity."""
    plan = ImportPlan(source="memory-json", path=path, drafts=[])
    entries, plan.problems, plan.lines = _objects(data, file)
    entities: dict[str, _Entity] = {}
    relations: list[tuple[int, dict[str, object]]] = []
    for number, obj in entries:
        kind = obj.get("type")
        if kind == "relation":
            relations.append((number, obj))
            continue
        if kind != "entity":
            plan.problems.append(
                problem(
                    file, number, f"unknown type {kind!r} (expected entity or relation); skipped"
                )
            )
            continue
        name = obj.get("name")
        if not isinstance(name, str) or not name.strip():
            plan.problems.append(problem(file, number, "entity without a name; skipped"))
            continue
        name = name.strip()
        observations = obj.get("observations") or []
        if not isinstance(observations, list):
            plan.warnings.append(
                problem(file, number, f"entity {name!r}: observations is not a list; ignored")
            )
            observations = []
        texts = [
            str(o) for o in observations if isinstance(o, str | int | float) and str(o).strip()
        ]
        if len(texts) < len(observations):
            plan.warnings.append(
                problem(file, number, f"entity {name!r}: empty or non-text observations left out")
            )
        if name in entities:
            plan.superseded += 1
            seen = entities[name]
            seen.observations += [t for t in texts if t not in seen.observations]
            seen.entity_type = obj.get("entityType") or seen.entity_type
            seen.line = number
        else:
            entities[name] = _Entity(list(dict.fromkeys(texts)), obj.get("entityType"), number)
    drafts = {name: _draft(name, info, file, now, status) for name, info in entities.items()}
    for number, obj in relations:
        src, dst, kind = (_text(obj.get(key)) for key in ("from", "to", "relationType"))
        if not (src and dst and kind):
            plan.problems.append(
                problem(file, number, "relation needs from, to and relationType; skipped")
            )
            continue
        source = drafts.get(src.strip())
        if source is None:
            plan.problems.append(
                problem(file, number, f"relation from {src!r}: no such entity in the file; skipped")
            )
            continue
        target = dst.strip()
        if target == src.strip():
            plan.problems.append(
                problem(file, number, f"relation {kind!r} from {src!r} to itself; skipped")
            )
            continue
        meta = {"type": kind} if relation_property(kind) != kind else None
        if target not in drafts:
            linked = f"relation to {target!r}: no such entity in the file; linked by name"
            plan.warnings.append(problem(file, number, linked))
        source.relations.append(
            RelationDraft(
                relation_property(kind), entity_id(target), number, meta, fallback_title=target
            )
        )
    plan.drafts = list(drafts.values())
    return plan


def _text(value: object) -> str:
    """`value` if it is text with a word in it, else ""."""
    return value if isinstance(value, str) and value.strip() else ""


def _draft(name: str, info: _Entity, file: str, now: datetime, status: str) -> NoteDraft:
    observations = info.observations
    kind = info.entity_type
    tags = clean_tag_list([kind]) if isinstance(kind, str) else []
    fields: dict[str, object] = {
        "id": entity_id(name),
        "created": now,
        "last_used": now,
        "use_count": 1,
        "strength": 1.0,
        "status": status,
        "tags": tags,
        "entities": [name],
        "source": SOURCE,
    }
    body = observation_items(observations) if observations else f"{name}\n"
    return NoteDraft(
        id=entity_id(name),
        title=name,
        status=status,
        fields=fields,
        body=body,
        line=info.line,
        file=file,
        additive=True,
        observations=tuple(observations),
        creation_only=frozenset({"created", "last_used", "use_count", "strength", "status"}),
        given={"name": name, "entityType": kind, "observations": observations},
    )
