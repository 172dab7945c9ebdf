"""The git merge driver for memory notes: `cortexgraph-vault merge-driver %O %A %B %L %P` (or
`python -m cortexgraph_vault.merge_driver ...`); history/merge_setup.py says how git finds it.

Git runs it once per memory note that changed on both sides of a merge, from the top of the
work tree, with the base (%O), ours (%A, where the result goes) and theirs (%B) in temporary
files and the note's path (%P). Exit 0 tells git the path is merged; any other status leaves it
in conflict with %A as written. It imports only the pure core, so each run starts fast.

A merge whose text was changed on both sides still exits 0: both versions sit in the body
between conflict markers and the note carries `merge_conflict`, which `status` and `doctor`
report — so an automatic pull (obsidian-git, `sync`) is never stopped by a memory. A version
that is not a memory note (broken frontmatter, binary) gets a plain text merge, and a conflict
there is git's ordinary conflict.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from cortexgraph_vault.core.note_merge import VersionMerge, merge_versions


def free_sibling(path: Path) -> Path:
    """`Title 2.md`, `Title 3.md`, ... beside `path`: the first name not taken."""
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem} {n}{path.suffix}")
        if not os.path.lexists(candidate):
            return candidate
        n += 1


def apply_merge(outcome: VersionMerge, result_file: Path, note_path: Path) -> str | None:
    """Write the merge where git wants it; a second memory goes beside the note. Returns the
    second memory's path, if one was written."""
    result_file.write_bytes(outcome.result)
    if outcome.other is None:
        return None
    sibling = free_sibling(note_path)
    sibling.parent.mkdir(parents=True, exist_ok=True)
    sibling.write_bytes(outcome.other)
    return str(sibling)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (4, 5):
        print("usage: merge_driver BASE OURS THEIRS [MARKER_SIZE] PATH", file=sys.stderr)
        return 2
    base_file, ours_file, theirs_file, note = Path(args[0]), Path(args[1]), Path(args[2]), args[-1]
    try:
        base = base_file.read_bytes()
        ours, theirs = ours_file.read_bytes(), theirs_file.read_bytes()
        outcome = merge_versions(base or None, ours, theirs)
        kept = apply_merge(outcome, ours_file, Path(note))
    except OSError as exc:
        print(f"cortexgraph-vault merge: {note}: {exc}; left to git", file=sys.stderr)
        return 1
    if outcome.report:
        print(f"cortexgraph-vault merge: {note}: {outcome.report}", file=sys.stderr)
    if kept:
        print(
            f"cortexgraph-vault merge: {note}: a second memory with this name kept as {kept}",
            file=sys.stderr,
        )
    return 0 if outcome.clean else 1


if __name__ == "__main__":
    sys.exit(main())
