"""Counted nouns and the messages built on them, so "1 memory" and "2 memories" both read right.

Every message with a count that a person or a model reads — CLI lines, tool results, REST
answers and git commit subjects — comes from a function here, and `TEMPLATES` names each one
with an example call, so a single test can try them all with 0, 1 and 2.
"""

from __future__ import annotations

from collections.abc import Callable

PLURALS = {"memory": "memories"}


def plural(noun: str) -> str:
    """The plural of a noun or of a compound whose last word is the noun ("memory file")."""
    head, _, last = noun.rpartition(" ")
    return (head + " " if head else "") + PLURALS.get(last, last + "s")


def count(n: int, noun: str) -> str:
    """`count(1, "memory")` → "1 memory"; `count(0, "memory")` → "0 memories"."""
    return f"{n} {noun if n == 1 else plural(noun)}"


def decimal(x: float) -> str:
    """A score or strength as a person reads it: three decimals at most, no trailing zeros,
    so one value has one spelling everywhere ("1" for a fresh save's 0.9999996, "0.734",
    "1.1")."""
    return f"{round(x, 3) + 0.0:g}"  # + 0.0: never "-0"


def days(x: float) -> str:
    """A span of days as a person writes it: "1 day", "0.5 days", "3 days"."""
    return f"{x:g} {'day' if x == 1 else 'days'}"


# Past participles of the verbs messages use: "forgeted" was once written for "forget".
PARTICIPLES = {"forget": "forgotten", "archive": "archived", "promote": "promoted"}


def would_be(n: int, noun: str, verb: str) -> str:
    """ "3 memories would be forgotten"."""
    return f"{count(n, noun)} would be {PARTICIPLES[verb]}"


# gc and promotion (handlers/lifecycle/gc_and_promotion.py)
def gc_preview(n: int, verb: str) -> str:
    return would_be(n, "memory", verb)


def gc_superseded_preview(n: int) -> str:
    return f"{would_be(n, 'superseded memory', 'archive')} (replaced by newer ones)"


def run_with_yes(verb: str, n: int) -> str:
    return f"(preview: run with --yes to {verb} {'it' if n == 1 else 'them'})"


def gc_record_subject(operation: str, n: int) -> str:
    return (
        f"{operation}: record {count(n, 'memory')} before forgetting {'it' if n == 1 else 'them'}"
    )


def gc_forget_subject(n: int) -> str:
    return f"gc: forget {count(n, 'memory')}"


def gc_archive_subject(n: int) -> str:
    return f"gc: archive {count(n, 'memory')}"


def gc_forgot(n: int) -> str:
    return f"forgot {count(n, 'memory')}; restore_memory brings one back"


def gc_archived(n: int, folder: str) -> str:
    return f"archived {count(n, 'memory')} into {folder}/"


def promote_preview(n: int, folder: str) -> str:
    return f"{would_be(n, 'memory', 'promote')} to {folder}/"


def promote_subject(n: int, folder: str) -> str:
    return f"promote: {count(n, 'memory')} to {folder}/"


def promoted(n: int, folder: str) -> str:
    return f"promoted {count(n, 'memory')} to {folder}/"


def snapshot_subject(n: int) -> str:
    return f"snapshot: {count(n, 'memory')} reinforced"


def snapshot_recorded(n: int) -> str:
    return f"recorded {count(n, 'memory')}"


def commit_not_made(reason: str) -> str:
    """A save's warning when git did not record it: why, and that the file is kept and committed
    later (a held commit says when itself)."""
    reason = reason.strip().rstrip(".")
    if reason.startswith("not committed yet"):
        return f"saved, but {reason}"
    return (
        f"saved, but not committed to git: {reason}. The memory is in its file; its commit is "
        "kept and made at the next start"
    )


def forget_recovered(n: int, error: str | None) -> str:
    if error is not None:
        return f"forget of {count(n, 'memory')} undone, git could not record it ({error})"
    return f"forget of {count(n, 'memory')} completed and committed"


