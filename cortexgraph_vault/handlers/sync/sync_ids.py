"""One memory, one file, after a merge: a memory is its `id`, not its path.

Two devices that settled the same clash of names, or moved a memory while the other used it,
can leave one id in two files of the merged tree. Each such group is merged into one file by
the field rules, with the memory's version in the merge base as the base, and kept at the first
of its paths (in sorted order) inside the folder of its merged status — so every device that
meets the same group settles it the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.note_merge import grew_by_use, merge_versions
from cortexgraph_vault.history import sync_git
from cortexgraph_vault.history.runner import GitRunner, split_nul
from cortexgraph_vault.history.tracing import id_value
from cortexgraph_vault.models import SyncDecision


def ids_in_index(runner: GitRunner, folders: Sequence[str]) -> dict[str, list[str]]:
    """Memory id -> repository paths of the staged memory notes that hold it."""
    spec = [runner.to_repo(f) for f in folders]
    found = runner.run("grep", "--cached", "-z", "-I", "-E", "-e", "^id[ \t]*:", "--", *spec)
    by_id: dict[str, list[str]] = {}
    for line in found.out.decode("utf-8", "surrogateescape").split("\n") if found.ok else []:
        path, _, rest = line.partition("\0")
        value = id_value(rest.partition(":")[2]) if path.endswith(".md") else None
        if value and path not in by_id.setdefault(value, []):
            by_id[value].append(path)
    return by_id


def version_at(
    runner: GitRunner, commit: str, memory_id: str, folders: Sequence[str]
) -> bytes | None:
    """The memory's text at `commit` (any path), or None."""
    spec = [runner.to_repo(f) for f in folders]
    found = runner.run("grep", "-l", "-z", "-F", "-e", memory_id, commit, "--", *spec)
    for entry in split_nul(found.out) if found.ok else []:
        path = entry.partition(":")[2]
        data = runner.blob_at(commit, path)
        if data is not None and id_of(data) == memory_id:
            return data
    return None


def id_of(data: bytes) -> str | None:
    value = parse_note(data.decode("utf-8", "replace")).frontmatter.get("id")
    return None if value in (None, "") else str(value)


def _index_blob(runner: GitRunner, repo_path: str) -> bytes | None:
    found = runner.run("cat-file", "blob", f":0:{repo_path}")
    return found.out if found.ok else None


def merge_duplicate_ids(
    runner: GitRunner,
    base_commit: str | None,
    folders: Sequence[str],
    decisions: list[SyncDecision],
    unresolved: list[str],
    folder_for_status: Callable[[str], str],
) -> None:
    for memory_id, paths in sorted(ids_in_index(runner, folders).items()):
        if len(paths) < 2:
            continue
        texts = {p: _index_blob(runner, p) for p in sorted(paths)}
        same = [p for p, data in texts.items() if data is not None and id_of(data) == memory_id]
        if len(same) < 2:
            continue  # an `id:` line in a body, not a second copy of the memory
        base = version_at(runner, base_commit, memory_id, folders) if base_commit else None
        merged = texts[same[0]]
        assert merged is not None
        for path in same[1:]:
            outcome = merge_versions(base, merged, texts[path] or b"")
            if not outcome.clean:
                unresolved.append(f"{path} ({outcome.report})")
                return
            merged = outcome.result
        # Kept in the folder its merged status belongs in (a promotion on one device moved it).
        status = str(parse_note(merged.decode("utf-8", "replace")).frontmatter.get("status", ""))
        home = folder_for_status(status) if status in ("active", "promoted", "archived") else ""
        wanted = runner.to_repo(home) + "/" if home else ""
        keep = next((p for p in same if wanted and p.startswith(wanted)), same[0])
        others = [p for p in same if p != keep]
        sync_git.settle(runner, keep, merged)
        for path in others:
            sync_git.settle(runner, path, None)
        shown = [runner.from_repo(p) or p for p in others]
        decisions.append(
            SyncDecision(
                path=runner.from_repo(keep) or keep,
                id=memory_id,
                rule="one-memory",
                outcome=f"merged: its copies at {', '.join(shown)} joined it",
            )
        )


