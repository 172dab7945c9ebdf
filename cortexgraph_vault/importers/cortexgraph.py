"""CortexGraph's (and mnemex's) JSONL storage, read into note drafts and written back.

The format: `memories.jsonl` and `relations.jsonl`, one JSON object a line, append-only; the
last line of an id wins and `{"id": ..., "_deleted": true}` removes it. Times are integer Unix
seconds. Its use_count counts uses after the save (0 at save); ours counts the save too, so an
imported memory gets theirs + 1 and its score comes out the same.

Pure: bytes in, drafts and problems out (with line numbers); a record in, a JSON object out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any, Literal, TypedDict, cast, overload

from cortexgraph_vault.core.memory import STATUSES, Memory
from cortexgraph_vault.core.times import format_time, parse_time
from cortexgraph_vault.importers.records import (
    ImportPlan,
    NoteDraft,
    RelationDraft,
    clean_tag_list,
    clean_text_list,
    is_number,
    problem,
    relation_property,
)
from cortexgraph_vault.models.maintenance import SourceProblem
from cortexgraph_vault.vault.layout import needs_alias, title_from_content

MEMORIES_FILE = "memories.jsonl"
RELATIONS_FILE = "relations.jsonl"
MAX_STRENGTH = 2.0

# a line's number and its object as read, each field checked where it is taken
Entry = tuple[int, dict[str, object]]


class CortexGraphMeta(TypedDict):
    tags: list[str]
    source: str | None
    context: str | None
    extra: object  # the note's `meta`, made JSON


class CortexGraphMemory(TypedDict):
    """One line of memories.jsonl, in the order CortexGraph writes its fields."""

    id: str
    content: str
    meta: CortexGraphMeta
    created_at: int | None
    last_used: int | None
    use_count: int
    strength: float
    status: str
    promoted_at: int | None
    promoted_to: str | None
    embed: None
    entities: list[str]
    review_priority: float
    last_review_at: int | None
    review_count: int
    cross_domain_count: int


class CortexGraphRelation(TypedDict):
    """One line of relations.jsonl."""

    id: str
    from_memory_id: str
    to_memory_id: str
    relation_type: str
    strength: float
    created_at: int | None
    metadata: object  # free JSON


def read_jsonl(data: bytes, file: str) -> tuple[list[Entry], list[SourceProblem], int]:
    """Every object with its 1-based line number, the lines that are not objects, the line count.

    A bad line never stops the reading: one truncated line does not keep the rest out.
    """
    entries: list[Entry] = []
    problems: list[SourceProblem] = []
    lines = data.split(b"\n")
    ends_open = bool(data) and not data.endswith(b"\n")
    count = len(lines) - (0 if ends_open else 1)
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        last_open = ends_open and number == len(lines)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(problem(file, number, f"not UTF-8 text (byte {exc.start}); skipped"))
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            reason = (
                "truncated last line (the file ends mid-record); skipped"
                if last_open
                else f"not valid JSON ({exc.msg} at column {exc.colno}); skipped"
            )
            problems.append(problem(file, number, reason))
            continue
        if not isinstance(value, dict):
            problems.append(problem(file, number, "not a JSON object; skipped"))
            continue
        entries.append((number, value))
    return entries, problems, count


def latest(
    entries: Iterable[Entry], file: str
) -> tuple[dict[str, Entry], list[SourceProblem], int, int]:
    """Last line wins; a tombstone removes what came before it. Returns the survivors by id,
    problems, lines superseded and tombstones honoured."""
    alive: dict[str, Entry] = {}
    problems: list[SourceProblem] = []
    superseded = tombstones = 0
    for number, obj in entries:
        key = obj.get("id")
        if not isinstance(key, str) or not key.strip():
            problems.append(problem(file, number, 'no "id"; skipped'))
            continue
        if obj.get("_deleted") is True:
            tombstones += 1
            alive.pop(key, None)
            continue
        if key in alive:
            superseded += 1
            del alive[key]  # re-insert: the order of survivors follows their last line
        alive[key] = (number, obj)
    return alive, problems, superseded, tombstones


@overload
def _time(obj: Mapping[str, Any], key: str, required: Literal[True]) -> datetime: ...
@overload
def _time(obj: Mapping[str, Any], key: str, required: bool) -> datetime | None: ...
def _time(obj: Mapping[str, Any], key: str, required: bool) -> datetime | None:
    raw = obj.get(key)
    if raw is None:
        if required:
            raise ValueError(f"no {key!r}")
        return None
    if isinstance(raw, bool) or (isinstance(raw, float) and not math.isfinite(raw)):
        raise ValueError(f"{key} is not a time ({raw!r})")
    moment = parse_time(raw)
    if moment is None:
        raise ValueError(f"{key} is not a time ({raw!r})")
    return moment


def _count(obj: Mapping[str, Any], key: str) -> int:
    raw = obj.get(key, 0)
    if raw is None:
        return 0
    if not is_number(raw) or not math.isfinite(raw) or raw < 0:
        raise ValueError(f"{key} is not a count ({raw!r})")
    return int(raw)


def memory_draft(
    number: int, obj: Mapping[str, Any], file: str
) -> tuple[NoteDraft | None, list[SourceProblem]]:
    """One memory record as a note draft, or None and the reason it cannot be one."""
    warnings: list[SourceProblem] = []
    mid = str(obj["id"]).strip()
    content = obj.get("content")
    if not isinstance(content, str) or not content.strip():
        return None, [problem(file, number, f"memory {mid}: no content; skipped")]
    if "\x00" in content:
        return None, [
            problem(file, number, f"memory {mid}: content holds a NUL character; skipped")
        ]
    given_meta = obj.get("meta")
    meta: Mapping[str, Any] = given_meta if isinstance(given_meta, Mapping) else {}
    try:
        created = _time(obj, "created_at", True)
        last_used = _time(obj, "last_used", False) or created
        promoted_at = _time(obj, "promoted_at", False)
        last_review_at = _time(obj, "last_review_at", False)
        uses = _count(obj, "use_count")
        review_count = _count(obj, "review_count")
        cross = _count(obj, "cross_domain_count")
        strength = obj.get("strength", 1.0)
        if not is_number(strength):
            raise ValueError(f"strength is not a number ({strength!r})")
        if not math.isfinite(strength) or strength < 0:
            raise ValueError(f"strength is not a finite number ≥ 0 ({strength!r})")
    except ValueError as exc:
        return None, [problem(file, number, f"memory {mid}: {exc}; skipped")]
    if strength > MAX_STRENGTH:
        warnings.append(problem(file, number, f"memory {mid}: strength {strength:g} capped at 2"))
        strength = MAX_STRENGTH
    status = obj.get("status", "active")
    if status not in STATUSES:
        warnings.append(
            problem(file, number, f"memory {mid}: unknown status {status!r}; imported as active")
        )
        status = "active"
    fields: dict[str, object] = {
        "id": mid,
        "created": created,
        "last_used": max(last_used, created),
        "use_count": uses + 1,
        "strength": round(float(strength), 4),
        "status": status,
    }
    if promoted_at is not None:
        fields["promoted_at"] = promoted_at
    promoted_to = obj.get("promoted_to")
    if isinstance(promoted_to, str) and promoted_to.strip():
        fields["promoted_to"] = promoted_to.strip()
    fields["tags"] = clean_tag_list(meta.get("tags"))
    fields["entities"] = clean_text_list(obj.get("entities"))
    for key in ("source", "context"):
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            fields[key] = value.strip()
    extra = meta.get("extra")
    if isinstance(extra, Mapping) and extra:
        fields["meta"] = dict(extra)
    if review_count:
        fields["review_count"] = review_count
    if last_review_at is not None:
        fields["last_review_at"] = last_review_at
    if cross:
        fields["cross_domain_count"] = cross
    if isinstance(obj.get("embed"), list):
        kept = f"memory {mid}: embedding vector not kept (the vault has no use for it)"
        warnings.append(problem(file, number, kept))
    title = (
        PurePosixPath(str(fields["promoted_to"])).stem
        if fields.get("promoted_to") and str(fields["promoted_to"]).endswith(".md")
        else title_from_content(content)
    )
    if needs_alias(title):  # kept as written where the file name cannot hold it ("9:30")
        fields["aliases"] = [title]
    body = content.strip() + "\n"
    return NoteDraft(mid, title, str(status), fields, body, number, file, given=obj), warnings


def relation_draft(number: int, obj: Mapping[str, Any], file: str) -> RelationDraft | SourceProblem:
    rid = str(obj["id"])
    src, dst = obj.get("from_memory_id"), obj.get("to_memory_id")
    if not isinstance(src, str) or not isinstance(dst, str) or not src or not dst:
        return problem(
            file, number, f"relation {rid}: needs from_memory_id and to_memory_id; skipped"
        )
    if src == dst:
        return problem(file, number, f"relation {rid}: a memory related to itself; skipped")
    kind = obj.get("relation_type") or "related"
    strength = obj.get("strength", 1.0)
    if not is_number(strength) or not 0 <= strength <= 1:
        return problem(
            file, number, f"relation {rid}: strength must be from 0 to 1 ({strength!r}); skipped"
        )
    try:
        created = _time(obj, "created_at", False)
    except ValueError as exc:
        return problem(file, number, f"relation {rid}: {exc}; skipped")
    meta: dict[str, object] = {"id": rid}
    if float(strength) != 1.0:
        meta["strength"] = float(strength)
    if created is not None:
        meta["created"] = created
    metadata = obj.get("metadata")
    if isinstance(metadata, Mapping) and metadata:
        meta["metadata"] = dict(metadata)
    if relation_property(str(kind)) != str(kind):
        meta["type"] = str(kind)
    return RelationDraft(relation_property(str(kind)), dst, number, meta)


def plan_import(memories: bytes | None, relations: bytes | None, path: str) -> ImportPlan:
    """Both files read into drafts (with relations attached to their source memory)."""
    plan = ImportPlan(source="cortexgraph", path=path, drafts=[])
    by_id: dict[str, NoteDraft] = {}
    if memories is not None:
        entries, problems, plan.lines = read_jsonl(memories, MEMORIES_FILE)
        alive, more, plan.superseded, plan.tombstones = latest(entries, MEMORIES_FILE)
        plan.problems += problems + more
        for number, obj in alive.values():
            draft, notes = memory_draft(number, obj, MEMORIES_FILE)
            if draft is None:
                plan.problems += notes
            else:
                plan.warnings += notes
                by_id[draft.id] = draft
    if relations is not None:
        entries, problems, count = read_jsonl(relations, RELATIONS_FILE)
        alive, more, superseded, tombstones = latest(entries, RELATIONS_FILE)
        plan.lines += count
        plan.superseded += superseded
        plan.tombstones += tombstones
        plan.problems += problems + more
        for number, obj in alive.values():
            rel = relation_draft(number, obj, RELATIONS_FILE)
            if isinstance(rel, SourceProblem):
                plan.problems.append(rel)
                continue
            source = by_id.get(str(obj["from_memory_id"]))
            if source is None:
                why = (
                    f"relation {obj['id']}: its source memory {obj['from_memory_id']} is not in "
                    "the import (deleted or never saved); skipped"
                )
                plan.problems.append(problem(RELATIONS_FILE, number, why))
                continue
            source.relations.append(rel)
    # Names are given in a fixed order, so the same records always get the same file names.
    plan.drafts = sorted(by_id.values(), key=lambda d: (cast(datetime, d.fields["created"]), d.id))
    return plan


def _epoch(moment: datetime | None) -> int | None:
    return int(moment.timestamp()) if moment is not None else None


def memory_record(
    m: Memory, fields: Mapping[str, Any], review_priority: float
) -> CortexGraphMemory:
    """One memory as CortexGraph writes it (its field order), from its note's fields."""
    extra = fields.get("meta")
    return {
        "id": m.id or "",
        "content": m.content,
        "meta": {
            "tags": list(m.tags),
            "source": _text(fields.get("source")),
            "context": _text(fields.get("context")),
            "extra": json_safe(extra) if isinstance(extra, Mapping) else {},
        },
        "created_at": _epoch(m.created),
        "last_used": _epoch(m.last_used),
        "use_count": max(0, m.use_count - 1),
        "strength": m.strength,
        "status": m.status,
        "promoted_at": _epoch(parse_time(fields.get("promoted_at"))),
        "promoted_to": _text(fields.get("promoted_to")),
        "embed": None,
        "entities": list(m.entities),
        "review_priority": review_priority,
        "last_review_at": _epoch(parse_time(fields.get("last_review_at"))),
        "review_count": _int(fields.get("review_count")),
        "cross_domain_count": _int(fields.get("cross_domain_count")),
    }


def _text(value: object) -> str | None:
    return str(value) if value is not None and str(value) != "" else None


def _int(value: object) -> int:
    return int(value) if is_number(value) else 0


def json_safe(value: Any) -> Any:
    """YAML gives times and dates back as objects; JSON wants strings."""
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, datetime):
        return format_time(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