# consolidation (handlers/intelligence/consolidate.py)
# `then` says what to do next in the words of the door (MCP's by default; the CLI's own)
def duplicate_pairs(
    pairs: int, memories: int, threshold: float, then: str = "consolidate one with its cluster_id"
) -> str:
    return (
        f"{count(pairs, 'near-duplicate pair')} (similarity ≥ {threshold:g}) among "
        f"{count(memories, 'memory')}; {then}"
    )


def clusters_found(
    clusters: int, memories: int, merges: int, then: str = "consolidate_memories takes a cluster id"
) -> str:
    return (
        f"{count(clusters, 'cluster')} among {count(memories, 'memory')} ({merges} worth "
        f"merging); {then}"
    )


def merge_subject(n: int, title: str) -> str:
    return f"consolidate: merge {count(n, 'memory')} into {title}"


def link_subject(n: int, cluster: str) -> str:
    return f"consolidate: link {count(n, 'memory')} of cluster {cluster}"


def consolidate_preview(n: int, then: str = "call again with mode apply (or link)") -> str:
    return f"{count(n, 'cluster')} would be merged; {then}"


def consolidate_merged(n: int, folder: str) -> str:
    return f"merged {count(n, 'cluster')}; the originals are in {folder}/"


def consolidate_linked(n: int) -> str:
    return f"linked the members of {count(n, 'cluster')}"


# the index, doctor, git, config
def indexed(notes: int, memories: int, seconds: float) -> str:
    return f"indexed {count(notes, 'note')} ({count(memories, 'memory')}) in {seconds:.2f} s"


def uncommitted_memory_files(n: int) -> str:
    return (
        f"{count(n, 'memory file')} {'holds' if n == 1 else 'hold'} changes not yet committed "
        "(touches wait for the periodic snapshot)"
    )


def partly_read_notes(n: int, example: str, problem: str) -> str:
    return f"{count(n, 'note')} could be read only in part, e.g. {example}: {problem}"


def notes_parse_cleanly(n: int) -> str:
    if n == 1:
        return "the 1 note parses cleanly"
    return f"all {count(n, 'note')} parse cleanly"


def index_kept_busy(root: str, seconds: float, n: int) -> str:
    return (
        f"{root}: other git commits kept writing over the index for {seconds:g} s while we "
        f"committed {count(n, 'path')}; nothing was committed"
    )


def unknown_settings(path: str, names: list[str]) -> str:
    return f"{path}: {count(len(names), 'unknown setting')}: {', '.join(names)}"


# import and export
def exported(memories: int, relations: int, out: str, relation_noun: str = "relation") -> str:
    return f"exported {count(memories, 'memory')} and {count(relations, relation_noun)} to {out}"


def links_outside_memories(n: int) -> str:
    return f"; {count(n, 'link')} to notes that are not memories {'stays' if n == 1 else 'stay'} in the vault only"


def memories_without_id(n: int) -> str:
    return f"; {count(n, 'memory')} without an id not exported"


def import_subject(n: int, label: str) -> str:
    return f"import: {count(n, 'memory')} from {label}"


def import_summary(counts: dict[str, int], dry_run: bool, label: str, path: str) -> str:
    would = "would be " if dry_run else ""
    return (
        f"{'Dry run: ' if dry_run else ''}{count(counts['create'], 'memory')} {would}created, "
        f"{counts['update']} {would}updated, {counts['unchanged']} unchanged, {counts['kept']} "
        f"kept as the vault has them, {counts['skipped']} skipped, from {label} ({path})"
    )


def source_lines_skipped(n: int) -> str:
    return f"; {count(n, 'source line')} skipped (see problems)"


def graph_page_written(out: str, nodes: int, edges: int) -> str:
    return (
        f"wrote {out} ({count(nodes, 'node')}, {count(edges, 'link')}); open it in a browser, "
        "no network needed"
    )


def neighbourhood(center: str, notes: int, hops: int) -> str:
    return f"{center}: {count(notes, 'note')} within {count(hops, 'hop')}"


def memories_match(n: int) -> str:
    return f"{count(n, 'memory')} {'matches' if n == 1 else 'match'}"


# consolidation pipeline and the CLI's own lines
def plan_written(n: int, path: str) -> str:
    return f"plan of {count(n, 'item')} written to {path}; nothing was changed"


