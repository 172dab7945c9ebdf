"""Human output of the memory commands: save, show, search, touch, ... history, restore, stats."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.text_layout import cell, commit_line, listed, short, short_id, table
from cortexgraph_vault.core import wording

# result types named for the checker; RENDERERS is keyed by their names, so a command loads
# no result models it does not show
if TYPE_CHECKING:
    from cortexgraph_vault.models import (
        ConfigReport,
        DeleteResult,
        ForgottenList,
        GcResult,
        HistoryResult,
        MemoryView,
        ObserveResult,
        OpenResult,
        PromoteResult,
        RelationResult,
        RestoreResult,
        SaveResult,
        SearchResult,
        SnapshotResult,
        SyncResult,
        TouchResult,
        UpdateResult,
        VersionResult,
    )


def memory(v: MemoryView) -> str:
    lines = [
        f"{v.title}  ({v.path})",
        f"  id {v.id or '(none yet)'}  status {v.status}  score "
        f"{'-' if v.score is None else wording.decimal(v.score)}  uses {v.use_count}  "
        f"strength {wording.decimal(v.strength)}",
        f"  created {v.created}  last used {v.last_used}",
    ]
    if v.days_until_forgotten is not None:
        lines.append(f"  forgotten in {v.days_until_forgotten:.1f} days if unused")
    if v.promote_reason:
        lines.append(f"  promotable: {v.promote_reason}")
    lines += listed("  tags ", v.tags)
    lines += listed("  about ", v.entities)
    lines += [f"  problem: {p}" for p in v.problems]
    if v.relations:
        lines += [f"  → {r.relation_type} {r.target}" for r in v.relations.outgoing]
        lines += [f"  ← {r.relation_type} from {r.from_memory_id}" for r in v.relations.incoming]
    lines += ["", v.content]
    return "\n".join(lines)


def _open(result: OpenResult) -> str:
    # what was not found goes to stderr as the command's failure (render.shortfall)
    parts = [memory(v) for v in result.memories]
    if result.next_cursor:  # cut to its size: say so, and how to go on
        parts.append(f"{result.notice}\nmore: --cursor {result.next_cursor}")
    return "\n\n".join(parts)


def explain_table(result: SearchResult) -> str:
    """Why each hit ranks where it does (README, Scoring)."""
    rows = []
    for h in result.results:
        e = h.explain
        if e is None:
            continue
        vector = "-" if e.vector is None else f"{e.vector:.3f}"
        memory = "-" if e.memory_score is None else f"{e.memory_score:.3f}"
        rows.append(
            (
                e.rank,
                f"{e.lexical:.3f}",
                vector,
                f"{e.context:.3f}",
                f"{e.relevance:.3f}",
                memory,
                f"{e.prior:.3f}",
                f"{e.weight:.2f}",
                f"{e.final:.3f}",
                short(h.title, 30),
                " ".join(e.matched_terms)[:30],
            )
        )
    head = ["rank", "words", "vector", "context", "relevance", "memory", "prior", "weight"]
    return table(rows, [*head, "final", "title", "matched"])


def _search(result: SearchResult) -> str:
    if not result.results:
        return "no matching memories" + (f" ({result.notice})" if result.notice else "")
    rows = [
        (
            wording.decimal(h.score),
            h.source,
            short(h.title, 40),
            h.use_count,
            short_id(h.id),
            short(h.content, 50),
        )
        for h in result.results
    ]
    text = table(rows, ["score", "where", "title", "uses", "id", "content"])
    page = result.pagination
    if page and page.total_pages > 1:
        text += f"\npage {page.page} of {page.total_pages} ({page.total_count} results)"
    if result.notice:
        text += f"\n({result.notice})"
    if result.next_cursor:
        text += f"\nmore: --cursor {result.next_cursor}"
    if any(h.explain for h in result.results):
        text += "\n\n" + explain_table(result)
    return text


def _save(r: SaveResult) -> str:
    lines = [f"{r.message} (id {r.id}); score {wording.decimal(r.score)}"]
    if r.auto_entities:
        lines.append(f"about: {', '.join(r.auto_entities)} (found in the text)")
    if r.may_supersede:
        lines.append("may replace (confirm with `relate NEW OLD --type supersedes`):")
        lines += [f"  {m.title} (id {m.memory_id or m.path}): {m.why}" for m in r.may_supersede]
    return "\n".join(lines + commit_line(r.commit))


def _touch(r: TouchResult) -> str:
    return (
        f"{r.path}: used {wording.count(r.use_count, 'time')}; score {wording.decimal(r.old_score)} → "
        f"{wording.decimal(r.new_score)}; strength {wording.decimal(r.strength)}"
    )


def _observe(r: ObserveResult) -> str:
    lines = [f"reinforced {wording.count(r.reinforced, 'memory')}"]
    if r.memories:
        rows = [
            (m.path, m.use_count, m.review_count, wording.decimal(m.strength), m.cross_domain)
            for m in r.memories
        ]
        lines.append(table(rows, ["path", "uses", "reviews", "strength", "new context"]))
    return "\n".join(lines)


def _update(r: UpdateResult) -> str:
    changed = ", ".join(r.changed) or "nothing"
    lines = [f"{r.path}: changed {changed}", f"content hash {r.content_hash} (for --expected-hash)"]
    return "\n".join(lines + commit_line(r.commit))


def _delete(r: DeleteResult) -> str:
    if r.mode == "archive":
        head = f"{r.path}: archived to {r.archived_path}"
    else:
        head = (
            f"{r.path}: deleted; git keeps it (`cortexgraph-vault restore {short_id(r.memory_id)}`)"
        )
    return "\n".join([head, *commit_line(r.commit)])


def _relate(r: RelationResult) -> str:
    v = r.relation
    said = "linked" if r.created else "already linked"
    head = f"{said}: {short_id(v.from_memory_id)} {v.relation_type} {v.target} (strength {wording.decimal(v.strength)})"
    if v.metadata:
        head += f"; {cell(v.metadata)}"
    return "\n".join([head, *commit_line(r.commit)])


def _gc(result: GcResult) -> str:
    from cortexgraph_vault.cli.failure import commands_for_tools
    from cortexgraph_vault.cli.main import registry

    head = commands_for_tools(result.message, registry())
    if result.candidates:
        rows = [
            (
                wording.decimal(c.score),
                c.use_count,
                f"{c.age_days:.1f}",
                short(c.title, 40),
                short_id(c.id),
            )
            for c in result.candidates
        ]
        head += "\n" + table(rows, ["score", "uses", "age d", "title", "id"])
    for s in result.skipped:
        head += f"\nskipped {s.path}: {s.reason}"
    if result.dry_run and result.candidates:
        head += "\n" + wording.run_with_yes("forget", len(result.candidates))
    return "\n".join([head, *commit_line(result.commit)])


def _promote(result: PromoteResult) -> str:
    head = result.message
    if result.candidates:
        rows = [
            (wording.decimal(c.score), c.use_count, short(c.title, 40), c.reason)
            for c in result.candidates
        ]
        head += "\n" + table(rows, ["score", "uses", "title", "reason"])
    if result.dry_run and result.candidates:
        head += "\n" + wording.run_with_yes("promote", len(result.candidates))
    return "\n".join([head, *commit_line(result.commit)])


def _snapshot(r: SnapshotResult) -> str:
    return "\n".join([r.message, *commit_line(r.commit)])


def _history(result: HistoryResult) -> str:
    if not result.commits:
        return f"memory {result.memory_id}: git has no commit of it yet"
    rows = [(c.short, c.time, c.change, short(c.summary, 50), c.path) for c in result.commits]
    return table(rows, ["commit", "time", "change", "summary", "path"])


def _version(r: VersionResult) -> str:
    return f"{r.path} at commit {r.commit[:10]}:\n\n{r.text}"


def _restore(r: RestoreResult) -> str:
    return "\n".join([r.message, *commit_line(r.commit)])


def _forgotten(r: ForgottenList) -> str:
    from cortexgraph_vault.cli.failure import commands_for_tools
    from cortexgraph_vault.cli.main import registry

    message = commands_for_tools(r.message, registry())
    if not r.forgotten:
        return message
    rows = [
        (short_id(f.id), f.kind, f.deleted_at, short(f.title, 40), short(f.preview, 40))
        for f in r.forgotten
    ]
    return message + "\n" + table(rows, ["id", "kind", "when", "title", "text"])


def _sync(result: SyncResult) -> str:
    lines = [result.message]
    lines += [f"  {d.path}: {d.outcome}" for d in result.decisions]
    lines += [f"  to resolve: {p}" for p in result.conflicted]
    return "\n".join(lines)


def _config(result: ConfigReport) -> str:
    keys = ["name", "env", "value", "origin"]
    settings = table([[getattr(s, k) for k in keys] for s in result.settings], keys)
    files = [
        f"{f.scope} config file: {f.path}" + ("" if f.exists else " (not created yet)")
        for f in result.files
    ]
    return settings + "\n\n" + "\n".join(files)


# renderers that are no function of this module (render.py finds those by their annotation)
RENDERERS: dict[str, Callable[[Any], str]] = {"InitResult": lambda r: r.message}
