"""Installing the merge driver for memory notes in a vault's repository.

Two halves, because git versions one and not the other: the `.gitattributes` line that routes
memory notes to the driver is committed (every clone gets it), while the `[merge "cortexgraph"]`
section naming the command lives in `.git/config`, which every clone must get from `init` or
`doctor --fix`. The command is this Python running `cortexgraph_vault.merge_driver`: an absolute
path, so git finds it whatever PATH the process that merges (obsidian-git, a terminal) has.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from cortexgraph_vault.history.recording import record
from cortexgraph_vault.history.runner import GitRunner

DRIVER = "cortexgraph"
DRIVER_TITLE = "cortexgraph-vault memory notes (field by field)"
ATTRIBUTES_HEADER = (
    "# Written by cortexgraph-vault: memory notes merge field by field across devices."
)


def driver_command() -> str:
    return f"{shlex.join([sys.executable, '-m', 'cortexgraph_vault.merge_driver'])} %O %A %B %L %P"


def attribute_lines(folders: Iterable[str]) -> list[str]:
    # gitattributes splits on whitespace: a space in a folder name is written as a class.
    return [
        f"{folder.strip('/').replace(' ', '[[:space:]]')}/**/*.md merge={DRIVER}"
        for folder in folders
    ]


@dataclass(frozen=True)
class DriverState:
    config_command: str | None  # what .git/config says, if anything
    missing_lines: tuple[str, ...]  # .gitattributes lines the vault lacks

    @property
    def installed(self) -> bool:
        return self.config_command == driver_command() and not self.missing_lines


def driver_state(runner: GitRunner, folders: Iterable[str]) -> DriverState:
    found = runner.run("config", "--local", "--get", f"merge.{DRIVER}.driver")
    command = found.out.decode().strip() if found.ok else None
    path = runner.vault_root / ".gitattributes"
    try:
        present = {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    except (FileNotFoundError, UnicodeDecodeError):
        present = set()
    missing = tuple(line for line in attribute_lines(folders) if line not in present)
    return DriverState(command, missing)


def install_driver(runner: GitRunner, folders: Iterable[str], lock_wait: float) -> list[str]:
    """Make the driver work in this clone; returns what was changed (empty: nothing needed)."""
    folders = list(folders)
    state = driver_state(runner, folders)
    done: list[str] = []
    if state.config_command != driver_command():
        runner.check("config", "--local", f"merge.{DRIVER}.name", DRIVER_TITLE)
        runner.check("config", "--local", f"merge.{DRIVER}.driver", driver_command())
        done.append(f"merge driver in {runner.git_dir / 'config'}")
    if state.missing_lines:
        path = runner.vault_root / ".gitattributes"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        if text and not text.endswith("\n"):
            text += "\n"
        if ATTRIBUTES_HEADER not in text:
            text += ATTRIBUTES_HEADER + "\n"
        path.write_text(text + "".join(f"{line}\n" for line in state.missing_lines), "utf-8")
        if runner.has_head():
            record(
                runner,
                [".gitattributes"],
                "cortexgraph-vault: merge memory notes field by field",
                lock_wait,
            )
        done.append(f"{len(state.missing_lines)} line(s) in {path}")
    return done
