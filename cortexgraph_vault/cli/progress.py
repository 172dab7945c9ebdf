"""Progress bars for the CLI's long operations (tqdm), on a terminal only.

With --json, or when stderr is not a terminal (a pipe, a log, CI), nothing is drawn: the
output stays exactly the result.
"""

from __future__ import annotations

import io
import os
import sys
from typing import TYPE_CHECKING, NoReturn, TextIO

from cortexgraph_vault.progress import Progress, ProgressFactory

if TYPE_CHECKING:  # imported when a bar is first drawn: most commands draw none
    from tqdm import tqdm

# Below this many items an operation is quick enough to need no bar (setting
# progress_min_items: a test draws bars on a few notes instead of waiting on thousands).
PROGRESS_FROM = 200


class TerminalBar:
    """One phase's bar, opened on the first report large enough to need one."""

    def __init__(self, label: str, stream: TextIO, min_items: int = PROGRESS_FROM) -> None:
        self.label = label
        self.stream = stream
        self.min_items = min_items
        self.bar: tqdm[NoReturn] | None = None  # a bar with no iterable (tqdm(total=...))

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if total < self.min_items:
                return
            from tqdm import tqdm

            # A terminal that reports no size (some CI shells, `script`) gets 80 columns.
            sized = _columns(self.stream) > 0
            self.bar = tqdm(
                total=total,
                desc=self.label,
                unit="note",
                file=self.stream,
                dynamic_ncols=sized,
                ncols=None if sized else 80,
            )
        self.bar.total = total
        self.bar.update(max(0, done - self.bar.n))
        if done >= total:
            self.bar.close()
            self.bar = None


def _columns(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, io.UnsupportedOperation):
        return 0


def terminal_progress(
    as_json: bool, stream: TextIO | None = None, min_items: int = PROGRESS_FROM
) -> ProgressFactory | None:
    out = stream if stream is not None else sys.stderr
    if as_json or not out.isatty():
        return None

    def factory(label: str) -> Progress:
        return TerminalBar(label, out, min_items)

    return factory
