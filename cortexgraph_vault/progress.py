"""How a long operation reports how far it got: a `Progress` callback, `(done, total)`.

Operations ask the engine's `ProgressFactory` for one per phase ("indexing", "forgetting"...);
by default it drops every report. The CLI hands in a factory that draws a bar on a terminal;
the MCP server and the daemon keep the silent default (stdout is the protocol there).
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
ProgressFactory = Callable[[str], Progress]


def _ignore(done: int, total: int) -> None:
    return None


def no_progress(label: str) -> Progress:
    return _ignore


class TransferLine(str):
    """One of git's progress lines, as git wrote it (without `remote: `), with its numbers."""

    phase: str
    percent: int
    done: int
    total: int

    def __new__(cls, text: str, phase: str, percent: int, done: int, total: int) -> TransferLine:
        line = super().__new__(cls, text)
        line.phase, line.percent, line.done, line.total = phase, percent, done, total
        return line
