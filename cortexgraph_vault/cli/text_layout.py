"""The pieces of human output: aligned tables, shortened text, values in words, text safe for
a terminal (kept free of heavy imports: the CLI's error path uses it)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# C0 controls but newline and tab, DEL, and C1 controls (U+009B is a CSI on its own): a memory's
# text could otherwise move the cursor, retitle the window or ring the bell of whoever reads it.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """Text for a terminal: control characters shown as `\\x1b`, never sent as themselves."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def cell(value: object) -> str:
    """A value as a person reads it: lists joined by commas, never a Python repr."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={cell(v)}" for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(cell(v) for v in value)
    return str(value)


def table(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> str:
    cells = [[str(h) for h in headers], *[[cell(c) for c in r] for r in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def short_id(memory_id: str | None) -> str:
    return (memory_id or "")[:8]


def commit_line(commit: str | None) -> list[str]:
    return [f"commit {commit[:10]}"] if commit else []


def listed(label: str, items: Sequence[str]) -> list[str]:
    """One line of `label` and the items, comma-separated; none when there are none."""
    return [f"{label}{', '.join(items)}"] if items else []
