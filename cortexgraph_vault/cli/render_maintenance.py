"""Human output of imports, exports, stats, the graph page and the doctor."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.text_layout import commit_line
from cortexgraph_vault.core import wording

if TYPE_CHECKING:
    from cortexgraph_vault.models import DoctorResult, ExportResult, ImportResult, VaultStats

LEVEL_MARKS = {"ok": "ok  ", "info": "info", "warning": "WARN", "problem": "FAIL"}
MAX_ITEMS = 50


def _bytes(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def _import(r: ImportResult) -> str:
    lines = [r.message]
    if r.lines:
        lines.append(wording.import_lines_read(r.lines, r.superseded, r.tombstones, r.relations))
    changed = [i for i in r.items if i.action not in ("unchanged",)]
    for item in changed[:MAX_ITEMS]:
        where = f" → {item.path}" if item.path else ""
        moved = f" (from {item.moved_from})" if item.moved_from else ""
        reason = f": {item.reason}" if item.reason else ""
        lines.append(f"  {item.action:9} {item.title}{where}{moved}{reason}")
    if len(changed) > MAX_ITEMS:
        lines.append(f"  … and {len(changed) - MAX_ITEMS} more (--json lists them all)")
    lines += [f"skipped {p.file}:{p.line}: {p.reason}" for p in r.problems]
    lines += [f"note    {w.file}:{w.line}: {w.reason}" for w in r.warnings]
    lines += commit_line(r.commit)
    return "\n".join(lines)


def _stats(r: VaultStats) -> str:
    lines = [
        f"notes {r.total_notes}; memories "
        + (", ".join(f"{k} {v}" for k, v in sorted(r.memories.items())) or "none"),
        "by folder: " + ", ".join(f"{k}/ {v}" for k, v in r.by_folder.items()),
        f"forgettable now {r.forgettable}; at risk (forgotten within {wording.days(r.at_risk_days)} "
        f"unless used) {r.at_risk}; due for review {r.due_for_review}; promotable {r.promotable}",
        "score histogram (active): "
        + (", ".join(f"{k}: {v}" for k, v in r.histogram.items()) or "empty"),
        f"vault {_bytes(r.vault_bytes)} (memories {_bytes(r.memory_bytes)}); "
        f"index cache {_bytes(r.cache_bytes)} at {r.cache_path}",
        f"git: {r.git}",
        f"notes with problems: {r.notes_with_problems}",
    ]
    lines += [f"  {p.path}: {p.reason}" for p in r.problems]
    return "\n".join(lines)


def _doctor(r: DoctorResult) -> str:
    lines = []
    for f in r.findings:
        lines.append(f"[{LEVEL_MARKS.get(f.level, f.level)}] {f.check}: {f.message}")
        if f.fix and f.level != "ok":
            lines.append(f"       fix: {f.fix}")
    verdict = (
        "all good"
        if r.ok and not r.warnings
        else f"{wording.count(r.problems, 'problem')}, {wording.count(r.warnings, 'warning')}"
    )
    lines.append(verdict)
    return "\n".join(lines)


def _export(r: ExportResult) -> str:
    skipped = [f"  not exported {s.file}: {s.reason}" for s in r.skipped]
    return "\n".join([r.message, *[f"  {f}" for f in r.files], *skipped])


# renderers that are no function of this module (render.py finds those by their annotation)
RENDERERS: dict[str, Callable[[Any], str]] = {"GraphPictureResult": lambda r: r.message}
