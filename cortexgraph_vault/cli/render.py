"""Human-readable output for the CLI; `--json` bypasses all of this."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from cortexgraph_vault.core import wording

if TYPE_CHECKING:
    from cortexgraph_vault.models import MemoryView, SearchResult


def table(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> str:
    cells = [[str(h) for h in headers], *[[("" if c is None else str(c)) for c in r] for r in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def memory(v: MemoryView) -> str:
    lines = [
        f"{v.title}  ({v.path})",
        f"  id {v.id or '(none yet)'}  status {v.status}  score {v.score}  uses {v.use_count}  strength {v.strength}",
        f"  created {v.created}  last used {v.last_used}",
    ]
    if v.days_until_forgotten is not None:
        lines.append(f"  forgotten in {v.days_until_forgotten:.1f} days if unused")
    if v.promote_reason:
        lines.append(f"  promotable: {v.promote_reason}")
    if v.tags:
        lines.append(f"  tags {', '.join(v.tags)}")
    for p in v.problems:
        lines.append(f"  problem: {p}")
    if v.relations and (v.relations.outgoing or v.relations.incoming):
        for r in v.relations.outgoing:
            lines.append(f"  → {r.relation_type} {r.target}")
        for r in v.relations.incoming:
            lines.append(f"  ← {r.relation_type} from {r.from_memory_id}")
    lines += ["", v.content]
    return "\n".join(lines)


def explain_table(result: SearchResult) -> str:
    """Why each hit ranks where it does (README, Scoring)."""
    rows = []
    for h in result.results:
        e = h.explain
        if e is None:
            continue
        vector = "-" if e.vector is None else f"{e.vector:.3f}"
        memory = "-" if e.memory_score is None else f"{e.memory_score:.3f}"
        rows.append((e.rank, f"{e.lexical:.3f}", vector, f"{e.context:.3f}", f"{e.relevance:.3f}",
                     memory, f"{e.prior:.3f}", f"{e.weight:.2f}", f"{e.final:.3f}",
                     short(h.title, 30), " ".join(e.matched_terms)[:30]))  # fmt: skip
    head = ["rank", "words", "vector", "context", "relevance", "memory", "prior", "weight"]
    return table(rows, [*head, "final", "title", "matched"])


def render(result: object) -> str:
    # Imported here, not above: `--help` and `--version` build the parser without pydantic.
    from pydantic import BaseModel

    from cortexgraph_vault.cli.maintenance_render import render_maintenance
    from cortexgraph_vault.models import (
        ConfigReport,
        GcResult,
        HistoryResult,
        OpenResult,
        PromoteResult,
        SearchResult,
        StatsResult,
        SyncResult,
    )

    text = render_maintenance(result)
    if text is not None:
        return text
    if isinstance(result, OpenResult):
        parts = [memory(v) for v in result.memories]
        parts += [f"not found: {r}" for r in result.not_found]
        if result.next_cursor:  # cut to its size: say so, and how to go on
            parts.append(f"{result.notice}\nmore: --cursor {result.next_cursor}")
        return "\n\n".join(parts)
    if isinstance(result, SearchResult):
        if not result.results:
            return "no matching memories"
        rows = [
            (
                h.score,
                h.source,
                short(h.title, 40),
                h.use_count,
                (h.id or "")[:8],
                short(h.content, 50),
            )
            for h in result.results
        ]
        text = table(rows, ["score", "where", "title", "uses", "id", "content"])
        if result.notice:
            text += f"\n({result.notice})"
        if result.next_cursor:
            text += f"\nmore: --cursor {result.next_cursor}"
        if any(h.explain for h in result.results):
            text += "\n\n" + explain_table(result)
        return text
    if isinstance(result, GcResult):
        head = result.message
        if result.candidates:
            rows = [
                (c.score, c.use_count, f"{c.age_days:.1f}", short(c.title, 40), (c.id or "")[:8])
                for c in result.candidates
            ]
            head += "\n" + table(rows, ["score", "uses", "age d", "title", "id"])
        for s in result.skipped:
            head += f"\nskipped {s.path}: {s.reason}"
        if result.dry_run and result.candidates:
            head += "\n" + wording.run_with_yes("forget", len(result.candidates))
        if result.commit:
            head += f"\ncommit {result.commit[:10]}"
        return head
    if isinstance(result, PromoteResult):
        head = result.message
        if result.candidates:
            rows = [(c.score, c.use_count, short(c.title, 40), c.reason) for c in result.candidates]
            head += "\n" + table(rows, ["score", "uses", "title", "reason"])
        if result.dry_run and result.candidates:
            head += "\n" + wording.run_with_yes("promote", len(result.candidates))
        if result.commit:
            head += f"\ncommit {result.commit[:10]}"
        return head
    if isinstance(result, HistoryResult):
        if not result.commits:
            return f"memory {result.memory_id}: git has no commit of it yet"
        rows = [(c.short, c.time, c.change, short(c.summary, 50), c.path) for c in result.commits]
        return table(rows, ["commit", "time", "change", "summary", "path"])
    if isinstance(result, StatsResult):
        lines = [
            f"notes {result.total_notes}; memories "
            + ", ".join(f"{k} {v}" for k, v in sorted(result.memories.items()))
        ]
        lines.append(
            f"forgettable {result.forgettable}; danger zone {result.danger_zone}; promotable {result.promotable}"
        )
        lines.append(
            "score histogram: " + ", ".join(f"{k}: {v}" for k, v in result.histogram.items())
        )
        lines.append(f"git: {result.git}")
        lines += [f"problem: {p.path}: {p.reason}" for p in result.problems]
        return "\n".join(lines)
    if isinstance(result, SyncResult):
        lines = [result.message]
        lines += [f"  {d.path}: {d.outcome}" for d in result.decisions]
        lines += [f"  to resolve: {p}" for p in result.conflicted]
        return "\n".join(lines)
    if isinstance(result, ConfigReport):
        files = [
            f"{f.scope} config file: {f.path}" + ("" if f.exists else " (not created yet)")
            for f in result.files
        ]
        return list_of(result.settings) + "\n\n" + "\n".join(files)
    if isinstance(result, list):
        return list_of(result)
    if isinstance(result, BaseModel):
        data = result.model_dump(exclude_none=True)
        return "\n".join(f"{k}: {v}" for k, v in data.items())
    return str(result)


def list_of(items: Iterable[object]) -> str:
    from pydantic import BaseModel

    items = list(items)
    if not items:
        return "(none)"
    first = items[0]
    if isinstance(first, BaseModel):
        keys = list(type(first).model_fields)[:6]
        rows = [[short(str(getattr(i, k)), 40) for k in keys] for i in items]
        return table(rows, keys)
    if isinstance(first, dict):
        keys = [k for k in first if k != "help"]
        return table([[i.get(k) for k in keys] for i in items], keys)
    return "\n".join(map(str, items))
