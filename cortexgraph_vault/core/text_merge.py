"""A three-way merge of text, line by line (pure; diff3's rule).

Lines that both sides kept from the base are anchors. Between two anchors each side either left
the base's lines alone, or changed them: one side's change is taken; the same change on both
sides is taken once; different changes on both sides are a conflict, and both sides' lines are
kept between the usual markers so that no word is lost and any git tool recognises them.

It runs in-process (no `git merge-file` per note), so a sync that merges a thousand notes stays
one process.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

MARKER_SIZE = 7


@dataclass(frozen=True)
class TextMerge:
    text: str
    conflicts: int  # regions changed differently on both sides (kept between markers)


def split_lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _matches(base: list[str], side: list[str]) -> dict[int, int]:
    """base line index -> side line index, for the lines the side kept unchanged."""
    found: dict[int, int] = {}
    matcher = SequenceMatcher(None, base, side, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            found[block.a + k] = block.b + k
    return found


def _ended(lines: list[str], newline: str) -> list[str]:
    """The lines with the last one ended, so a marker after it starts on a line of its own."""
    if lines and not lines[-1].endswith(("\n", "\r")):
        return [*lines[:-1], lines[-1] + newline]
    return lines


def merge_text(
    base: str,
    ours: str,
    theirs: str,
    *,
    ours_label: str = "this device",
    theirs_label: str = "other device",
    marker_size: int = MARKER_SIZE,
) -> TextMerge:
    if ours == theirs or theirs == base:
        return TextMerge(ours, 0)
    if ours == base:
        return TextMerge(theirs, 0)
    b, a, t = split_lines(base), split_lines(ours), split_lines(theirs)
    newline = "\r\n" if (a and a[0].endswith("\r\n")) else "\n"
    in_ours, in_theirs = _matches(b, a), _matches(b, t)
    anchors = [
        (i, in_ours[i], in_theirs[i]) for i in range(len(b)) if i in in_ours and i in in_theirs
    ]
    anchors.append((len(b), len(a), len(t)))  # the end is an anchor of every side
    out: list[str] = []
    conflicts = 0
    i0 = a0 = t0 = 0
    for i1, a1, t1 in anchors:
        chunk_b, chunk_a, chunk_t = b[i0:i1], a[a0:a1], t[t0:t1]
        if chunk_a == chunk_b:
            out.extend(chunk_t)
        elif chunk_t == chunk_b or chunk_a == chunk_t:
            out.extend(chunk_a)
        else:
            conflicts += 1
            out = _ended(out, newline)
            out.append("<" * marker_size + f" {ours_label}{newline}")
            out.extend(_ended(chunk_a, newline))
            out.append("=" * marker_size + newline)
            out.extend(_ended(chunk_t, newline))
            out.append(">" * marker_size + f" {theirs_label}{newline}")
        if i1 < len(b):
            out.append(a[a1])
        i0, a0, t0 = i1 + 1, a1 + 1, t1 + 1
    return TextMerge("".join(out), conflicts)
