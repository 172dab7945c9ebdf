"""A consolidation plan: what the pipeline would do, pinned to the memories as they were.

Written as JSON (for a person to review, drop items from, and apply later) and as a readable
summary beside it. Reading a plan back checks its shape and names the file and the item that
is wrong.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import ValidationError

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.intelligence.shown_clusters import member_key, pinned_hash
from cortexgraph_vault.models import (
    PLAN_FORMAT,
    PLAN_VERSION,
    ConsolidationPlan,
    PlanItem,
    PlanMemory,
)
from cortexgraph_vault.vault.files import atomic_write

# stage → its title and what its items do, in the order the stages run
_STAGES = {
    "decay": ("DecayAnalyzer", "flag"),
    "cluster": ("ClusterDetector", "link"),
    "merge": ("SemanticMerge", "merge"),
    "promote": ("LTMPromoter", "promote"),
    "relations": ("RelationshipDiscovery", "relate"),
}
STAGE_ORDER = tuple(_STAGES)
STAGE_TITLES = {stage: title for stage, (title, _) in _STAGES.items()}
ACTIONS = {stage: action for stage, (_, action) in _STAGES.items()}


def stage_name(text: str) -> str:
    """`merge`, `SemanticMerge` or `semantic-merge` → `merge`; a clear error otherwise."""
    wanted = text.strip().lower().replace("-", "").replace("_", "")
    for name, title in STAGE_TITLES.items():
        if wanted in (name, title.lower()):
            return name
    choices = ", ".join(f"{n} ({t})" for n, t in STAGE_TITLES.items())
    raise InvalidArgument(f"agent {text!r}: not a pipeline stage; choose one of {choices}")


def new_item(
    stage: str,
    memories: Sequence[Memory],
    reason: str,
    *,
    confidence: float | None = None,
    **details: object,
) -> PlanItem:
    keys = "\n".join(sorted(member_key(m) for m in memories))
    digest = hashlib.sha256(f"{stage}\n{keys}".encode()).hexdigest()[:12]
    pinned = [
        PlanMemory(
            id=m.id, path=m.path, title=m.title, status=m.status, content_hash=pinned_hash(m)
        )
        for m in memories
    ]
    return PlanItem(
        id=f"{stage}-{digest}",
        stage=stage,
        action=ACTIONS[stage],
        reason=reason,
        confidence=None if confidence is None else round(confidence, 4),
        memories=pinned,
        details=dict(details),
    )


def plan_id(created: str, items: Iterable[PlanItem]) -> str:
    digest = hashlib.sha256("\n".join(i.id for i in items).encode()).hexdigest()[:8]
    stamp = created.replace("-", "").replace(":", "")
    return f"plan-{stamp}-{digest}"


def write_plan(plan: ConsolidationPlan, path: Path) -> Path:
    """The plan's JSON at `path` and its summary beside it; returns the summary's path."""
    data = plan.model_dump_json(indent=2).encode("utf-8")
    try:
        atomic_write(path, data)
        summary = path.with_suffix(".txt") if path.suffix == ".json" else Path(f"{path}.txt")
        atomic_write(summary, summarize(plan).encode("utf-8"))
    except OSError as exc:
        raise InvalidArgument(f"{path}: cannot write the plan ({exc.strerror})") from None
    return summary


def read_plan(path: Path) -> ConsolidationPlan:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidArgument(f"{path}: no such plan file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidArgument(f"{path}: cannot read the plan ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InvalidArgument(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "nothing was applied"
        ) from None
    return parse_plan(raw, str(path))


def parse_plan(raw: object, origin: str) -> ConsolidationPlan:
    if not isinstance(raw, dict) or raw.get("format") != PLAN_FORMAT:
        raise InvalidArgument(
            f"{origin}: not a consolidation plan (format must be {PLAN_FORMAT!r})"
        )
    if raw.get("version") != PLAN_VERSION:
        raise InvalidArgument(
            f"{origin}: plan version {raw.get('version')!r} is not supported (expected {PLAN_VERSION})"
        )
    try:
        plan = ConsolidationPlan.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidArgument(f"{origin}: {where}: {first['msg']}; nothing was applied") from None
    seen: set[str] = set()
    for n, item in enumerate(plan.items):
        label = f"{origin}: items[{n}] ({item.id})"
        if item.stage not in STAGE_ORDER:
            raise InvalidArgument(f"{label}: unknown stage {item.stage!r}; nothing was applied")
        if item.action != ACTIONS[item.stage]:
            raise InvalidArgument(
                f"{label}: stage {item.stage} does {ACTIONS[item.stage]!r}, not {item.action!r}; "
                "nothing was applied"
            )
        needed = 1 if item.stage in ("decay", "promote") else 2
        if len(item.memories) < needed:
            raise InvalidArgument(f"{label}: needs at least {needed} memories; nothing was applied")
        if item.id in seen:
            raise InvalidArgument(f"{label}: listed twice; nothing was applied")
        seen.add(item.id)
    return plan


def summarize(plan: ConsolidationPlan) -> str:
    """The plan for people: what each stage would do, and why."""
    lines = [
        f"Consolidation plan {plan.plan_id}",
        f"vault {plan.vault}, made {plan.created}; stages: {', '.join(plan.stages)}",
        f"{wording.count(len(plan.items), 'item')}. Review, delete items you do not want from the JSON, then apply "
        "it with `cortexgraph-vault consolidate --apply FILE`.",
    ]
    for stage in STAGE_ORDER:
        if stage not in plan.stages:
            continue
        items = [i for i in plan.items if i.stage == stage]
        lines += ["", f"## {STAGE_TITLES[stage]} ({stage}): {wording.count(len(items), 'item')}"]
        for item in items:
            conf = f" [{item.confidence:.2f}]" if item.confidence is not None else ""
            names = ", ".join(m.title for m in item.memories)
            lines.append(f"- {item.id} {item.action}{conf}: {names}")
            lines.append(f"    {item.reason}")
    return "\n".join(lines) + "\n"
