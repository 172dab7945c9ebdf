"""How a long operation reports how far it got: a `Progress` callback, `(done, total)`.

Operations ask the engine's `ProgressFactory` for one per phase ("indexing", "forgetting"...);
by default it drops every report. The CLI hands in a factory that draws a bar on a terminal;
the MCP server and the daemon keep the silent default (stdout is the protocol there).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Progress = Callable[[int, int], None]
ProgressFactory = Callable[[str], Progress]


def _ignore(done: int, total: int) -> None:
    return None


def no_progress(label: str) -> Progress:
    return _ignore


Steps = Callable[[str], object]
_steps: ContextVar[Steps | None] = ContextVar("cortexgraph_steps", default=None)


@contextlib.contextmanager
def steps_to(listener: Steps | None) -> Iterator[None]:
    """Within the block, an operation that goes in named steps (sync: recording, fetching,
    merging, pushing) tells `listener` each one, and git's transfer lines (`TransferLine`);
    the CLI prints them on a terminal. Outside, nobody hears them."""
    token = _steps.set(listener)
    try:
        yield
    finally:
        _steps.reset(token)


def step_listener() -> Steps | None:
    """Who hears the steps of the operation running now (`steps_to`), if anyone."""
    return _steps.get()


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
