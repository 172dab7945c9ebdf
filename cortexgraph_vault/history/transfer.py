"""A fetch or push whose progress is heard: git's own transfer lines ("Receiving objects:  45%
(450/1000), 1.20 MiB | 2.00 MiB/s") read from its stderr as they come, for a long transfer.

Git draws its progress with carriage returns on stderr when asked (`--progress`), whatever
stderr is; each update is one line here.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from cortexgraph_vault.errors import GitError
from cortexgraph_vault.history.runner import CONFIG_ARGS, GitResult, GitRunner
from cortexgraph_vault.progress import TransferLine

_LINE = re.compile(
    r"^(?:remote: )?(?P<phase>[A-Z][A-Za-z ]+):\s+(?P<percent>\d+)% \((?P<done>\d+)/(?P<total>\d+)\)"
)
_SPLIT = re.compile(rb"[\r\n]")


def transfer_line(text: str) -> TransferLine | None:
    found = _LINE.match(text.strip())
    if found is None:
        return None
    shown = text.strip().removeprefix("remote: ").strip()
    return TransferLine(
        shown, found["phase"], int(found["percent"]), int(found["done"]), int(found["total"])
    )


@dataclass
class _Lines:
    hear: Callable[[TransferLine], object]
    last: str = ""

    def feed(self, part: bytes) -> None:
        text = part.decode("utf-8", "replace").strip()
        line = transfer_line(text) if text and text != self.last else None
        if line is not None:
            self.last = text
            self.hear(line)


def run_with_progress(
    runner: GitRunner, *args: str, hear: Callable[[TransferLine], object]
) -> GitResult:
    """`git <args> --progress`, each progress line handed to `hear`; stdout is not kept."""
    command = ["git", *CONFIG_ARGS, *args[:1], "--progress", *args[1:]]
    try:
        process = subprocess.Popen(
            command,
            cwd=runner.work_tree,
            env={**os.environ, **runner.environment()},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        raise GitError(f"{runner.vault_root}: git could not be run ({exc})") from exc
    assert process.stderr is not None
    lines = _Lines(hear)
    kept = bytearray()
    pending = b""
    while chunk := os.read(process.stderr.fileno(), 65536):
        kept += chunk
        parts = _SPLIT.split(pending + chunk)
        pending = parts.pop()
        for part in parts:
            lines.feed(part)
    lines.feed(pending)
    status = process.wait()
    return GitResult(status, b"", kept.decode("utf-8", "replace"))