def fold_forgotten_versions(
    runner: GitRunner,
    base_commit: str,
    sides: Sequence[str],
    folders: Sequence[str],
    decisions: list[SyncDecision],
    handled: set[str],
) -> None:
    """A memory one side forgot (gc) while the other moved it (promoted, joined): git sees two
    deletions of the old path and no conflict, and the forgetting side's last uses and edits
    would vanish. They are merged into the surviving file here."""
    present = ids_in_index(runner, folders)
    for side in sides:
        for _, forgotten in _gc_commits(runner, base_commit, side):
            for memory_id in forgotten:
                if memory_id in handled or memory_id not in present:
                    continue
                if version_at(runner, side, memory_id, folders) is not None:
                    continue  # brought back on that side since: its version is already there
                versions = forgotten_versions(runner, side, base_commit, memory_id, folders)
                last = combined_version(runner, versions, memory_id, folders)
                base = version_at(runner, base_commit, memory_id, folders)
                path = present[memory_id][0]
                current = _index_blob(runner, path)
                if last is None or current is None or last == base or not _grew_from(base, last):
                    continue  # nothing new there, or a version older than the common one
                outcome = merge_versions(base, current, last)
                if outcome.clean:
                    sync_git.settle(runner, path, outcome.result)
                    handled.add(memory_id)
                    decisions.append(
                        SyncDecision(
                            path=runner.from_repo(path) or path,
                            id=memory_id,
                            rule="forgotten-vs-moved",
                            outcome="kept: moved on one device; the forgetting device's uses merged",
                        )
                    )


def _gc_commits(runner: GitRunner, since: str, side: str) -> list[tuple[str, list[str]]]:
    """(sha, the ids it forgot) of each gc commit on `side` since `since`."""
    log = runner.run(
        "log", "--format=%H%x00%B%x01", f"{since}..{side}", "--grep=Cortexgraph-Operation: gc"
    )
    found = []
    for record in log.out.decode("utf-8", "replace").split("\x01") if log.ok else []:
        sha, _, body = record.strip().partition("\0")
        lines = (line.strip() for line in body.splitlines())
        prefix = "Cortexgraph-Forgotten:"
        found.append((sha, [x[len(prefix) :].strip() for x in lines if x.startswith(prefix)]))
    return found


def _grew_from(base: bytes | None, later: bytes) -> bool:
    """Whether `later` could have grown from `base` by uses: no fewer uses, no earlier use."""
    if base is None:
        return True
    old = parse_note(base.decode("utf-8", "replace")).frontmatter
    new = parse_note(later.decode("utf-8", "replace")).frontmatter
    return grew_by_use(old, new)


def forgotten_versions(
    runner: GitRunner, side: str, other: str, memory_id: str, folders: Sequence[str]
) -> list[tuple[str, bytes]]:
    """(parent of the deleting commit, the version it deleted) for each gc commit on `side`
    since it parted from `other` that forgot `memory_id`."""
    found = []
    for sha, forgotten in _gc_commits(runner, other, side):
        if memory_id not in forgotten:
            continue
        parent = runner.run("rev-parse", "-q", "--verify", f"{sha}^").out.decode().strip()
        version = version_at(runner, parent, memory_id, folders) if parent else None
        if version is not None:
            found.append((parent, version))
    return found


def combined_version(
    runner: GitRunner, versions: list[tuple[str, bytes]], memory_id: str, folders: Sequence[str]
) -> bytes | None:
    """One version holding every change of `versions` (each the memory at a commit): those a
    later one already contains (its commit is an ancestor) are left out, the others merged
    against the memory at their common commit — so no use is counted twice."""
    latest = [
        (commit, data)
        for commit, data in versions
        if not any(
            other != commit and runner.run("merge-base", "--is-ancestor", commit, other).ok
            for other, _ in versions
        )
    ]
    combined: bytes | None = None
    seen: list[str] = []
    for commit, data in latest:
        if combined is None:
            combined, seen = data, [commit]
            continue
        common = runner.run("merge-base", commit, *seen).out.decode().strip()
        base = version_at(runner, common, memory_id, folders) if common else None
        outcome = merge_versions(base, combined, data)
        if outcome.clean:
            combined = outcome.result
        seen.append(commit)
    return combined
