"""Whether git is in the middle of an operation (a rebase, merge, cherry-pick, revert, bisect)
that our writes must keep out of, read from the marker files git leaves in its folder.

While a rebase is stopped on a conflict, HEAD is a commit the rebase is building on: a commit
of ours made there is dropped by `git rebase --abort`, and an edit of a tracked note is reset
by it. A bisect has checked out an old commit, which `git bisect reset` leaves behind. So while
one is in progress, a new memory (a file git does not track, which every abort and reset leaves
in place) is written and its commit held until the operation ends; a change to a note git
tracks (a use, a promotion, a forget, an update) is refused, before any file changes, with the
operation named and how to end it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from cortexgraph_vault.errors import GitOperationInProgress

# marker in git's folder, what it says, how a person ends it
_MARKERS = (
    ("rebase-merge", "a rebase", "`git rebase --continue` or `git rebase --abort`"),
    ("rebase-apply", "a rebase (or `git am`)", "`git rebase --continue` or `--abort`"),
    ("MERGE_HEAD", "a merge", "commit the merge, or `git merge --abort`"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "`git cherry-pick --continue` or `--abort`"),
    ("REVERT_HEAD", "a revert", "`git revert --continue` or `--abort`"),
    ("sequencer", "a cherry-pick or revert of several commits", "`--continue` or `--abort`"),
    ("BISECT_LOG", "a bisect", "`git bisect reset`"),
)
_NO_REPOSITORY_RECHECK = 10.0


def operation_in_progress(git_dir: Path) -> str | None:
    """What git is in the middle of in `git_dir`, as a sentence, or None."""
    try:
        names = set(os.listdir(git_dir))
    except OSError:
        return None
    for marker, what, finish in _MARKERS:
        if marker in names:
            return f"{what} is in progress in {git_dir} ({marker} is there; end it with {finish})"
    return None


def refusal(doing: str, state: str) -> GitOperationInProgress:
    return GitOperationInProgress(
        f"{state}; {doing} waits until it is over: a commit made now would be lost to it, and an "
        "edit of a note git tracks would be reset by an abort. Nothing was changed"
    )


def held(state: str) -> GitOperationInProgress:
    return GitOperationInProgress(
        f"not committed yet: {state}; the commit is made once it is over (at the next write or "
        "start)"
    )


class GitStateWatch:
    """`state()`: what git is in the middle of for one vault, looked up cheaply enough to ask
    before every change. `git_dir` finds the repository's folder (None: no repository)."""

    def __init__(self, git_dir: Callable[[], Path | None]) -> None:
        self._find = git_dir
        self._dir: Path | None = None
        self._looked_for = -_NO_REPOSITORY_RECHECK
        self._lock = threading.Lock()

    def state(self) -> str | None:
        with self._lock:
            folder = self._folder()
            if folder is not None and not folder.is_dir():
                self._dir = folder = None
            return None if folder is None else operation_in_progress(folder)

    def refuse_change(self, doing: str) -> None:
        """Raise GitOperationInProgress when a change to a tracked note must wait."""
        state = self.state()
        if state is not None:
            raise refusal(doing, state)

    def _folder(self) -> Path | None:
        if self._dir is None and time.monotonic() - self._looked_for >= _NO_REPOSITORY_RECHECK:
            self._looked_for = time.monotonic()
            self._dir = self._find()
        return self._dir