def stage_applied_subject(stage: str, n: int, plan_id: str) -> str:
    return f"consolidate: {stage} applied {count(n, 'item')} (plan {plan_id})"


def import_lines_read(lines: int, superseded: int, tombstones: int, relations: int) -> str:
    return (
        f"read {count(lines, 'line')}: {superseded} superseded by later lines, "
        f"{count(tombstones, 'deletion marker')} honoured, {count(relations, 'relation')}"
    )


def graph_stats(
    notes: int, memories: dict[str, int], links: int, unresolved: int, orphans: int, tags: int
) -> str:
    by_status = ", ".join(f"{k} {v}" for k, v in memories.items())
    return (
        f"{count(notes, 'note')} ({by_status}); {count(links, 'link')}, {unresolved} unresolved; "
        f"{count(orphans, 'orphan')}; {count(tags, 'tag')}"
    )


# Each template with a call that varies one count, for the test that tries 0, 1 and 2.
TEMPLATES: dict[str, Callable[[int], str]] = {
    "gc preview (forget)": lambda n: gc_preview(n, "forget"),
    "gc preview (archive)": lambda n: gc_preview(n, "archive"),
    "gc record commit subject": lambda n: gc_record_subject("gc", n),
    "gc forget commit subject": gc_forget_subject,
    "gc archive commit subject": gc_archive_subject,
    "gc forgot": gc_forgot,
    "gc archived": lambda n: gc_archived(n, "_archive"),
    "promote preview": lambda n: promote_preview(n, "memories"),
    "promote commit subject": lambda n: promote_subject(n, "memories"),
    "promoted": lambda n: promoted(n, "memories"),
    "snapshot commit subject": snapshot_subject,
    "snapshot recorded": snapshot_recorded,
    "forget recovered": lambda n: forget_recovered(n, None),
    "forget undone": lambda n: forget_recovered(n, "index.lock"),
    "duplicate pairs": lambda n: duplicate_pairs(n, n, 0.9),
    "clusters found": lambda n: clusters_found(n, n, 0),
    "merge commit subject": lambda n: merge_subject(n, "Coffee"),
    "link commit subject": lambda n: link_subject(n, "c1"),
    "consolidate preview": consolidate_preview,
    "consolidate merged": lambda n: consolidate_merged(n, "_archive"),
    "consolidate linked": consolidate_linked,
    "indexed": lambda n: indexed(n, n, 0.5),
    "uncommitted memory files": uncommitted_memory_files,
    "partly read notes": lambda n: partly_read_notes(n, "a.md", "bad YAML"),
    "notes parse cleanly": notes_parse_cleanly,
    "index kept busy": lambda n: index_kept_busy("/v", 5, n),
    "unknown settings": lambda n: unknown_settings("c.toml", [f"s{i}" for i in range(n)]),
    "exported": lambda n: exported(n, n, "out"),
    "exported links": lambda n: exported(n, n, "out", "link"),
    "links outside memories": links_outside_memories,
    "memories without id": memories_without_id,
    "import commit subject": lambda n: import_subject(n, "CortexGraph"),
    "import summary": lambda n: import_summary(
        {"create": n, "update": n, "unchanged": n, "kept": n, "skipped": n}, True, "x", "p"
    ),
    "source lines skipped": source_lines_skipped,
    "graph page written": lambda n: graph_page_written("g.html", n, n),
    "neighbourhood": lambda n: neighbourhood("a.md", n, n),
    "plan written": lambda n: plan_written(n, "plan.json"),
    "stage applied commit subject": lambda n: stage_applied_subject("merge", n, "p1"),
    "import lines read": lambda n: import_lines_read(n, n, n, n),
    "graph stats": lambda n: graph_stats(n, {"active": n}, n, n, n, n),
    "memories match": memories_match,
    "days": lambda n: f"forgotten within {days(n)}",
    "run with --yes": lambda n: f"{count(n, 'candidate')} {run_with_yes('forget', n)}",
    "used N times": lambda n: f"used {count(n, 'time')}",
}
